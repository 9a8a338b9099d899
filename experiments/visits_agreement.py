"""How far KataGo's 8-visit read (``kgs-6d-more-katago.npz``) and its 1-visit read
(``kgs-6d-train-katago.jsonl.gz``) part on the games both label: per game, the blocks whose
verdict (the sign of the mean ownership over the block, the labels' dead-stone rule) differs,
on the 1-visit file's final board. The cascade learns from these verdicts; a better teacher is
only worth a trial where the two part.

    python experiments/visits_agreement.py ../shared/data/kgs-6d-train-katago.jsonl.gz \\
        ../shared/data/kgs-6d-more-katago.npz                                       # 30 s
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from seog.datasets.labels import block_labels, mask_from_sgf, read_teacher, teacher_alive
from seog.datasets.split import game_id, split_of
from seog.features.board import Board
from seog.features.topology import analyze


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("one_visit", help="teacher JSON lines with final_board and katago_dead")
    p.add_argument("eight_visits", help="npz with names and ownership rows")
    args = p.parse_args()
    arrays = np.load(args.eight_visits)
    owners = {game_id(str(n)): o for n, o in zip(arrays["names"], arrays["ownership"])}
    games = parted = blocks = parted_blocks = 0
    sides = Counter()
    for name, label in sorted(read_teacher(args.one_visit, "katago").items()):
        owner = owners.get(game_id(name))
        if owner is None:
            continue
        topology = analyze(Board.from_rows(label.record["final_board"]).grid)
        n = topology.size
        eight = teacher_alive(topology, owner.reshape(n, n).astype(np.float32))
        one, _ = block_labels(topology, mask_from_sgf(label.dead, n))
        differ = int((eight != one.astype(bool)).sum())
        games += 1
        blocks += len(topology.blocks)
        parted += differ > 0
        parted_blocks += differ
        if differ:
            sides[split_of(name)] += 1
            print(f"{name}: {differ} block(s) differ")
    print(f"{games} games both label, {blocks} blocks: {parted} games ({100 * parted / games:.2f}%) and "
          f"{parted_blocks} blocks differ; by side {dict(sides)}")


if __name__ == "__main__":
    main()
