"""Boards of games that did not end with a count (resigned, lost on time), posted without their
record, read as they are read now and with ``finished: false``: for the positions of a held-out
side whose borders are closed (so the board alone looks finished) and for the rest, positions
and blocks right against KataGo's read, and how far the Japanese count lies from the count of
KataGo's dead stones.

    python experiments/said_unfinished_table.py --planes cache/planes-more.npz cache/planes-train.npz \\
        cache/planes-selfplay.npz --side hash                                   # 90 s
"""

from __future__ import annotations

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.datasets.heldout import labelled_positions, side_mask, side_parser
from seog.features.board import Board
from seog.scoring.request import SAID_UNFINISHED, from_board
from seog.scoring.score import score

FAR = 10  # points


def main() -> None:
    args = side_parser(__doc__.splitlines()[0]).parse_args()
    data = planes_cache.load(args.planes)
    model = model_file.load(args.model)
    rows = np.flatnonzero(side_mask(data, args.side) & ~data["finished"])
    tally: dict[tuple[str, str], list[float]] = {}
    for _, topology, truth in labelled_positions(data, rows):
        board = Board.from_rows(["".join(".XO"[int(v)] for v in row) for row in topology.grid])
        dead = np.zeros(topology.grid.size, dtype=bool)
        for block in topology.blocks:
            dead[block.points] = not truth[block.id]
        teacher = score(from_board(board, komi=6.5, dead=dead, unfinished=SAID_UNFINISHED), model).margin
        answers = {how: score(from_board(board, komi=6.5, unfinished=unfinished), model)
                   for how, unfinished in (("as a board", ""), ("finished: false", SAID_UNFINISHED))}
        borders = "closed" if answers["as a board"].finished else "open"
        for how, answer in answers.items():
            alive = {b.block: b.alive for b in answer.blocks}
            right = np.array([alive[b.id] == truth[b.id] for b in topology.blocks])
            off = abs(answer.margin - teacher)
            t = tally.setdefault((borders, how), [0, 0, 0, 0, 0.0, 0])
            for i, v in enumerate((1, right.all(), right.sum(), len(right), off, off > FAR)):
                t[i] += v
    for (borders, how), (n, all_right, blocks_right, blocks, off, far) in sorted(tally.items()):
        print(f"{borders:6s} borders, {how:15s}: {n:5d} positions, all right {100 * all_right / n:5.2f}%, "
              f"blocks right {100 * blocks_right / blocks:5.2f}%, count {off / n:5.1f} points from KataGo's "
              f"stones' on average, more than {FAR} in {far}")


if __name__ == "__main__":
    main()
