"""How the uncertainty flags do against a teacher on the training archive: of all positions, and
of those where the shipped model's final verdicts differ from the teacher's on some block, how
many the nets' margins flag (doubt 'model'), how many the race check flags (doubt 'race'), and
either (what the shipped model flags); overall and on the positions the nets never trained on (every 10th, as the trainers hold
them out). The race check was built from two dev-set positions, so this is its test. Last, how
far ``p_alive`` is a probability: the held-out blocks that carry one, by bands of it, with the
share the teacher calls alive, and the Brier score.

    python tools/flag_archive.py ../shared/data/kgs-6d-train-katago.jsonl.gz   # 55 s
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from seog.classifiers.model_file import load_default
from seog.classifiers.status import decide
from seog.datasets.labels import block_labels, mask_from_sgf, read_teacher
from seog.features.board import Board
from seog.features.topology import analyze

BANDS = (0, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.99, 1)


def tally(records, model) -> tuple[Counter, Counter, list]:
    """Counts over all records and over the held-out ones (index % 10 == 0), and the held-out
    blocks' (p_alive, alive for the teacher)."""
    every, held, blocks = Counter(), Counter(), []
    for i, label in enumerate(records):
        topology = analyze(Board.from_rows(label.record["final_board"]).grid)
        statuses = decide(topology, model)
        truth, _ = block_labels(topology, mask_from_sgf(label.dead, topology.size))
        wrong = any(st.alive != bool(truth[st.block]) for st in statuses)
        flags = {"model": any(st.doubt == "model" for st in statuses),
                 "race": any(st.doubt == "race" for st in statuses)}
        flags["either"] = flags["model"] or flags["race"]
        if i % 10 == 0:
            blocks += [(st.p_alive, bool(truth[st.block])) for st in statuses if st.p_alive is not None]
        for counts in (every, held) if i % 10 == 0 else (every,):
            counts["positions"] += 1
            counts["wrong"] += wrong
            for name, flagged in flags.items():
                counts[name] += flagged
                counts[name + " wrong"] += flagged and wrong
    return every, held, blocks


def calibration(blocks: list) -> list[str]:
    """Lines of a table: per band of p_alive, the blocks, their mean p_alive and the share alive."""
    p, alive = np.array(blocks, dtype=float).T
    lines = [f"held-out blocks with p_alive: {len(p)}, Brier score {np.mean((p - alive) ** 2):.5f}"]
    for low, high in zip(BANDS, BANDS[1:]):
        inside = (p >= low) & ((p < high) if high < 1 else (p <= high))
        if inside.any():
            lines.append(f"  p_alive {low:.2f}-{high:.2f}: {inside.sum():6d} blocks, mean {p[inside].mean():.3f}, "
                         f"alive for the teacher {alive[inside].mean():.3f}")
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    records = [label for _, label in sorted(read_teacher(argv[0], "katago").items()) if "ownership" in label.record]
    every, held, blocks = tally(records, load_default())
    for title, c in (("all positions", every), ("held out (every 10th)", held)):
        print(f"{title}: {c['positions']}, {c['wrong']} with a block the teacher reads otherwise")
        for name in ("model", "race", "either"):
            print(f"  {name:>5}: flags {c[name]} ({c[name] / c['positions']:.1%}), "
                  f"{c[name + ' wrong']} of the wrong ({c[name + ' wrong'] / max(c['wrong'], 1):.1%})")
    print("\n".join(calibration(blocks)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
