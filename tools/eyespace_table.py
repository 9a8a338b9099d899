"""What the big-eye, eye-space, seki and enclosed-eyes passes change, against the truth: the evidence
for ``classifiers.eyespace`` and ``classifiers.seki``.

For each dev set (the players' marks) and the consistent games of the KataGo-labelled archive,
the statuses before and after the pass (``--pass``) are compared: blocks it turns and whether
the truth agrees, positions it puts right and positions it puts wrong.

    python tools/eyespace_table.py ../shared/data/kgs-2017-q1 ../shared/data/gnugo-regression-games \
        ../shared/data/ogs-score-estimator --teacher ../shared/data/kgs-6d-train-katago.jsonl.gz [--pass seki|eyes|big-eye]
"""

from __future__ import annotations

import argparse
import collections

from seog.classifiers import status
from seog.classifiers.model_file import load_default
from seog.datasets import devsets

PASSES = dict(status.later_passes())  # in the order they run
RULES = tuple(name for name in PASSES if name != "reading")  # the passes weighed here


def compare(topology, truth, model, counts: collections.Counter, source: str, name: str, verbose: bool,
            rule: str = "eyespace") -> None:
    """Count the blocks and positions the pass changes, and whether the truth agrees."""
    earlier = list(PASSES)[:list(PASSES).index(rule)]
    before = {st.block: st for st in status.decide(topology, model, passes=earlier)}
    after = PASSES[rule](topology, before)
    turned = [b for b in after if after[b].alive != before[b].alive]
    if not turned:
        return
    right_before = all(before[b].alive == bool(truth[b]) for b in after)
    right_after = all(after[b].alive == bool(truth[b]) for b in after)
    agree = sum(after[b].alive == bool(truth[b]) for b in turned)
    counts[(source, "blocks agreeing")] += agree
    counts[(source, "blocks disagreeing")] += len(turned) - agree
    counts[(source, "positions put right")] += right_after and not right_before
    counts[(source, "positions put wrong")] += right_before and not right_after
    if verbose and right_before != right_after:
        print(f"{source} {name}: {'put right' if right_after else 'put wrong'}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="*", help="dev sets with marked dead stones")
    p.add_argument("--teacher", help="KataGo-labelled archive (JSON lines, gzip)")
    p.add_argument("--pass", dest="rule", choices=RULES, default="eyespace",
                   help="the pass to weigh, after the passes that run before it")
    p.add_argument("--verbose", action="store_true", help="name every position put right or wrong")
    args = p.parse_args()
    model, counts = load_default(), collections.Counter()
    sources: list[str] = []
    for source, name, topology, truth in devsets.labelled(args.folders, args.teacher):
        sources += [source] if source not in sources else []
        compare(topology, truth, model, counts, source, name, args.verbose, args.rule)
    columns = ["blocks agreeing", "blocks disagreeing", "positions put right", "positions put wrong"]
    print("| set | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for source in sources:
        print(f"| {source} | " + " | ".join(str(counts[(source, c)]) for c in columns) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
