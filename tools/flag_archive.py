"""How the uncertainty flags do against a teacher on the training archive: of all positions, and
of those where the shipped model's final verdicts differ from the teacher's on some block, how
many the nets' margins flag (doubt 'model'), how many the race check flags (doubt 'race'), and
either (what the shipped model flags); overall and on the positions the nets never trained on (every 10th, as the trainers hold
them out). The race check was built from two dev-set positions, so this is its test.

    python tools/flag_archive.py ../shared/data/kgs-6d-train-katago.jsonl.gz   # 55 s
"""

from __future__ import annotations

import sys
from collections import Counter

from seog.classifiers.model_file import load_default
from seog.classifiers.status import decide
from seog.datasets.labels import block_labels, mask_from_sgf, read_teacher
from seog.features.board import Board
from seog.features.topology import analyze


def tally(records, model) -> tuple[Counter, Counter]:
    """Counts over all records and over the held-out ones (index % 10 == 0)."""
    every, held = Counter(), Counter()
    for i, label in enumerate(records):
        topology = analyze(Board.from_rows(label.record["final_board"]).grid)
        statuses = decide(topology, model)
        truth, _ = block_labels(topology, mask_from_sgf(label.dead, topology.size))
        wrong = any(st.alive != bool(truth[st.block]) for st in statuses)
        flags = {"model": any(st.doubt == "model" for st in statuses),
                 "race": any(st.doubt == "race" for st in statuses)}
        flags["either"] = flags["model"] or flags["race"]
        for counts in (every, held) if i % 10 == 0 else (every,):
            counts["positions"] += 1
            counts["wrong"] += wrong
            for name, flagged in flags.items():
                counts[name] += flagged
                counts[name + " wrong"] += flagged and wrong
    return every, held


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    records = [label for _, label in sorted(read_teacher(argv[0], "katago").items()) if "ownership" in label.record]
    every, held = tally(records, load_default())
    for title, c in (("all positions", every), ("held out (every 10th)", held)):
        print(f"{title}: {c['positions']}, {c['wrong']} with a block the teacher reads otherwise")
        for name in ("model", "race", "either"):
            print(f"  {name:>5}: flags {c[name]} ({c[name] / c['positions']:.1%}), "
                  f"{c[name + ' wrong']} of the wrong ({c[name + ' wrong'] / max(c['wrong'], 1):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
