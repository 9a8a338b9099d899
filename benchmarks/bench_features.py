"""Benchmark: set-B extraction for every unsettled block of 19x19 final positions (KGS dev games).

For each position: topology.analyze alone (the baseline), extraction of set B for all unsettled
blocks given the topology (fresh, uncached), and both together; then, apart, the ``related`` lists
(what cascade nets after the first need) built after that extraction. Each is timed ``--repeat``
times per position and the fastest kept (to shave off other processes' noise); the report is the
median over positions and the ratio of extraction to analysis.

    python benchmarks/bench_features.py [--games 400] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as the target says
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from seog.classifiers.status import static_statuses  # noqa: E402
from seog.features import sgf  # noqa: E402
from seog.features.topology import analyze  # noqa: E402
from seog.features.vector import SET_B, extract, related  # noqa: E402

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "kgs-2017-q1"


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=DEV)
    args = parser.parse_args(argv)
    files = sorted(args.folder.glob("*.sgf"))[:args.games]
    if not files:
        print(f"no SGF files in {args.folder}", file=sys.stderr)
        return 1
    t_topo, t_extract, t_total, t_related, blocks = [], [], [], [], []
    for path in files:
        game = sgf.load(path)
        if game.size != 19:
            continue
        grid = game.board.grid.copy()
        topo = analyze(grid)
        ids = [b.id for b in topo.blocks if b.id not in static_statuses(topo)]
        if not ids:
            continue
        a, _ = best(lambda: analyze(grid), args.repeat)
        e, _ = best(lambda: extract(analyze(grid), ids), args.repeat)  # includes a fresh analyze ...
        x, r = [], []
        for _ in range(args.repeat):                                   # ... so time extraction alone too
            fresh = analyze(grid)
            t = time.perf_counter()
            extract(fresh, ids, SET_B)
            x.append(time.perf_counter() - t)
            t = time.perf_counter()
            related(fresh, ids)
            r.append(time.perf_counter() - t)
        t_topo.append(a)
        t_total.append(e)
        t_extract.append(min(x))
        t_related.append(min(r))
        blocks.append(len(ids))
    ms = lambda v: float(np.median(v)) * 1e3  # noqa: E731
    print(f"positions: {len(t_topo)} (19x19 KGS dev games), unsettled blocks per position: median {np.median(blocks):.0f}")
    print(f"topology.analyze (baseline):      median {ms(t_topo):.2f} ms")
    print(f"set B extraction given topology:  median {ms(t_extract):.2f} ms  "
          f"(p90 {float(np.percentile(t_extract, 90)) * 1e3:.2f} ms)")
    print(f"total (analyze + extraction):     median {ms(t_total):.2f} ms")
    print(f"ratio extraction / analyze:       {ms(t_extract) / ms(t_topo):.2f}")
    print(f"per unsettled block:              {ms(t_extract) / np.median(blocks) * 1e3:.0f} us")
    print(f"related lists, after extraction:  median {ms(t_related):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
