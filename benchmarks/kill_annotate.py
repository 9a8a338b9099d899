"""Kill ``seog annotate`` outright at random times, rerun it to the end, and check its report.

    python benchmarks/kill_annotate.py [--kills 30] [--source DIR] [--workers 2] [--seed 0]

A clean run first gives the report every rerun must end with. Then, KILLS times: a fresh output
folder, ``seog annotate SOURCE --out OUT`` in a process group of its own, SIGKILL to the whole
group at a random moment of the run (once the report holds a random number of rows, 0 to all
but one, then up to 50 ms more), and a rerun to the end. Each rerun must exit
as the clean run did, leave no temporary file, and end with the clean run's report (every column
but ``status``) and its agreement line, which counts every game. Each line says what the kill left:
copies, rows, copies without a row, temporary files.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "kgs-2017-q1"
REPORT = "annotate-report.csv"


def command(source: Path, out: Path, workers: int) -> list[str]:
    return [sys.executable, "-m", "seog", "annotate", str(source), "--out", str(out), "--quiet",
            "--workers", str(workers)]


def rows(out: Path) -> dict[str, dict]:
    """The report's rows by name, without their status (skipped or annotated by the run that wrote them)."""
    with open(out / REPORT, newline="") as fh:
        return {r["name"]: {k: v for k, v in r.items() if k != "status"} for r in csv.DictReader(fh)}


def agreement(printed: str) -> str:
    return next((line for line in printed.splitlines() if line.startswith("agreement")), "")


def copies(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in out.rglob("*.sgf")}


def run_to_end(source: Path, out: Path, workers: int) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    done = subprocess.run(command(source, out, workers), capture_output=True, text=True, timeout=3600)
    return done, time.perf_counter() - start


def kill_after(source: Path, out: Path, workers: int, rows: int, jitter: float) -> float | None:
    """Start a run and SIGKILL its process group ``jitter`` seconds after its report holds ``rows``
    rows; the seconds it ran, or None when it ended first."""
    start = time.perf_counter()
    proc = subprocess.Popen(command(source, out, workers), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    report = out / REPORT
    while proc.poll() is None:
        try:
            if report.read_bytes().count(b"\n") > rows:  # the header, then the rows
                break
        except FileNotFoundError:
            pass
        time.sleep(0.005)
    time.sleep(jitter)
    if proc.poll() is not None:
        return None
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return time.perf_counter() - start


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", type=Path, default=SOURCE, help="a folder or tarball of games (default: kgs-2017-q1)")
    p.add_argument("--kills", type=int, default=30)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if not args.source.exists():
        print(f"{args.source}: not here (the shared data is needed)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="seog-kill-") as tmp:
        clean, seconds = run_to_end(args.source, Path(tmp) / "clean", args.workers)
        expected, line = rows(Path(tmp) / "clean"), agreement(clean.stdout)
        print(f"clean run: {len(expected)} games in {seconds:.1f} s, exit {clean.returncode}; {line}; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        bad = without_row = 0
        for k in range(1, args.kills + 1):
            out = Path(tmp) / f"kill-{k:02}"
            target, jitter = rng.randrange(len(expected) - 1), rng.uniform(0, 0.05)
            at = kill_after(args.source, out, args.workers, target, jitter)
            written = copies(out) if out.exists() else set()
            before = set(rows(out)) if (out / REPORT).exists() else set()
            parts = len(list(out.rglob("*.part"))) if out.exists() else 0
            orphans = len(written - before)
            without_row += orphans > 0
            rerun, _ = run_to_end(args.source, out, args.workers)
            problems = []
            if rerun.returncode != clean.returncode:
                problems.append(f"exit {rerun.returncode}")
            if rows(out) != expected:
                problems.append("report differs from the clean run's")
            if agreement(rerun.stdout) != line:
                problems.append(f"summary says {agreement(rerun.stdout)!r}")
            if list(out.rglob("*.part")):
                problems.append("temporary files left")
            bad += bool(problems)
            when = f"at {at:5.2f} s" if at is not None else "(ended before)"
            print(f"kill {k:2} {when}, {target:3} rows asked: {len(written):3} copies, "
                  f"{len(before):3} rows, {orphans} without a row, {parts} temporary; rerun: "
                  f"{'; '.join(problems) or 'every game has its full row, summary counts every game'}")
        print(f"{args.kills} kills: {without_row} left a copy without its row, {bad} reruns wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
