"""GNU Go's eye-space suite ``optics.tst`` against ``seog gtp`` (in process), GNU Go beside it.

    python benchmarks/bench_optics.py [--suite PATH] [--gnugo /usr/games/gnugo] [--no-gnugo] [--show]

Each ``eval_eye`` test counts as *status right* when the answer's two counts are the expected
ones, *fully right* when the whole answer matches the test's ``#?`` expression (GNU Go's rule:
the whole answer, ``!`` negating). Prints the figures and the median and slowest milliseconds a
command; ``--show`` lists every test with seog's answer. GNU Go runs the same file through its
own GTP (``--mode gtp``), from the suite's folder so that ``loadsgf games/...`` resolves.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from seog.gtp.referee import GtpReferee

SUITE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "gnugo-regression" / "optics.tst"


@dataclass
class Case:
    number: int
    command: str
    pattern: str
    setup: list[str]  # the commands since the previous test (loadsgf ...)


def read_suite(path: Path) -> list[Case]:
    """The suite's numbered tests, each with the setup commands before it."""
    cases, setup, last = [], [], None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#?"):
            if last is not None:
                pattern = line[2:].strip()
                pattern = pattern[1:pattern.rindex("]")]
                cases.append(Case(last[0], last[1], pattern, last[2]))
                last = None
            continue
        if line.startswith("#"):
            continue
        words = line.split()
        if words[0].isdigit():
            last = (int(words[0]), " ".join(words[1:]), setup)
            setup = []
        else:
            setup = setup + [line]
    return cases


def matches(pattern: str, answer: str) -> bool:
    """GNU Go's test: the whole answer matches the expression; a leading ``!`` negates."""
    if pattern.startswith("!"):
        return not re.fullmatch(pattern[1:], answer)
    return re.fullmatch(pattern, answer) is not None


def status_right(pattern: str, answer: str) -> bool:
    """The answer's two counts are the expression's first two words."""
    want = pattern.lstrip("!").replace("(", " ").split()[:2]
    return answer.split()[:2] == want


def run_seog(cases: list[Case], folder: Path) -> list[tuple[str, float]]:
    engine = GtpReferee()
    here = Path.cwd()
    os.chdir(folder)
    try:
        out = []
        for case in cases:
            for command in case.setup:
                engine.handle(command)
            start = time.perf_counter()
            reply = engine.handle(case.command) or ""
            out.append((reply.strip().lstrip("=?").strip(), time.perf_counter() - start))
        return out
    finally:
        os.chdir(here)


def run_gnugo(cases: list[Case], folder: Path, gnugo: str) -> list[tuple[str, float]]:
    """GNU Go's answers, each command timed from its sending to its reply."""
    proc = subprocess.Popen([gnugo, "--mode", "gtp", "--quiet"], cwd=folder, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(command: str) -> str:
        proc.stdin.write(command + "\n")
        lines = []
        while True:
            line = proc.stdout.readline()
            if line.strip() == "" and lines:
                return "\n".join(lines)
            if line.strip():
                lines.append(line.strip())

    out = []
    try:
        for case in cases:
            for command in case.setup:
                ask(command)
            start = time.perf_counter()
            reply = ask(case.command)
            out.append((reply.lstrip("=?").strip(), time.perf_counter() - start))
        ask("quit")
    finally:
        proc.kill()
    return out


def report(name: str, cases: list[Case], answers: list[tuple[str, float]]) -> None:
    status = sum(status_right(c.pattern, a) for c, (a, _) in zip(cases, answers, strict=True))
    full = sum(matches(c.pattern, a) for c, (a, _) in zip(cases, answers, strict=True))
    ms = [t * 1000 for _, t in answers]
    print(f"{name:6} status right {status}/{len(cases)}, fully right {full}/{len(cases)}; "
          f"median {statistics.median(ms):.1f} ms a command, slowest {max(ms):.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    parser.add_argument("--no-gnugo", action="store_true")
    parser.add_argument("--show", action="store_true", help="every test with seog's answer")
    args = parser.parse_args(argv)
    if not args.suite.exists():
        print(f"no suite at {args.suite}", file=sys.stderr)
        return 1
    cases = read_suite(args.suite)
    folder = args.suite.parent
    seog_answers = run_seog(cases, folder)
    if args.show:
        for case, (answer, seconds) in zip(cases, seog_answers, strict=True):
            mark = "ok " if matches(case.pattern, answer) else ("st " if status_right(case.pattern, answer) else "-- ")
            print(f"{mark}{case.number:5} {case.command:16} want [{case.pattern}] got [{answer}] "
                  f"{seconds * 1000:.0f} ms")
    report("seog", cases, seog_answers)
    if not args.no_gnugo and Path(args.gnugo).exists():
        report("GNU Go", cases, run_gnugo(cases, folder, args.gnugo))
    return 0


if __name__ == "__main__":
    sys.exit(main())
