"""``seog serve``: the REST API (and the web page, when it is installed) under uvicorn."""

from __future__ import annotations

import argparse
import os

from seog.cli import positive_int

CORS_ENV = "SEOG_CORS_ORIGINS"  # how --cors-origin reaches the app in every worker process


def register(sub) -> None:
    p = sub.add_parser("serve", help="serve the REST API over HTTP",
                       description="Serve POST /v1/score, /v1/score/sgf, GET /v1/health and /v1/model "
                                   "(OpenAPI docs at /docs) with uvicorn. For any other uvicorn option, "
                                   "run `uvicorn seog.api.http:app ...` instead.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s; "
                   "0.0.0.0 for every interface)")
    p.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes (default: %(default)s); on Linux each listens on a socket of its own "
                        "(SO_REUSEPORT) and the kernel spreads connections over them")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--root-path", default="", metavar="PATH",
                   help="the path prefix a reverse proxy serves seog under (e.g. /seog), so /docs finds its schema")
    p.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                   help="let browser pages from ORIGIN (e.g. https://go.example.org) call the API; repeatable")
    p.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                   help="comma-separated proxy addresses whose X-Forwarded-For/-Proto are trusted "
                        "('*' for all; default: 127.0.0.1)")
    p.add_argument("--timeout-graceful-shutdown", type=positive_int, default=None, metavar="SECONDS",
                   help="on SIGTERM, wait at most this long for requests in flight (default: no limit)")
    p.add_argument("--limit-concurrency", type=positive_int, default=None, metavar="N",
                   help="answer 503 beyond N connections and tasks at once per worker (default: no limit)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port} is not a TCP port (0..65535)")
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    import uvicorn

    if args.cors_origin:
        os.environ[CORS_ENV] = ",".join(args.cors_origin)
    options = dict(host=args.host, port=args.port, log_level=args.log_level, **deployment_options(args))
    from seog.api.workers import keep_memory_flat, run_workers

    if args.workers == 1:
        keep_memory_flat()
        uvicorn.run("seog.api.http:app", **options)
    else:
        run_workers("seog.api.http:app", args.workers, options)
    return 0


def deployment_options(args: argparse.Namespace) -> dict:
    """The uvicorn settings a deployment behind a proxy needs, as given (uvicorn's defaults else)."""
    options = {"root_path": args.root_path, "timeout_graceful_shutdown": args.timeout_graceful_shutdown,
               "limit_concurrency": args.limit_concurrency}
    if args.forwarded_allow_ips is not None:
        options["forwarded_allow_ips"] = args.forwarded_allow_ips
    return options
