"""Benchmark: the big-eye, eye-space, seki and enclosed-eyes passes alone, and the whole score
with and without eye space, in one process.

For the first ``--games`` KGS dev positions: each pass of ``status.later_passes`` after reading,
timed on the output of the passes before it (fastest of ``--repeat`` runs each), then
``status.decide`` (topology, nets and the passes after them) with the eye-space rule and without it,
alternating ``--rounds`` times so that drifts of the machine hit both.

    python benchmarks/bench_eyespace.py [--games 100] [--repeat 3] [--rounds 2]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from seog.classifiers import status
from seog.classifiers.model_file import load_default
from seog.datasets import devsets
from seog.features.topology import analyze

KGS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "kgs-2017-q1"
LABELS = {"eyespace": "eye space", "seki": "seki", "eyes": "enclosed eyes", "big-eye": "big eye"}  # the passes timed alone


def fastest(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args()
    model = load_default()
    positions = devsets.read(KGS)[0][:args.games]
    statuses = []
    for position in positions:
        topology = analyze(position.board.grid)
        statuses.append((topology, {st.block: st for st in status.decide(topology, model, passes=())}))
    print(f"{len(positions)} positions of {KGS}, fastest of {args.repeat} each")
    for name, run in status.later_passes():  # each pass timed on the output of the ones before
        if name in LABELS:
            alone = [fastest(lambda t=t, s=s, run=run: run(t, s), args.repeat) for t, s in statuses]
            print(f"{LABELS[name] + ' alone':30s} median {np.median(alone) * 1e3:6.2f} ms   "
                  f"mean {np.mean(alone) * 1e3:6.2f} ms   max {np.max(alone) * 1e3:6.2f} ms")
        statuses = [(t, run(t, s)) for t, s in statuses]
    everything = [name for name, _ in status.later_passes()]
    without_rule = [name for name in everything if name != "eyespace"]

    def whole(passes: list[str]) -> float:
        return float(np.median([fastest(lambda q=q: status.decide(analyze(q.board.grid), model, passes=passes),
                                        args.repeat) for q in positions])) * 1e3

    for r in range(args.rounds):
        with_rule, without = whole(everything), whole(without_rule)
        print(f"round {r + 1}: decide median {with_rule:.2f} ms with eye space, {without:.2f} ms without")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
