"""Soak: minutes of loopback load on ``seog serve --workers 2``, reported minute by minute.

    python benchmarks/bench_soak.py [--minutes 10] [--workers 2] [--clients 8] [--every 60]
                                    [--max-requests 2000000] [--games ARCHIVE [--limit N]]

The script starts the server on a free loopback port and keeps ``--clients`` kept-alive clients
sending ``POST /v1/score`` (the 9x9 example's board, or with ``--games`` each game of an archive in
turn as SGF text and as a JSON board) until the minutes or the request count run out; each request
has a 30 s timeout. Every ``--every`` seconds it prints the requests, errors, requests/s, p50/p99
of that interval, each worker's RSS and CPU, and the load average; at the end the totals, the
RSS growth of each worker from the first interval to the last, any worker that was replaced, and
the seconds SIGTERM took to end the server.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serverload import (  # noqa: E402
    DEFAULT_SGF,
    Load,
    Server,
    board_body,
    cpu_seconds,
    drive,
    load,
    rss_mb,
    score_request,
    varied_requests,
)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--every", type=float, default=60.0, help="seconds between reports")
    p.add_argument("--max-requests", type=int, default=2_000_000, help="stop after this many requests")
    p.add_argument("--games", type=Path, default=None, metavar="ARCHIVE",
                   help="send the games of ARCHIVE (a folder or a tarball of SGF files) in turn, as SGF "
                        "text and as a board")
    p.add_argument("--limit", type=int, default=None, help="the first LIMIT games of --games")
    args = p.parse_args(argv)

    requests = varied_requests(args.games, args.limit) if args.games else [score_request(board_body(DEFAULT_SGF))]
    what = f"{len(requests)} requests from {args.games}" if args.games else DEFAULT_SGF.name
    total, first_rss, t0 = Load(), None, time.monotonic()
    end = t0 + 60 * args.minutes
    with Server(args.workers) as server:
        pids = server.worker_pids()
        print(f"seog serve --workers {args.workers}, {args.clients} clients, POST /v1/score ({what}), "
              f"{args.minutes:g} min; RSS MB at start {' '.join(f'{rss_mb(p):.1f}' for p in pids)}; {load()}",
              flush=True)
        print(f"{'min':>5} {'requests':>8} {'errors':>6} {'req/s':>6} {'p50 ms':>7} {'p99 ms':>7}  "
              f"{'RSS MB per worker':<20} {'CPU s per worker':<18} load", flush=True)
        cpu = {pid: cpu_seconds(pid) for pid in pids}
        while time.monotonic() < end - 1 and len(total.latencies) + total.errors < args.max_requests:
            left = args.max_requests - len(total.latencies) - total.errors
            part = drive(server.port, requests, args.clients, min(args.every, end - time.monotonic()), left)
            total.latencies += part.latencies
            total.errors += part.errors
            for kind, n in part.error_kinds.items():
                total.error_kinds[kind] = total.error_kinds.get(kind, 0) + n
            now = server.worker_pids()
            rss = [rss_mb(pid) for pid in now]
            used = [cpu_seconds(pid) - cpu.get(pid, 0.0) for pid in now]
            cpu = {pid: cpu_seconds(pid) for pid in now}
            first_rss = first_rss or dict(zip(now, rss))
            print(f"{(time.monotonic() - t0) / 60:>5.1f} {len(total.latencies) + total.errors:>8} {part.errors:>6} "
                  f"{part.rate:>6.0f} {part.percentile(50):>7.1f} {part.percentile(99):>7.1f}  "
                  f"{' '.join(f'{r:.1f}' for r in rss):<20} {' '.join(f'{c:.0f}' for c in used):<18} "
                  f"{load().removeprefix('load average ')}", flush=True)
        last = {pid: rss_mb(pid) for pid in server.worker_pids()}
        replaced = sorted(set(pids) - set(last))
        stop = server.stop()
    seconds = time.monotonic() - t0
    growth = " ".join(f"{first_rss[pid]:.1f} -> {r:.1f} MB ({r / first_rss[pid] - 1:+.1%})"
                      for pid, r in last.items() if pid in (first_rss or {}))
    print(f"total {len(total.latencies) + total.errors} requests in {seconds / 60:.1f} min, {total.errors} errors"
          f"{f' {total.error_kinds}' if total.errors else ''}, p50 {total.percentile(50):.1f} ms, p99 {total.percentile(99):.1f} ms; "
          f"RSS first interval to last: {growth}; workers replaced: {replaced or 'none'}; "
          f"SIGTERM ended the server in {stop:.1f} s; {load()}", flush=True)
    return 1 if total.errors else 0


if __name__ == "__main__":
    sys.exit(main())
