"""Which blocks tactical reading proves dead, by size, and whether the truth agrees: the evidence
for the smallest block ``reading.read_dead`` reads. Every block ``reading.read_candidates`` would
read at any size is searched (no chain rule), on the dev sets (the players' marks) and on the
consistent games of the KataGo-labelled archive.

    python experiments/reading_table.py ../shared/data/kgs-2017-q1 ../shared/data/gnugo-regression-games \
        ../shared/data/ogs-score-estimator --teacher ../shared/data/kgs-6d-train-katago.jsonl.gz
"""

from __future__ import annotations

import argparse
import collections

from seog.classifiers import reading, status
from seog.classifiers.model_file import load_default
from seog.datasets import devsets
from seog.features.reading import Reader


def proofs(topology, truth, model, counts: collections.Counter, source: str) -> None:
    """Count the blocks the search proves dead, by size (4 = four or more) and truth."""
    statuses = {st.block: st for st in status.decide(topology, model, passes=())}
    shipped = reading.read_candidates(topology, statuses)
    smaller = [b for b in reading.read_candidates(topology, statuses, min_stones=1) if b not in shipped]
    for blocks in (shipped, smaller):  # each with its own budget, so small blocks cannot use up
        reader = Reader(topology.grid)  # the one the shipped rule spends on big ones
        for b in blocks:
            points = topology.blocks[b].points
            if reader.dead(points):
                counts[(source, min(len(points), 4), bool(truth[b]))] += 1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="*", help="dev sets with marked dead stones")
    p.add_argument("--teacher", help="KataGo-labelled archive (JSON lines, gzip)")
    args = p.parse_args()
    model, counts = load_default(), collections.Counter()
    for source, _, topology, truth in devsets.labelled(args.folders, args.teacher):
        proofs(topology, truth, model, counts, "archive" if source == "archive" else "dev sets")
    print("| stones | dev sets: dead by the marks / alive | archive: dead for KataGo / alive |")
    print("|---|---|---|")
    for size in (1, 2, 3, 4):
        cells = [f"{counts[(s, size, False)]} / {counts[(s, size, True)]}" for s in ("dev sets", "archive")]
        print(f"| {size if size < 4 else '4 or more'} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
