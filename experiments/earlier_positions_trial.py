"""The reader taught on positions a few moves before the end of counted games as well, each
with the ownership of the game's last position as its target (as engines teach an ownership
head on every position of a game). Near the end of a game that was counted, a block's fate is
the one it has on the last board: a block taken off in the last moves is dead, one that is
still there is what the last position says. The "final" recipe of
``experiments/stacked_cascade_trial.py`` (the cascade of the training side alone,
``runs/stack-cascade.npz``; the reader on its verdicts), with these positions added on the
training side only: the held-out sides and their figures are unchanged.

    python experiments/earlier_positions_trial.py --cascade runs/stack-cascade.npz \\
        --archive ../shared/data/kgs-6d-more.tar.xz --labels ../shared/data/kgs-6d-more-katago.npz \\
        --planes cache/planes-more.npz cache/planes-train.npz cache/planes-selfplay.npz \\
        --back 4 10 20 --out runs/early                                                      # 30 min

writes ``runs/early-planes.npz`` (the added positions) and ``runs/early-final.npz`` (the cascade
with its reader) with its training record (``.json``).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from stacked_cascade_trial import save_reader, status_planes

from seog.classifiers import model_file, planes_cache
from seog.datasets import planes as planes_data
from seog.datasets.split import split_of


def earlier_boards(data: bytes, back: list[int]) -> list[tuple[int, np.ndarray]]:
    """(k, the board k moves before the last move) of a record (``cache.board_before``)."""
    from seog.datasets.cache import board_before
    from seog.features import sgf

    game = sgf.loads(data)
    return [(k, grid) for k in back if (grid := board_before(game, k)) is not None]


def _one(item):
    name, data, owner, back = item
    try:
        out = []
        for k, grid in earlier_boards(data, back):
            n = grid.shape[0]
            out.append((f"{name}", k) + planes_data.example(grid, owner.reshape(n, n)))
        return out
    except ValueError:
        return []


def counted_training_games(archive: Path, labels: Path, back: list[int]):
    """(name, SGF bytes, ownership row, back) of the archive's counted games on the training side."""
    from seog.scoring.result import parse_result

    for name, data, owner in planes_data.archive_items(archive, labels):
        if split_of(name) != "train":
            continue
        head = data[:4000].decode("latin-1")
        start = head.find("RE[")
        if start < 0 or not parse_result(head[start + 3:head.find("]", start)]).counted:
            continue
        yield name, data, owner, back


def build(args) -> dict:
    start = time.perf_counter()
    items = counted_training_games(args.archive, args.labels, args.back)
    with ProcessPoolExecutor(2, initializer=planes_data._init, initargs=(str(args.cascade),)) as pool:
        rows = [r for part in pool.map(_one, items, chunksize=32) for r in part]
    arrays = dict(planes=np.stack([r[2] for r in rows]), segments=np.stack([r[3] for r in rows]),
                  ownership=np.stack([r[4] for r in rows]), names=np.array([r[0] for r in rows]),
                  back=np.array([r[1] for r in rows], dtype=np.int16))
    np.savez(f"{args.out}-planes.npz", **arrays)
    print(f"{len(rows)} earlier positions in {time.perf_counter() - start:.0f} s", flush=True)
    return arrays


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cascade", required=True)
    p.add_argument("--archive", type=Path, required=True)
    p.add_argument("--labels", type=Path, required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--back", nargs="+", type=int, default=[4, 10, 20])
    p.add_argument("--out", required=True, help="prefix of the files written")
    p.add_argument("--epochs", type=int, default=10)
    args = p.parse_args()
    cached = Path(f"{args.out}-planes.npz")
    extra = dict(np.load(cached)) if cached.exists() else build(args)

    cascade = model_file.load(args.cascade)
    cascade.refiner = None
    data = planes_cache.load(args.planes)
    planes = status_planes(data, lambda row: cascade)
    m = len(extra["names"])
    save_reader(np.concatenate([planes, extra["planes"]]), np.concatenate([data["segments"], extra["segments"]]),
                np.concatenate([data["ownership"], extra["ownership"]]),
                np.concatenate([data["split"], np.full(m, "train")]),
                np.concatenate([data["finished"], np.ones(m, dtype=bool)]),
                args.cascade, f"{args.out}-final.npz", args.epochs, status_plane="final", earlier_positions=args.back)

if __name__ == "__main__":
    main()
