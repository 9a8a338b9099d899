"""``seog select ARCHIVE``: keep the finished, counted games of an archive and extract their labels."""

from __future__ import annotations

import argparse
import contextlib
import csv
import sys
from dataclasses import dataclass, field
from pathlib import Path

from seog.cli import seconds

SHOWN = 20  # games GNU Go gave no answer for, listed one a line


def register(sub) -> None:
    p = sub.add_parser("select", help="keep the counted games of an SGF archive (folder or tarball)",
                       description="Read a folder or tarball of SGF files; keep finished games scored by "
                                   "counting (drop resignations, time losses, forfeits, games with variations, "
                                   "unreadable or illegal records, other board sizes); report the drops by "
                                   "reason and extract the dead stones of records with TB/TW marks.")
    p.add_argument("archive", help="a folder, an SGF file or a .tar/.tar.gz/.tar.xz of SGF files")
    p.add_argument("--out", help="CSV with one line per record (kept or dropped, with the reason and dead stones)")
    p.add_argument("--sizes", default="9,13,19", help="board sizes to keep (default 9,13,19)")
    p.add_argument("--teacher", action="append", default=[], metavar="NAME=FILE",
                   help="teacher labels (JSON lines, e.g. katago=kgs-6d-train-katago.jsonl.gz); repeatable")
    p.add_argument("--gtp-teacher", action="store_true",
                   help="also ask GNU Go live (loadsgf, final_status_list dead) for every kept game")
    p.add_argument("--level", type=int, default=10, help="GNU Go level for --gtp-teacher")
    p.add_argument("--gtp-timeout", type=seconds, metavar="SECONDS",
                   help="longest wait for one GNU Go answer (default 300); GNU Go is restarted after a timeout "
                        "and dropped after 3 games in a row")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


@dataclass
class _Tally:
    """What a run saw: games kept (and marked), dropped by reason with an example each, each
    teacher's games labelled, consistent and off, and the kept games GNU Go gave no answer for."""

    names: list[str]
    kept: int = 0
    marked: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)
    stats: dict[str, dict[str, int]] = field(default_factory=dict)
    unanswered: list[str] = field(default_factory=list)  # 'NAME: why'

    def __post_init__(self):
        self.stats = {t: {"labelled": 0, "consistent": 0, "off": 0} for t in self.names}


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from seog.datasets import archive
    from seog.datasets.labels import TEACHER_TIMEOUT, GtpTeacher
    from seog.datasets.select import CSV_FIELDS, csv_row, select

    sizes = _sizes(args.sizes)
    if args.out:  # never over the archive or a teacher's labels
        archive.check_output_file("--out", args.out,
                                  [args.archive, *(f for spec in args.teacher if (f := spec.partition("=")[2]))])
    total = _count_games(args.archive)
    teachers = _teachers(args.teacher)
    live = GtpTeacher(args.level, timeout=args.gtp_timeout or TEACHER_TIMEOUT) if args.gtp_teacher else None
    tally = _Tally(list(teachers) + (["gtp"] if live else []))
    fields = CSV_FIELDS + [f"{t}_{f}" for t in tally.names for f in ("dead", "ours", "consistent", "gap")]
    cut = None
    with contextlib.ExitStack() as stack:
        if live:
            stack.callback(live.close)
        writer = _csv_writer(stack, args.out, fields) if args.out else None
        try:
            for rec in tqdm(select(args.archive, sizes), total=total, disable=args.quiet, unit="game", leave=False):
                row = csv_row(rec)
                if rec.kept:
                    _label(rec, row, teachers, live, tally)
                if writer:
                    writer.writerow(row)
                _count(rec, tally)
        except archive.ArchiveCut as exc:
            if not exc.read:
                raise
            cut = exc  # the records before the damage are reported, then the error
    _report(tally)
    if args.out:
        print(f"wrote {args.out}", file=sys.stderr)
    if cut:
        raise ValueError(f"{cut}; the records before the damage are reported above")
    return 0


def _sizes(text: str) -> tuple[int, ...]:
    """The board sizes of ``--sizes``."""
    try:
        return tuple(int(s) for s in text.split(","))
    except ValueError:
        raise ValueError(f"--sizes {text!r}: give board sizes separated by commas, e.g. 9,13,19") from None


def _count_games(source: str) -> int | None:
    """How many SGF files the archive lists, for the progress bar (None where it cannot be walked:
    what can be is read, and a damaged tarball lists up to the damage); none is an error."""
    from seog.datasets import archive

    try:
        total = len(archive.names(source))
    except FileNotFoundError:
        raise
    except archive.ERRORS:
        total = None
    if total == 0:
        raise ValueError(f"{source}: no SGF files found")
    return total


def _teachers(specs: list[str]) -> dict:
    """The labels of each ``--teacher NAME=FILE``, by name."""
    from seog.datasets.labels import read_teacher

    teachers = {}
    for spec in specs:
        name, _, path = spec.partition("=")
        if not path:
            raise ValueError(f"--teacher {spec!r}: give NAME=FILE, e.g. katago=labels.jsonl.gz")
        teachers[name] = read_teacher(path, name if name in ("katago", "gnugo") else None)
    return teachers


def _csv_writer(stack: contextlib.ExitStack, out: str, fields: list[str]) -> csv.DictWriter:
    """The report's writer, its header written, its file closed with ``stack``."""
    from seog.folders import cannot_write

    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        fh = stack.enter_context(open(out, "w", newline="", encoding="utf-8"))  # noqa: SIM115
    except OSError as exc:
        raise cannot_write("--out", out, exc) from None
    writer = csv.DictWriter(fh, fieldnames=fields)
    writer.writeheader()
    return writer


def _label(rec, row: dict, teachers: dict, live, tally: _Tally) -> None:
    """Each teacher's dead stones of a kept game into its ``row``, checked against its result."""
    from seog.datasets.labels import EngineError, game_key, sgf_points, teacher_check
    from seog.scoring.rules import rules_from_sgf

    for t in tally.names:
        if t == "gtp":
            try:
                mask, _ = live.dead(rec.data, rec.size, rules_from_sgf(rec.rules).area, rec.name)
            except EngineError as exc:
                tally.unanswered.append(f"{rec.name}: {exc}")
                row["gtp_ours"] = str(exc)
                continue
            points = sgf_points(mask)
        elif game_key(rec.name) in teachers[t]:
            points = teachers[t][game_key(rec.name)].dead
        else:
            continue
        stats = tally.stats[t]
        stats["labelled"] += 1
        _, check, problem = teacher_check(rec.game, points)
        row[f"{t}_dead"] = " ".join(points)
        if problem:
            stats["off"] += 1
            row[f"{t}_ours"] = problem
            continue
        stats["consistent"] += check.consistent
        row.update({f"{t}_ours": check.ours, f"{t}_consistent": int(check.consistent), f"{t}_gap": check.gap})


def _count(rec, tally: _Tally) -> None:
    """A record kept (and whether marked), or dropped for its reason."""
    if rec.kept:
        tally.kept += 1
        tally.marked += rec.marked
    else:
        tally.dropped[rec.reason] = tally.dropped.get(rec.reason, 0) + 1
        tally.examples.setdefault(rec.reason, f"{rec.name}{': ' + rec.detail if rec.detail else ''}")


def _report(tally: _Tally) -> None:
    """The run's summary: records kept and dropped by reason, each teacher's labels, and the
    games GNU Go gave no answer for."""
    from seog.datasets.select import REASONS

    total = tally.kept + sum(tally.dropped.values())
    print(f"{total} records: kept {tally.kept} ({tally.marked} with dead-stone marks), dropped {total - tally.kept}")
    for reason in REASONS:
        if reason in tally.dropped:
            print(f"  {reason:20} {tally.dropped[reason]:6}   e.g. {tally.examples[reason][:100]}")
    unanswered = tally.unanswered
    for t in tally.names:
        st = tally.stats[t]
        share = st["consistent"] / st["labelled"] if st["labelled"] else 0
        print(f"teacher {t}: {st['labelled']} kept games labelled, {st['consistent']} consistent with RE "
              f"({100 * share:.1f}%)" + (f", {st['off']} with dead stones off the board's stones" if st["off"] else "")
              + (f", {len(unanswered)} not answered" if t == "gtp" and unanswered else ""))
    for line in unanswered[:SHOWN]:
        print(f"skipped {line}")
    if len(unanswered) > SHOWN:
        print(f"skipped {len(unanswered) - SHOWN} more games GNU Go gave no answer for (the CSV names them)")
