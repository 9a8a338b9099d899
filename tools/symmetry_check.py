"""Are seog's verdicts the same for a turned board? Every position of the given dev sets is scored
as it is, under the 7 other rotations and reflections of the board, and under each of the 8 with
the colours swapped; a position is listed when some block's verdict changes (and when its result
does: under a colour swap, komi 0 and the margin negated). Ends with the counts, and with how many
positions have some block whose cascade probability (before the refiner) moves under one of the 15.

    python tools/symmetry_check.py ../shared/data/kgs-2017-q1 ../shared/data/gnugo-regression-games \
        ../shared/data/ogs-score-estimator                                  # 591 positions, ~3 min
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from seog.classifiers.model_file import load_default
from seog.classifiers.refiner import SYMMETRIES, inputs, rotate
from seog.classifiers.status import cascade_statuses
from seog.datasets.devsets import read
from seog.features.board import Board
from seog.features.coords import BLACK, WHITE
from seog.features.topology import analyze
from seog.scoring.rules import rules_from_sgf
from seog.scoring.score import score_position


def scored(grid: np.ndarray, rules, komi: float, prisoners: dict):
    """(dead mask, score) of a grid."""
    score = score_position(Board.from_grid(np.ascontiguousarray(grid).astype(np.int8)), rules=rules,
                           komi=komi, prisoners=prisoners)
    dead = np.zeros(grid.size, dtype=bool)
    dead[np.asarray(score.dead, dtype=int)] = True
    return dead.reshape(grid.shape), score


def cascade_p(grid: np.ndarray) -> np.ndarray:
    """The cascade's verdict plane the refiner reads (each stone's p_alive mapped to [-1, 1])."""
    topology = analyze(np.ascontiguousarray(grid).astype(np.int8))
    return inputs(topology, cascade_statuses(topology, load_default()))[-1]


def cascade_moves(grid: np.ndarray) -> float:
    """The most any stone's cascade p_alive moves under the 7 other symmetries and the 8 with the
    colours swapped (half the plane's move: the plane maps p_alive to [-1, 1])."""
    p = cascade_p(grid)
    return max(float(np.abs(cascade_p(sign * rotate(grid, turns, mirror)) - rotate(p, turns, mirror)).max()) / 2
               for turns, mirror in SYMMETRIES for sign in (1, -1) if turns or mirror or sign < 0)


def check(position) -> tuple[list, list, list, list]:
    """The symmetries that change some verdict, or the result; the same with the colours swapped."""
    grid, rules = position.board.grid, rules_from_sgf(position.rules)
    prisoners = dict(position.board.prisoners)
    swapped = {BLACK: prisoners.get(WHITE, 0), WHITE: prisoners.get(BLACK, 0)}
    dead, score = scored(grid, rules, position.komi, prisoners)
    _, even = scored(grid, rules, 0.0, prisoners)
    verdicts, results, swap_verdicts, swap_results = [], [], [], []
    for turns, mirror in SYMMETRIES:
        name = f"turn {turns}{' mirrored' if mirror else ''}"
        if turns or mirror:
            d, s = scored(rotate(grid, turns, mirror), rules, position.komi, prisoners)
            if not np.array_equal(d, rotate(dead, turns, mirror)):
                verdicts.append(name)
            if s.result != score.result:
                results.append(f"{name}: {s.result}")
        d, s = scored(-rotate(grid, turns, mirror), rules, 0.0, swapped)
        if not np.array_equal(d, rotate(dead, turns, mirror)):
            swap_verdicts.append(name)
        if s.margin != -even.margin:
            swap_results.append(name)
    return verdicts, results, swap_verdicts, swap_results


def main(folders: list[str]) -> int:
    if not folders:
        print(__doc__)
        return 2
    counts = [0] * 4
    total, moved, far = 0, 0, 0
    for folder in folders:
        for position in read(folder)[0]:
            total += 1
            found = check(position)
            name = f"{Path(folder).name}/{position.name}"
            if found[0] or found[1]:
                print(f"{name}: verdicts change under {', '.join(found[0]) or '-'}; results {'; '.join(found[1]) or '-'}")
            if found[2] or found[3]:
                print(f"{name}: colours swapped, verdicts change under {', '.join(found[2]) or '-'}; "
                      f"margin under {', '.join(found[3]) or '-'}")
            counts = [c + bool(f) for c, f in zip(counts, found)]
            move = cascade_moves(position.board.grid)
            moved, far = moved + (move > 1e-6), far + (move > 0.1)
    print(f"{total} positions: some verdict changes under a board symmetry in {counts[0]}, the result in "
          f"{counts[1]}; with the colours swapped (under any symmetry) verdicts in {counts[2]}, the margin in {counts[3]}; "
          f"the cascade's probability of some block moves in {moved} (by more than 0.1 in {far})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
