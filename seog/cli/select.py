"""``seog select ARCHIVE``: keep the finished, counted games of an archive and extract their labels."""

from __future__ import annotations

import argparse
import contextlib
import csv
import sys
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


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from seog.datasets import archive
    from seog.datasets.labels import (
        TEACHER_TIMEOUT,
        EngineError,
        GtpTeacher,
        game_key,
        read_teacher,
        sgf_points,
        teacher_check,
    )
    from seog.datasets.select import CSV_FIELDS, REASONS, csv_row, select
    from seog.folders import cannot_write

    try:
        sizes = tuple(int(s) for s in args.sizes.split(","))
    except ValueError:
        raise ValueError(f"--sizes {args.sizes!r}: give board sizes separated by commas, e.g. 9,13,19") from None
    if args.out:  # never over the archive or a teacher's labels
        archive.check_output_file("--out", args.out,
                                  [args.archive, *(f for spec in args.teacher if (f := spec.partition("=")[2]))])
    try:
        total = len(archive.names(args.archive))
    except FileNotFoundError:
        raise
    except archive.ERRORS:
        total = None  # a folder that cannot be walked: read what can be (a damaged tarball lists up to the damage)
    if total == 0:
        raise ValueError(f"{args.archive}: no SGF files found")
    teachers = {}
    for spec in args.teacher:
        name, _, path = spec.partition("=")
        if not path:
            raise ValueError(f"--teacher {spec!r}: give NAME=FILE, e.g. katago=labels.jsonl.gz")
        teachers[name] = read_teacher(path, name if name in ("katago", "gnugo") else None)
    live = GtpTeacher(args.level, timeout=args.gtp_timeout or TEACHER_TIMEOUT) if args.gtp_teacher else None
    names = list(teachers) + (["gtp"] if live else [])
    fields = CSV_FIELDS + [f"{t}_{f}" for t in names for f in ("dead", "ours", "consistent", "gap")]
    stats = {t: {"labelled": 0, "consistent": 0, "off": 0} for t in names}
    unanswered: list[str] = []  # 'NAME: why' for every kept game GNU Go gave no answer for
    writer = None
    stack = contextlib.ExitStack()
    if args.out:
        try:
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            fh = stack.enter_context(open(args.out, "w", newline="", encoding="utf-8"))  # noqa: SIM115
        except OSError as exc:
            raise cannot_write("--out", args.out, exc) from None
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
    kept = marked = 0
    dropped: dict[str, int] = {}
    examples: dict[str, str] = {}
    cut = None
    try:
        for rec in tqdm(select(args.archive, sizes), total=total, disable=args.quiet, unit="game", leave=False):
            row = csv_row(rec)
            if rec.kept:
                for t in names:
                    if t == "gtp":
                        from seog.scoring.rules import rules_from_sgf
                        try:
                            mask, _ = live.dead(rec.data, rec.size, rules_from_sgf(rec.rules).area, rec.name)
                        except EngineError as exc:
                            unanswered.append(f"{rec.name}: {exc}")
                            row["gtp_ours"] = str(exc)
                            continue
                        points = sgf_points(mask)
                    elif game_key(rec.name) in teachers[t]:
                        points = teachers[t][game_key(rec.name)].dead
                    else:
                        continue
                    stats[t]["labelled"] += 1
                    _, check, problem = teacher_check(rec.game, points)
                    row[f"{t}_dead"] = " ".join(points)
                    if problem:
                        stats[t]["off"] += 1
                        row[f"{t}_ours"] = problem
                        continue
                    stats[t]["consistent"] += check.consistent
                    row.update({f"{t}_ours": check.ours, f"{t}_consistent": int(check.consistent),
                                f"{t}_gap": check.gap})
            if writer:
                writer.writerow(row)
            if rec.kept:
                kept += 1
                marked += rec.marked
            else:
                dropped[rec.reason] = dropped.get(rec.reason, 0) + 1
                examples.setdefault(rec.reason, f"{rec.name}{': ' + rec.detail if rec.detail else ''}")
    except archive.ArchiveCut as exc:
        if not exc.read:
            raise
        cut = exc  # the records before the damage are reported, then the error
    finally:
        stack.close()
        if live:
            live.close()
    total = kept + sum(dropped.values())
    print(f"{total} records: kept {kept} ({marked} with dead-stone marks), dropped {total - kept}")
    for reason in REASONS:
        if reason in dropped:
            print(f"  {reason:20} {dropped[reason]:6}   e.g. {examples[reason][:100]}")
    for t in names:
        st = stats[t]
        share = st["consistent"] / st["labelled"] if st["labelled"] else 0
        print(f"teacher {t}: {st['labelled']} kept games labelled, {st['consistent']} consistent with RE "
              f"({100 * share:.1f}%)" + (f", {st['off']} with dead stones off the board's stones" if st["off"] else "")
              + (f", {len(unanswered)} not answered" if t == "gtp" and unanswered else ""))
    for line in unanswered[:SHOWN]:
        print(f"skipped {line}")
    if len(unanswered) > SHOWN:
        print(f"skipped {len(unanswered) - SHOWN} more games GNU Go gave no answer for (the CSV names them)")
    if args.out:
        print(f"wrote {args.out}", file=sys.stderr)
    if cut:
        raise ValueError(f"{cut}; the records before the damage are reported above")
    return 0
