"""A worker's resident memory over many ``POST /v1/score`` requests: it should stay flat.

    python benchmarks/bench_memory.py [--requests 30000] [--every 1000] [--clients 4] [--workers 1]
        [--sgf seog/api/static/examples/gnugo-selfplay-9x9.sgf | --games ARCHIVE [--limit N]]
        [--without-trim]

The script starts ``seog serve`` on a free loopback port and prints each worker's RSS when it is
ready, then after every EVERY requests (kept-alive clients sending one JSON board body, or with
``--games`` each game of an archive in turn, as SGF text and as a JSON board), with the growth
against the RSS after the first EVERY requests (the baseline: by then every code path and buffer
the requests use is warm), and the load average. ``--without-trim`` serves without
``seog.api.workers.keep_memory_flat`` (glibc's own arenas, no trim; one worker), to see what it
does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serverload import (  # noqa: E402
    DEFAULT_SGF,
    Server,
    board_body,
    drive,
    load,
    rss_mb,
    score_request,
    varied_requests,
)

# ``python -m seog`` with keep_memory_flat replaced by a no-op (``-c`` passes the arguments on)
WITHOUT_TRIM = ("import sys; from seog.api import workers; workers.keep_memory_flat = lambda *a, **k: None; "
                "from seog.cli import main; sys.exit(main(sys.argv[1:]))")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--requests", type=int, default=30_000)
    p.add_argument("--every", type=int, default=1000, help="print the RSS after every this many requests")
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--sgf", type=Path, default=DEFAULT_SGF, help="the game whose final board is sent")
    p.add_argument("--games", type=Path, default=None, metavar="ARCHIVE",
                   help="send the games of ARCHIVE (a folder or a tarball of SGF files) in turn, as SGF "
                        "text and as a board, instead")
    p.add_argument("--limit", type=int, default=None, help="the first LIMIT games of --games")
    p.add_argument("--without-trim", action="store_true",
                   help="serve without keep_memory_flat (no malloc arena cap, no malloc_trim)")
    args = p.parse_args(argv)
    if args.without_trim and args.workers != 1:
        p.error("--without-trim serves from one worker (spawned workers import seog afresh)")

    request = varied_requests(args.games, args.limit) if args.games else score_request(board_body(args.sgf))
    what = f"{len(request)} requests from {args.games}" if args.games else args.sgf.name
    with Server(args.workers, command=(sys.executable, "-c", WITHOUT_TRIM) if args.without_trim else ()) as server:
        pids = server.worker_pids()
        print(f"seog serve --workers {args.workers}{' without keep_memory_flat' if args.without_trim else ''}, "
              f"{args.clients} clients, POST /v1/score ({what}); "
              f"{load()}", flush=True)
        print(f"{'requests':>8} {'errors':>6} {'req/s':>6}  RSS MB per worker (against the first {args.every})",
              flush=True)
        print(f"{0:>8} {'':>6} {'':>6}  " + " ".join(f"{rss_mb(pid):7.1f}" for pid in pids), flush=True)
        done, errors, base, t0 = 0, 0, None, time.perf_counter()
        while done < args.requests:
            result = drive(server.port, request, args.clients, seconds=3600, max_requests=args.every)
            done += len(result.latencies) + result.errors
            errors += result.errors
            rss = [rss_mb(pid) for pid in pids]
            base = base or rss
            growth = " ".join(f"{r:7.1f} ({r / b - 1:+.1%})" for r, b in zip(rss, base))
            print(f"{done:>8} {errors:>6} {result.rate:>6.0f}  {growth}", flush=True)
        print(f"{time.perf_counter() - t0:.0f} s; {load()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
