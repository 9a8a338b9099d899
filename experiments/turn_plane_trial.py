"""The shipped reader's recipe with two more input planes, Black to move and White to move: does
the reader miss whose turn it is? KataGo read every archive position with the player after the
last move (trailing passes left out) to move, and a race or a ko can turn on that.

    python experiments/turn_plane_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --record runs/turn-plane.json      # 7 min on 2 cores

The side to move of each cache row is read again from its game (the archives under
``../shared/data`` for KGS games, the SGF file for self-play); a colour swap in training swaps
the two planes. The figures are the trainer's (``train_refiner.held_out``: the reader alone, one
pass), beside those of the same recipe without the planes in docs/trials.md.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import plane_trial

from seog.classifiers import planes_cache
from seog.datasets import archive
from seog.features import sgf

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
ARCHIVES = (DATA / "kgs-6d-more.tar.xz", DATA / "kgs-6d-train.tar.xz")


def to_move(game) -> int:
    """+1 when Black plays next after the last move that is not a pass, -1 for White."""
    played = [color for color, point in game.moves if point is not None]
    if played:
        return -int(played[-1])
    return -1 if game.handicap else 1


def turns(names) -> np.ndarray:
    """The side to move of each planes-cache row, by its game's name (0 where no game is found)."""
    wanted = {str(n) for n in names}
    found: dict[str, int] = {}
    for source in ARCHIVES:
        for entry in archive.read(source):
            name = entry.name.rsplit("/", 1)[-1].removesuffix(".sgf")
            if name in wanted and name not in found and entry.data is not None:
                found[name] = to_move(sgf.loads(entry.data))
    for name in wanted - found.keys():
        if name.endswith(".sgf") and Path(name).exists():
            found[name] = to_move(sgf.load(name))
    return np.array([found.get(str(n), 0) for n in names], dtype=np.int8)


def main() -> None:
    args = plane_trial.arguments(__doc__.splitlines()[0])
    data = planes_cache.load(args.planes)
    side = turns(data["names"])
    print(f"side to move: Black {int((side == 1).sum())}, White {int((side == -1).sum())}, "
          f"unknown {int((side == 0).sum())}")
    board = data["planes"][:, 3:4]  # on the board
    extra = np.concatenate([board * (side == 1)[:, None, None, None].astype(np.float16),
                            board * (side == -1)[:, None, None, None].astype(np.float16)], axis=1)
    plane_trial.train_with(data, extra, [1, 0], args)  # Black to move, White to move: a colour swap swaps them


if __name__ == "__main__":
    main()
