"""The shipped reader's recipe with six more input planes on every stone: its chain's liberties
(one, two, three) and how many small eyes its chain encloses alone (none, one, two or more). Does
the reader miss how short of liberties and of eyes a whole group is? The planes it reads now give
each block's own liberties only.

    python tools/group_planes_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --record runs/group-planes.json      # 9 min on 2 cores

A chain is the blocks of one colour that share a liberty (``topology.chains``); a small eye is a
region of three points or fewer that the chain's blocks enclose alone (``topology.cers``). The
planes are colour-blind, so a colour swap in training leaves them. The figures are the trainer's
(``train_refiner.held_out``: the reader alone, one pass), beside those of the same recipe without
the planes in docs/model.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from torch import nn

from seog.classifiers import planes_cache
from seog.classifiers import train_refiner as trainer
from seog.classifiers.refiner import COLOR_SWAP, N_INPUTS
from seog.datasets.heldout import board_of
from seog.features.topology import analyze

EXTRA = 6


def group_planes(planes: np.ndarray) -> np.ndarray:
    """``(EXTRA, N, N)`` float16: chain liberties 1 / 2 / 3, chain small eyes 0 / 1 / 2+, on stones."""
    grid = board_of(planes)
    n = grid.shape[0]
    size = planes.shape[-1]
    out = np.zeros((EXTRA, size, size), dtype=np.float16)
    top = analyze(grid)
    if not top.blocks:
        return out
    eyes = {}
    for color in (1, -1):
        for cer in top.cers[color]:
            if len(cer.points) <= 3 and cer.blocks:
                chains = {top.blocks[b].chain for b in cer.blocks}
                if len(chains) == 1:
                    c = chains.pop()
                    eyes[c] = eyes.get(c, 0) + 1
    view = out[:, :n, :n].reshape(EXTRA, n * n)
    for c, chain in enumerate(top.chains):
        pts = chain.points
        libs = len(chain.liberties)
        if libs <= 3:
            view[libs - 1, pts] = 1
        view[3 + min(eyes.get(c, 0), 2), pts] = 1
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    data = planes_cache.load(args.planes)
    extra = np.stack([group_planes(x) for x in data["planes"]])
    planes = np.concatenate([data["planes"], extra.astype(data["planes"].dtype)], axis=1)
    # planes: the 14 board and status planes, the six group planes, then the finished plane the
    # trainer appends; a colour swap leaves the group planes where they are
    trainer.SWAP_INPUTS = np.array(COLOR_SWAP + [N_INPUTS - 1] + [N_INPUTS + i for i in range(EXTRA)]
                                   + [N_INPUTS + EXTRA])
    plain_init = trainer.RefinerNet.__init__

    def init(self, *a, **k):
        plain_init(self, *a, **k)
        self.stem = nn.Conv2d(N_INPUTS + 1 + EXTRA, self.stem.out_channels, self.stem.kernel_size,
                              padding=self.stem.padding)

    trainer.RefinerNet.__init__ = init
    trainer.to_refiner = lambda net: None  # the numpy refiner takes no such planes: figures only
    _, record = trainer.train(planes, data["segments"], data["ownership"], data["split"], data["finished"],
                              channels=32, layers=6, global_pool=True, epochs=args.epochs, seed=args.seed,
                              small_weight=4, finished_plane=True)
    record.pop("curve")
    Path(args.record).write_text(json.dumps(record, indent=1))
    print(json.dumps(record["held_out"]))


if __name__ == "__main__":
    main()
