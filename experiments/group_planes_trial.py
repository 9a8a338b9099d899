"""The shipped reader's recipe with six more input planes on every stone: its chain's liberties
(one, two, three) and how many small eyes its chain encloses alone (none, one, two or more). Does
the reader miss how short of liberties and of eyes a whole group is? The planes it reads now give
each block's own liberties only.

    python experiments/group_planes_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --record runs/group-planes.json      # 9 min on 2 cores

A chain is the blocks of one colour that share a liberty (``topology.chains``); a small eye is a
region of three points or fewer that the chain's blocks enclose alone (``topology.cers``). The
planes are colour-blind, so a colour swap in training leaves them. The figures are the trainer's
(``train_refiner.held_out``: the reader alone, one pass), beside those of the same recipe without
the planes in docs/trials.md.
"""

from __future__ import annotations

import numpy as np
import plane_trial

from seog.classifiers import planes_cache

EXTRA = 6


def group_planes(planes: np.ndarray) -> np.ndarray:
    """``(EXTRA, N, N)`` float16: chain liberties 1 / 2 / 3, chain small eyes 0 / 1 / 2+, on stones."""
    view, top = plane_trial.canvas(planes, EXTRA)
    eyes = {}
    for color in (1, -1):
        for cer in top.cers[color]:
            if len(cer.points) <= 3 and cer.blocks:
                chains = {top.blocks[b].chain for b in cer.blocks}
                if len(chains) == 1:
                    c = chains.pop()
                    eyes[c] = eyes.get(c, 0) + 1
    for c, chain in enumerate(top.chains):
        pts = chain.points
        libs = len(chain.liberties)
        if libs <= 3:
            view[libs - 1, pts] = 1
        view[3 + min(eyes.get(c, 0), 2), pts] = 1
    return plane_trial.on_canvas(view, planes)


def main() -> None:
    args = plane_trial.arguments(__doc__.splitlines()[0])
    data = planes_cache.load(args.planes)
    extra = np.stack([group_planes(x) for x in data["planes"]])
    plane_trial.train_with(data, extra, list(range(EXTRA)), args)  # colour-blind: a swap leaves them


if __name__ == "__main__":
    main()
