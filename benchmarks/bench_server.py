"""Requests per second and latency of ``POST /v1/score`` from ``seog serve``, 1 worker against N.

    python benchmarks/bench_server.py [--workers 1 2] [--clients 4 16] [--seconds 10] [--repeats 1]
                                      [--sgf seog/api/static/examples/gnugo-selfplay-9x9.sgf]

The script starts each server on a free loopback port and drives it with C concurrent kept-alive
clients (asyncio, one prepared JSON board body), after a warm-up. Per run it prints requests/s,
p50/p95/p99 latency, errors, each worker's share of the server CPU (to see whether the workers
share the load), the client's own CPU (it must not be the bottleneck), the seconds SIGTERM took to
end the server, and the load average. The first worker count is the baseline; later ones are
printed as a ratio against it, clients for clients, in the same repeat.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serverload import DEFAULT_SGF, Server, board_body, cpu_seconds, drive, load, rss_mb, score_request  # noqa: E402


def measure(server: Server, request: bytes, clients: int, seconds: float, warmup: float) -> dict:
    drive(server.port, request, clients, warmup)
    pids = server.worker_pids()
    before = [cpu_seconds(pid) for pid in pids]
    result = drive(server.port, request, clients, seconds)
    used = [cpu_seconds(pid) - b for pid, b in zip(pids, before)]
    return {"result": result, "cpu": used, "rss": [rss_mb(pid) for pid in pids]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--clients", type=int, nargs="+", default=[4, 16])
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    p.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds before each run")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--sgf", type=Path, default=DEFAULT_SGF, help="the game whose final board is sent")
    args = p.parse_args(argv)

    body = board_body(args.sgf)
    request = score_request(body)
    print(f"POST /v1/score, {args.sgf.name} as a JSON board ({len(body)} bytes); {load()}", flush=True)
    print(f"{'rep':>3} {'workers':>7} {'clients':>7} {'req/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
          f"{'errors':>6} {'ratio':>6}  worker CPU s (share)      client CPU  RSS MB  stop s")
    for rep in range(args.repeats):
        base: dict[int, float] = {}
        for workers in args.workers:
            server = Server(workers)
            rows = []
            try:
                for clients in args.clients:
                    rows.append((clients, measure(server, request, clients, args.seconds, args.warmup)))
            finally:
                stop = server.stop()
            for clients, m in rows:
                r = m["result"]
                base.setdefault(clients, r.rate)
                ratio = r.rate / base[clients] if base[clients] else float("nan")
                total = sum(m["cpu"]) or 1.0
                shares = " ".join(f"{c:.1f}({c / total:.0%})" for c in m["cpu"])
                rss = " ".join(f"{x:.0f}" for x in m["rss"])
                kinds = f"  {r.error_kinds}" if r.errors else ""
                print(f"{rep:>3} {workers:>7} {clients:>7} {r.rate:>8.1f} {r.percentile(50):>7.1f} "
                      f"{r.percentile(95):>7.1f} {r.percentile(99):>7.1f} {r.errors:>6} {ratio:>5.2f}x  "
                      f"{shares:<24}  {r.client_cpu:>9.0%}  {rss:>6}  {stop:>5.1f}{kinds}", flush=True)
        print(f"    {load()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
