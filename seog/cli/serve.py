"""``seog serve``: the REST API (and the web page, when it is installed) under uvicorn."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("serve", help="serve the REST API over HTTP",
                       description="Serve POST /v1/score, /v1/score/sgf, GET /v1/health and /v1/model "
                                   "(OpenAPI docs at /docs) with uvicorn.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s; "
                   "0.0.0.0 for every interface)")
    p.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default: %(default)s)")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port} is not a TCP port (0..65535)")
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    import uvicorn

    uvicorn.run("seog.api.http:app", host=args.host, port=args.port, workers=args.workers,
                log_level=args.log_level)
    return 0
