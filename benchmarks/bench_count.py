"""Benchmark: the count alone, on the 400 KGS dev positions with the players' dead stones.

Per position, fastest of ``--repeat`` runs: the baseline ``regions`` (one labelling of the empty
points, what a plain flood-fill count costs), ``count`` under Chinese rules (seki test, no
territory voiding), under Japanese rules (seki test plus the protective-point iterations) and
under Japanese rules by the agreed-position convention (``agreed=True``, how dead stones given
are counted), and the whole ``score_game`` with markup (topology, statuses and the agreed count). Medians and ratios are
printed, and the per-position figure is set against GNU Go's ~0.6 s per 19x19 position.

    python benchmarks/bench_count.py [--games 400] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from seog.features import sgf  # noqa: E402
from seog.scoring.count import count, live_grid, regions  # noqa: E402
from seog.scoring.rules import get_rules  # noqa: E402
from seog.scoring.score import score_game  # noqa: E402

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "kgs-2017-q1"
GNUGO_SECONDS = 0.6


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    games = [sgf.load(p) for p in sorted(DEV.glob("*.sgf"))[: args.games]]
    japanese, chinese = get_rules("japanese"), get_rules("chinese")
    rows = []
    for g in games:
        grid, dead = g.board.grid.copy(), g.marked_dead()
        live = live_grid(grid, dead)
        rows.append((
            best(lambda: regions(live), args.repeat),
            best(lambda: count(grid, dead, chinese, 7.5), args.repeat),
            best(lambda: count(grid, dead, japanese, 6.5, 0, g.board.prisoners), args.repeat),
            best(lambda: count(grid, dead, japanese, 6.5, 0, g.board.prisoners, agreed=True), args.repeat),
            best(lambda: score_game(g, use_markup=True), args.repeat),
        ))
    t = np.median(np.array(rows), axis=0) * 1000
    print(f"{len(games)} positions, median ms: regions {t[0]:.3f} | count chinese {t[1]:.3f} "
          f"| count japanese {t[2]:.3f} | agreed {t[3]:.3f} | score_game {t[4]:.3f}")
    print(f"count japanese / regions x{t[2] / t[0]:.1f}; count japanese / chinese x{t[2] / t[1]:.2f}; "
          f"agreed / count japanese x{t[3] / t[2]:.1f}; "
          f"GNU Go {GNUGO_SECONDS * 1000:.0f} ms / score_game x{GNUGO_SECONDS * 1000 / t[4]:.0f}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
