"""``seog annotate INPUT --out DIR``: a scored, marked copy of every game of an SGF folder or tarball."""

from __future__ import annotations

import argparse
import sys

from seog import cores
from seog.cli import need_extra

DASK_TIMEOUT = 60.0  # seog.datasets.annotate.DASK_TIMEOUT, kept here so that --help loads no more


def register(sub) -> None:
    p = sub.add_parser("annotate", help="score every game of a folder or tarball, writing marked copies",
                       description="Write a copy of each game with territory marks (TB/TW, dead stones "
                                   "included as KGS does), the computed RE and a comment naming the "
                                   "uncertain blocks. The input is never modified; a rerun skips the "
                                   "games already written; a CSV report lists every game. Exit code 1 "
                                   "when a game failed, the disk filled up, the Dask cluster was lost or "
                                   "a tarball is damaged (the games before the damage are annotated), "
                                   "128+N when stopped by signal N.")
    p.add_argument("input", help="a folder of .sgf files (searched recursively), an .sgf file, or a "
                                 "tarball (.tar, .tar.gz, .tgz, .tar.xz, .tar.bz2)")
    p.add_argument("--out", required=True, help="output folder (created; must not be inside the input)")
    p.add_argument("--workers", type=int, default=cores(),
                   help="worker processes, at most one per game to do (default: one per core, %(default)s here)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS instead of "
                                                     "local processes (tcp://host:8786)")
    p.add_argument("--dask-timeout", type=float, default=DASK_TIMEOUT, metavar="SECONDS",
                   help="with --dask: how long to wait for the scheduler and a worker at the start, and "
                        "for a game to finish; a run whose scheduler is lost, or on which no game "
                        "finished for this long (no worker left), stops with exit 1, keeping the games "
                        "finished (default %(default)g)")
    p.add_argument("--rules", help="count every game under these rules (default: each file's RU)")
    p.add_argument("--use-markup", action="store_true",
                   help="count with the file's own TB/TW dead stones where it has them")
    p.add_argument("--unfinished", action="store_true",
                   help="the games whose record has no counted result (no RE, or RE[?]) were not counted "
                        "(stopped, or still going): decide each as a position that is not finished, its "
                        "count an estimate (the report's unfinished column says so; the copy gets no RE)")
    p.add_argument("--ignore-result", action="store_true",
                   help="read blind: leave each record's counted result out of deciding the dead stones (by "
                        "default it settles the groups in doubt that, turned, make the count equal it; the "
                        "report's record_fit column says what it did)")
    p.add_argument("--no-model", action="store_true", help="decide unsettled blocks with the heuristic")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N games (in name order)")
    p.add_argument("--report", help="CSV report path (default: OUT/annotate-report.csv)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.dask:
        need_extra("--dask", "distributed")
    from seog.datasets.annotate import FAILED, DaskLost, DiskFull, Interrupted, Options, annotate
    from seog.scoring.rules import get_rules

    if args.rules:
        get_rules(args.rules)  # an unknown name fails here, before any work
    if args.limit is not None and args.limit < 0:
        raise ValueError(f"--limit must be 0 or more, got {args.limit}")
    options = Options(rules=args.rules, use_markup=args.use_markup,
                      model=None if args.no_model else "default", unfinished=args.unfinished,
                      ignore_result=args.ignore_result)
    try:
        summary = annotate(args.input, args.out, workers=args.workers, options=options, dask=args.dask,
                           limit=args.limit, report=args.report, progress=not args.quiet,
                           dask_timeout=args.dask_timeout)
    except Interrupted as stop:
        for line in stop.summary.lines() if stop.summary else []:
            print(line)
        print(f"interrupted ({stop}): the copies written and the report are kept; rerun to continue",
              file=sys.stderr)
        return 128 + stop.signum
    except (DiskFull, DaskLost) as stop:
        for line in stop.summary.lines() if stop.summary else []:
            print(line)
        print(f"seog annotate: error: {stop}", file=sys.stderr)
        return 1
    for line in summary.lines():
        print(line)
    if summary.cut:
        print(f"seog annotate: error: {summary.cut}; no game after the damage was read: rerun on a whole copy "
              "of the archive for them", file=sys.stderr)
    return 1 if summary.count(FAILED) or summary.cut else 0  # the summary says how many failed, the report why
