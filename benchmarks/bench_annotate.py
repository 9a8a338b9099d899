"""Games per second of ``seog annotate`` over the KGS training archive, 1 worker against N.

    python benchmarks/bench_annotate.py [--games 500] [--workers 1 2] [--archive PATH] [--baseline REV]
                                        [--into DIR] [--rounds N] [--blind-too]

Each run annotates the same first GAMES games (name order) of the tarball into a fresh temporary
folder (made in ``--into``, the system's temporary folder by default), so the figures include
reading the .tar.xz, scoring, writing the copies and the report. What creating a file costs in
that folder is printed first: on some machines the temporary folder's costs ten times another's
on the same disk, which the main process pays once a game.
The first worker count is the baseline; later ones are printed as a ratio against it. A last
line splits one process's time per game into parse+replay, scoring and writing the SGF.
``--baseline REV`` also runs each worker count on revision REV (a temporary git worktree, in a
process of its own), round by round with this tree, so that both see the same load. Each run
also prints the CPU it took a game, all processes and the listing together: the machine's
speed moves it less than the wall clock, and ``workers`` free cores cannot do more than
``workers`` seconds of it a second. ``--rounds N`` repeats the whole set N times, one round
after the other, and ends with each worker count's median, range and how many runs reached
200 games/s (the speed issue's mark for 2 workers): the machine's own speed moves a single run
by a tenth or more. ``--blind-too`` runs each worker count again with ``--ignore-result`` right
after, and prints what reading the records' counted results costs against reading blind.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from seog.datasets import annotate as ann
from seog.datasets import archive

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "kgs-6d-train.tar.xz"


def run_once(source: Path, games: int, workers: int, options: ann.Options,
             into: Path | None = None) -> tuple[ann.Summary, float]:
    """The run's summary and the CPU it took, in seconds: this process and its workers (reaped
    when the pool shuts down), the tarball's listing included."""
    before = cpu_seconds()
    with tempfile.TemporaryDirectory(prefix="seog-bench-", dir=into) as out:
        summary = ann.annotate(source, out, workers=workers, limit=games, options=options, progress=False)
    return summary, cpu_seconds() - before


def file_cost(into: Path | None, files: int = 300) -> float:
    """Milliseconds of CPU to write a small file as the run writes a copy (a temporary name,
    then a rename) in a fresh folder in ``into``."""
    data = b"(;GM[1]SZ[19])" * 400
    with tempfile.TemporaryDirectory(prefix="seog-bench-", dir=into) as out:
        before = cpu_seconds()
        for i in range(files):
            ann.write_atomic(Path(out) / f"{i}.sgf", data)
        return 1000 * (cpu_seconds() - before) / files


def cpu_seconds() -> float:
    """User and system CPU of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


BASELINE_RUN = """
import sys, tempfile
from pathlib import Path
from seog.datasets import annotate as ann
with tempfile.TemporaryDirectory(prefix="seog-bench-", dir=sys.argv[5] or None) as out:
    s = ann.annotate(Path(sys.argv[1]), out, workers=int(sys.argv[3]), limit=int(sys.argv[2]),
                     options=ann.Options(model=None if sys.argv[4] == "none" else "default"), progress=False)
print(s.count(ann.ANNOTATED) / s.seconds)
"""


def baseline_rate(tree: Path, source: Path, games: int, workers: int, model: str, into: Path | None) -> float:
    """Games per second of revision checked out at ``tree`` (its own process, its own imports)."""
    out = subprocess.run([sys.executable, "-c", BASELINE_RUN, str(source), str(games), str(workers), model,
                          str(into or "")],
                         env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True, check=True,
                         cwd=tree)
    return float(out.stdout.split()[-1])


def split_per_game(source: Path, games: int, options: ann.Options) -> dict[str, float]:
    """Mean milliseconds per game of each stage, in this process."""
    from seog.features import sgf
    from seog.scoring.score import score_game

    names = archive.names(source)[:games]
    times = {"parse+replay": 0.0, "score": 0.0, "write sgf": 0.0}
    n = 0
    for entry in ann._entries(source, names):
        t0 = time.perf_counter()
        try:
            game = sgf.loads(entry.data)
        except ValueError:
            continue
        t1 = time.perf_counter()
        try:
            score = score_game(game, rules=options.rules, model=options.model)
        except ValueError:
            continue
        t2 = time.perf_counter()
        ann.annotated_sgf(game, score)
        t3 = time.perf_counter()
        times["parse+replay"] += t1 - t0
        times["score"] += t2 - t1
        times["write sgf"] += t3 - t2
        n += 1
    return {k: 1000 * v / max(n, 1) for k, v in times.items()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--archive", type=Path, default=ARCHIVE)
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--no-model", action="store_true", help="heuristic instead of the shipped model")
    p.add_argument("--baseline", help="a git revision to run beside this tree, round by round")
    p.add_argument("--into", type=Path, help="the folder the runs' output folders are made in "
                   "(default: the system's temporary folder)")
    p.add_argument("--rounds", type=int, default=1, help="run every worker count this many times")
    p.add_argument("--blind-too", action="store_true",
                   help="also run each worker count blind (--ignore-result), and print the ratio")
    args = p.parse_args(argv)
    if not args.archive.exists():
        print(f"{args.archive}: not here (the shared data is needed)", file=sys.stderr)
        return 2
    from seog.scoring.score import default_model

    options = ann.Options(model=None if args.no_model else "default")
    model = "heuristic" if args.no_model or default_model() is None else "shipped model"
    print(f"annotate {args.games} games of {args.archive.name} ({model}); {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  output in {args.into or tempfile.gettempdir()}: {file_cost(args.into):.3f} ms of CPU to write a file")
    tree = None
    if args.baseline:
        tree = Path(tempfile.mkdtemp(prefix="seog-baseline-")) / "tree"
        subprocess.run(["git", "-C", str(Path(__file__).resolve().parents[1]), "worktree", "add", "--detach", "-q",
                        str(tree), args.baseline], check=True)
    rates: dict[str, list[float]] = {}
    try:
        for _ in range(args.rounds):
            base = None
            for workers in args.workers:
                rate, then = one_round(args, workers, options, tree, base)
                base = base or rate
                name = f"{workers} worker{'s' if workers > 1 else ' '}"
                rates.setdefault(name, []).append(rate)
                if args.blind_too:
                    blind = blind_round(args, workers, options, rate)
                    rates.setdefault(f"{name} blind", []).append(blind)
                if then is not None:
                    rates.setdefault(f"{name} at {args.baseline}", []).append(then)
    finally:
        if tree is not None:
            subprocess.run(["git", "-C", str(Path(__file__).resolve().parents[1]), "worktree", "remove", "--force",
                            str(tree)], check=False)
            shutil.rmtree(tree.parent, ignore_errors=True)
    if args.rounds > 1:
        for name, seen in rates.items():
            print(f"  {name} over {len(seen)} runs: median "
                  f"{statistics.median(seen):.1f} games/s ({min(seen):.1f}-{max(seen):.1f}), "
                  f"{sum(r >= 200 for r in seen)} of {len(seen)} at 200 or more")
    split = split_per_game(args.archive, min(args.games, 200), options)
    print("  per game, one process: " + ", ".join(f"{k} {v:.2f} ms" for k, v in split.items()))
    return 0


def blind_round(args: argparse.Namespace, workers: int, options: ann.Options, rate: float) -> float:
    """One run of ``workers`` reading blind (``ignore_result``), printed against ``rate``, the
    same run with the records' counted results."""
    from dataclasses import replace

    summary, cpu = run_once(args.archive, args.games, workers, replace(options, ignore_result=True), args.into)
    done = summary.count(ann.ANNOTATED)
    blind = done / summary.seconds
    print(f"  {workers} worker{'s' if workers > 1 else ' '} blind: {blind:6.1f} games/s "
          f"(with the recorded results x{rate / blind:.2f}); CPU {1000 * cpu / max(done, 1):.1f} ms a game")
    return blind


def one_round(args: argparse.Namespace, workers: int, options: ann.Options, tree: Path | None,
              base: float | None) -> tuple[float, float | None]:
    """One run of ``workers`` (and of the baseline's tree, when there is one), printed; the games
    a second of each (None: no baseline)."""
    summary, cpu = run_once(args.archive, args.games, workers, options, args.into)
    done = summary.count(ann.ANNOTATED)
    rate = done / summary.seconds
    base = base or rate
    print(f"  {workers} worker{'s' if workers > 1 else ' '}: {done} annotated, "
          f"{summary.count(ann.FAILED)} failed in {summary.seconds:6.2f} s = {rate:6.1f} games/s "
          f"(x{rate / base:.2f} vs {args.workers[0]} worker{'s' if args.workers[0] > 1 else ''}); "
          f"CPU {1000 * cpu / max(done, 1):.1f} ms a game")
    if tree is None:
        return rate, None
    then = baseline_rate(tree, args.archive.resolve(), args.games, workers,
                         "none" if args.no_model else "default", args.into)
    print(f"  {workers} worker{'s' if workers > 1 else ' '} at {args.baseline}: {then:6.1f} games/s "
          f"(this tree x{rate / then:.2f})")
    return rate, then


if __name__ == "__main__":
    sys.exit(main())
