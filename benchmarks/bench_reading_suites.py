"""GNU Go's reading regression suites, answered by ``seog gtp`` and by GNU Go, side by side.

Each suite (``reading``, ``owl``, ``semeai``, ``optics`` in ../shared/data/gnugo-regression) is
run from that folder, so that its ``loadsgf games/...`` lines resolve: seog's GTP front in this
process, GNU Go 3.8 as ``/usr/games/gnugo --mode gtp`` with ``--gnugo``. Per suite and engine:
the tests, how many are status right (the answer's first tokens match the expected answer's:
the code of ``attack``/``defend``/``owl_*``, the word of ``dragon_status``, the first two
numbers of ``analyze_semeai`` and of ``eval_eye``), how many fully right (the whole ``#?``
pattern matches; ``!`` negates), and the median and 90th percentile seconds a test command
takes. A command an engine does not know counts as wrong.

    python benchmarks/bench_reading_suites.py [--suite reading] [--limit N] [--gnugo] [--wrong]
        [--by-command]    # the counts of each test command (analyze_semeai, dragon_status...) too
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from seog.gtp.client import EngineError, GtpEngine
from seog.gtp.referee import GtpReferee

ROOT = Path(__file__).resolve().parent.parent
SUITES_DIR = ROOT.parent / "shared" / "data" / "gnugo-regression"
SUITES = ("reading", "owl", "semeai", "optics")
GNUGO = "/usr/games/gnugo --mode gtp"
STATUS_TOKENS = {"analyze_semeai": 2, "eval_eye": 2}  # the others: the first token
_EXPECTED = re.compile(r"#\?\s*\[(?P<pattern>.*)\](?P<mark>[*&]?)\s*$")


@dataclass
class Test:
    """One numbered command of a suite, the commands to send before it, and its expected answer."""

    number: str
    command: str
    before: list[str]
    pattern: str = ""
    expected_failure: bool = False


@dataclass
class Outcome:
    tests: int = 0
    status: int = 0
    full: int = 0
    seconds: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    by_command: dict[str, list] = field(default_factory=dict)  # command: [tests, status, full, seconds]


def parse_suite(text: str) -> list[Test]:
    """The tests of a ``.tst`` file, each with the unnumbered commands (loadsgf, trymove...)
    that come before it since the last test."""
    tests: list[Test] = []
    pending: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        expected = _EXPECTED.match(line)
        if expected and tests and not tests[-1].pattern:
            tests[-1].pattern = expected["pattern"]
            tests[-1].expected_failure = expected["mark"] == "*"
            continue
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if words[0].isdigit():
            tests.append(Test(words[0], " ".join(words[1:]), pending))
            pending = []
        else:
            pending.append(line)
    return [t for t in tests if t.pattern]


def _full_match(pattern: str, answer: str) -> bool:
    negate = pattern.startswith("!")
    body = pattern[1:] if negate else pattern
    try:
        hit = re.fullmatch(body, answer) is not None
    except re.error:
        hit = body == answer
    return hit != negate


def _alternatives(pattern: str) -> list[str]:
    """The pattern's alternatives at the top level (``1 A1|2 B2`` -> two), outer parentheses off."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(pattern):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return [a.strip() for a in out]


def _status_match(pattern: str, answer: str, tokens: int) -> bool:
    """Do the answer's first ``tokens`` words match those of some alternative of the pattern?"""
    negate = pattern.startswith("!")
    body = pattern[1:] if negate else pattern
    said = answer.split()[:tokens]
    hit = False
    for alternative in _alternatives(body):
        if alternative.startswith("(") and alternative.endswith(")"):
            hit = hit or _status_match(alternative[1:-1], answer, tokens)
            continue
        words = alternative.split()[:tokens]
        if len(words) != len(said):
            continue
        try:
            hit = hit or all(re.fullmatch(w.strip("()"), s) for w, s in zip(words, said))
        except re.error:
            hit = hit or words == said
    return hit != negate


class InProcess:
    """seog's GTP front, in this process."""

    label = "seog"

    def __init__(self) -> None:
        self.gtp = GtpReferee(log=io.StringIO())

    def send(self, command: str) -> tuple[bool, str]:
        reply = self.gtp.handle(command) or "= "
        return reply.startswith("="), reply[1:].strip()

    def close(self) -> None:
        pass


class Subprocess:
    """An engine in a subprocess (GNU Go)."""

    label = "GNU Go"

    def __init__(self, command: str, cwd: Path) -> None:
        self.engine = GtpEngine(command, cwd=str(cwd), timeout=120)

    def send(self, command: str) -> tuple[bool, str]:
        try:
            return True, self.engine.send(command)
        except EngineError as exc:
            return False, str(exc)

    def close(self) -> None:
        self.engine.close()


def run_suite(engine, tests: list[Test]) -> Outcome:
    out = Outcome()
    for test in tests:
        for command in test.before:
            engine.send(command)
        start = time.perf_counter()
        ok, answer = engine.send(test.command)
        out.seconds.append(time.perf_counter() - start)
        answer = " ".join(answer.split()) if ok else "?"
        tokens = STATUS_TOKENS.get(test.command.split()[0], 1)
        status = ok and _status_match(test.pattern, answer, tokens)
        full = ok and _full_match(test.pattern, answer)
        out.tests += 1
        out.status += status
        out.full += full
        counts = out.by_command.setdefault(test.command.split()[0], [0, 0, 0, []])
        counts[0] += 1
        counts[1] += status
        counts[2] += full
        counts[3].append(out.seconds[-1])
        if not status:
            out.wrong.append(f"{test.number} {test.command}: {answer!r}, expected [{test.pattern}]"
                             + (" (GNU Go fails it too)" if test.expected_failure else ""))
    return out


def _seconds(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.3f} / {p90:.3f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", action="append", choices=SUITES, help="a suite (repeatable); default all")
    p.add_argument("--limit", type=int, default=None, help="the first N tests of each suite")
    p.add_argument("--gnugo", action="store_true", help="run GNU Go on the same tests")
    p.add_argument("--wrong", action="store_true", help="list the tests each engine does not get status right")
    p.add_argument("--by-command", action="store_true", help="the counts of each test command too")
    p.add_argument("--folder", type=Path, default=SUITES_DIR)
    args = p.parse_args()
    if not args.folder.is_dir():
        print(f"no suites at {args.folder}")
        return 1
    os.chdir(args.folder)
    print(f"load average {os.getloadavg()[0]:.2f}")
    print("suite     tests  engine   status right  fully right  s/command median / p90")
    for name in args.suite or SUITES:
        tests = parse_suite((args.folder / f"{name}.tst").read_text())[: args.limit]
        engines = [InProcess()] + ([Subprocess(GNUGO, args.folder)] if args.gnugo else [])
        for engine in engines:
            try:
                out = run_suite(engine, tests)
            finally:
                engine.close()
            print(f"{name:<9} {out.tests:>5}  {engine.label:<7} {out.status:>6} {100 * out.status / max(out.tests, 1):5.1f}%"
                  f" {out.full:>6} {100 * out.full / max(out.tests, 1):5.1f}%  {_seconds(out.seconds)}")
            if args.by_command:
                for command, (count, status, full, seconds) in sorted(out.by_command.items()):
                    print(f"  {command:<22} {count:>5} {status:>6} {100 * status / count:5.1f}%"
                          f" {full:>6} {100 * full / count:5.1f}%  {_seconds(seconds)}")
            if args.wrong:
                for line in out.wrong:
                    print("   ", line)
        sys.stdout.flush()
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
