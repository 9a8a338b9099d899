"""Benchmark: what the ownership refiner and the rules after the nets (``status.later_passes``)
add to deciding the dead stones of a 19x19 position.

For each KGS dev position: ``topology.analyze`` (the baseline), ``decide`` with the cascade alone,
with the cascade and the refiner (the shipped model, or ``--model``), and with the rules after
them (the whole ``decide``), each on a fresh topology, fastest of ``--repeat`` runs; then
medians (and 90th percentiles) over positions and their ratios.

    python benchmarks/bench_refiner.py [--games 100] [--repeat 3] [--model PATH]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

from seog.classifiers import model_file
from seog.classifiers.status import decide
from seog.features import sgf
from seog.features.topology import analyze

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "kgs-2017-q1"


def fastest(fn, grid, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(grid)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--folder", default=str(DEV))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--model", default=str(model_file.DEFAULT_MODEL))
    args = p.parse_args()
    paths = sorted(Path(args.folder).glob("*.sgf"))[: args.games]
    if not paths:
        print(f"no SGF files in {args.folder}")
        return 1
    full = model_file.load(args.model)
    if full.refiner is None:
        print(f"{args.model} has no refiner")
        return 1
    cascade = dataclasses.replace(full, refiner=None)
    grids = [g.board.grid for g in (sgf.load(path) for path in paths) if g.size == 19]
    for grid in grids[:3]:
        decide(analyze(grid), full)  # warm up
    rows = {"topology.analyze (baseline)": [], "decide, cascade alone": [], "decide, cascade + refiner": [],
            "decide, + the rules after the nets": []}
    for grid in grids:
        rows["topology.analyze (baseline)"].append(fastest(analyze, grid, args.repeat))
        rows["decide, cascade alone"].append(fastest(lambda g: decide(analyze(g), cascade, passes=()), grid,
                                                     args.repeat))
        rows["decide, cascade + refiner"].append(fastest(lambda g: decide(analyze(g), full, passes=()), grid,
                                                         args.repeat))
        rows["decide, + the rules after the nets"].append(fastest(lambda g: decide(analyze(g), full), grid, args.repeat))
    base = statistics.median(rows["topology.analyze (baseline)"])
    print(f"{len(grids)} positions of {args.folder}, fastest of {args.repeat} each")
    for name, times in rows.items():
        m, p90 = statistics.median(times), statistics.quantiles(times, n=10)[-1]
        print(f"{name:<34} median {m * 1000:7.2f} ms   p90 {p90 * 1000:7.2f} ms   x{m / base:5.2f} of analyze")
    steps = list(rows.values())
    for name, before, after in (("refiner added", steps[1], steps[2]), ("the rules after the nets added", steps[2], steps[3])):
        added = [b - a for a, b in zip(before, after)]
        print(f"{name:<34} median {statistics.median(added) * 1000:7.2f} ms   "
              f"mean {statistics.mean(added) * 1000:7.2f} ms   max {max(added) * 1000:7.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
