"""seog against GNU Go on the same final positions, timed in one run on the same machine.

For each position of a dev set (SGF games, or ogs-score-estimator's ``.game`` boards): seog's
whole path from the final board (topology, static pass, the shipped cascade and refiner, the
count) and, for an SGF game, from the SGF text, each run three times; then GNU Go 3.8 level 10's
``loadsgf`` + ``final_status_list dead`` (of the game, or of the board as setup stones), once.
Prints the medians and their ratio (the target is seog at least 100 times faster).

    python benchmarks/bench_vs_gnugo.py [--games 30] [--folder ../shared/data/kgs-2017-q1] [--size 9] \
        [--passes reading eyespace life]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from seog.datasets import devsets
from seog.datasets.labels import GtpTeacher, gnugo_available
from seog.features import sgf
from seog.scoring.rules import rules_from_sgf
from seog.scoring.score import default_model, score_game, score_position

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--folder", default=str(ROOT.parent / "shared/data/kgs-2017-q1"))
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--size", type=int, default=None, help="only the games on this board size")
    p.add_argument("--passes", nargs="*", help="the passes after the nets seog runs (default: those the "
                   "shipped model keeps), e.g. --passes reading eyespace life to time the life-and-death pass")
    args = p.parse_args()
    if not gnugo_available():
        print("GNU Go is not installed (/usr/games/gnugo): nothing to compare with")
        return 1
    positions = [p for p in devsets.read(args.folder)[0] if args.size in (None, p.size)][: args.games]
    if not positions:
        print(f"no positions{f' of size {args.size}' if args.size else ''} in {args.folder}")
        return 1
    records = [p.sgf_data for p in positions]
    model = default_model()  # load the model once, as a server would
    if args.passes is not None:
        from seog.classifiers import choices

        model = choices.apply(model, passes=args.passes)
    for p in positions[:3]:
        score_position(p.board)  # warm up
    # seog scores every position three times in a row: the first run, and the fastest of the
    # three, which drops the bursts of other work on this shared machine (a burst of a few ms is
    # most of one seog run, but lost in one GNU Go run). GNU Go answers each position once.
    runs = {"position": [[], []], "sgf": [[], []]}
    for data, p in zip(records, positions):
        paths = [("position", lambda: score_position(p.board, rules=rules_from_sgf(p.rules), komi=p.komi,
                                                      handicap=p.handicap, prisoners=p.board.prisoners,
                                                      model=model))]
        if p.game is not None:
            paths.append(("sgf", lambda: score_game(sgf.loads(data), model=model)))
        for key, work in paths:
            times = []
            for _ in range(3):
                start = time.perf_counter()
                work()
                times.append(time.perf_counter() - start)
            runs[key][0].append(times[0])
            runs[key][1].append(min(times))
    theirs = []
    with GtpTeacher(level=10) as teacher:
        for data, p in zip(records, positions):
            _, seconds = teacher.dead(data, p.size, area=rules_from_sgf(p.rules).area, game=p.name)
            theirs.append(seconds)

    def line(name, times):
        times = sorted(times)
        return f"{name:<34} median {statistics.median(times) * 1000:8.2f} ms   p90 {times[int(0.9 * len(times))] * 1000:8.2f} ms"

    gnugo = statistics.median(theirs)
    print(f"{len(positions)} positions from {args.folder}; BLAS: {blas_kernels()}")
    for key, name in (("position", "final position -> score"), ("sgf", "SGF text -> score")):
        if runs[key][0]:
            print(line(f"seog, {name}", runs[key][0]))
            print(line("  fastest of 3", runs[key][1]))
    print(line("GNU Go, loadsgf + final_status_list", theirs))
    for k, how in ((0, "first runs"), (1, "fastest of 3")):
        text = (f", {gnugo / statistics.median(runs['sgf'][k]):.0f}x from the SGF text (its games)"
                if runs["sgf"][k] else "")
        print(f"GNU Go / seog ({how}): {gnugo / statistics.median(runs['position'][k]):.0f}x from the position{text}")
    return 0


def blas_kernels() -> str:
    """Which BLAS kernels the refiner's products run on: the figures move with them (this
    workplace forces OpenBLAS's Haswell kernel through OPENBLAS_CORETYPE; docs/benchmarks.md)."""
    from threadpoolctl import threadpool_info

    libs = [f"{i['internal_api']} {i.get('architecture') or '?'}" for i in threadpool_info() if i["user_api"] == "blas"]
    forced = os.environ.get("OPENBLAS_CORETYPE")
    return ", ".join(dict.fromkeys(libs)) + (f" (OPENBLAS_CORETYPE={forced})" if forced else "")


if __name__ == "__main__":
    sys.exit(main())
