"""The shipped reader's recipe with two more input planes on the stones of every block of three
liberties or fewer: whether the capture search takes it with its opponent to move, and whether it
takes it even with its owner to move. Does the reader miss what a tactical search reads? Most of
the finished positions it gets wrong on the hash side turn on blocks of one to five stones.

    python experiments/tactics_planes_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --record runs/tactics-planes.json

The search is ``features.reading.Reader`` (12 plies, 70 positions a block, at most 1,000 a
board). The planes are colour-blind, so a colour swap in training leaves them. The figures are
the trainer's (``train_refiner.held_out``: the reader alone, one pass), beside those of the same
recipe without the planes in docs/trials.md.
"""

from __future__ import annotations

import time

import numpy as np
import plane_trial

from seog.classifiers import planes_cache
from seog.features.reading import Budget, Reader

EXTRA = 2
MAX_LIBERTIES = 3


def captured(reader: Reader, points: np.ndarray, owner_first: bool) -> bool:
    """Does the search take the block at ``points``, its owner or its opponent moving first?"""
    target = reader.flat(points[0])
    color = reader.start[target]
    reader.left, reader.table = min(reader.nodes, reader.total), {}
    try:
        return reader._search(reader.start, target, 3 - color, color if owner_first else 3 - color, -1,
                              reader.depth) is True
    except Budget:
        return False
    finally:
        reader.total -= min(reader.nodes, reader.total) - max(reader.left, 0)


def tactics_planes(planes: np.ndarray) -> np.ndarray:
    """``(EXTRA, N, N)`` float16 on the stones of short blocks: taken with the opponent to move;
    taken with the owner to move."""
    view, top = plane_trial.canvas(planes, EXTRA)
    reader = Reader(top.grid, total=1000)
    for block in sorted(top.blocks, key=lambda b: len(b.liberties)):
        if len(block.liberties) > MAX_LIBERTIES:
            break
        if captured(reader, block.points, owner_first=False):
            view[0, block.points] = 1
            if captured(reader, block.points, owner_first=True):
                view[1, block.points] = 1
    return plane_trial.on_canvas(view, planes)


def main() -> None:
    args = plane_trial.arguments(__doc__.splitlines()[0])
    data = planes_cache.load(args.planes)
    start = time.perf_counter()
    extra = np.stack([tactics_planes(x) for x in data["planes"]])
    print(f"planes of {len(extra)} positions in {time.perf_counter() - start:.0f} s; stones marked: "
          f"{int(extra[:, 0].sum(dtype=np.int64))} taken with the opponent to move, "
          f"{int(extra[:, 1].sum(dtype=np.int64))} with the owner too")
    plane_trial.train_with(data, extra, list(range(EXTRA)), args)  # colour-blind: a swap leaves them


if __name__ == "__main__":
    main()
