"""``seog gtp``: a GTP version 2 referee on standard input and output (``gogui-twogtp -referee``)."""

from __future__ import annotations

import argparse

from seog.cli import komi


def register(sub) -> None:
    p = sub.add_parser("gtp", help="referee games over the Go Text Protocol (stdin/stdout)",
                       description="Speak GTP version 2 on stdin/stdout: follow the moves of a game "
                                   "and answer final_score and final_status_list with seog's scorer.")
    p.add_argument("--size", type=int, default=19, help="initial board size (default 19; boardsize changes it)")
    p.add_argument("--rules", default="japanese",
                   help="japanese, korean, chinese, aga, nz or tromp-taylor (default japanese; "
                        "the seog-rules command changes it)")
    p.add_argument("--komi", type=komi, help="initial komi (default: the rules' even-game komi, 0.5 with handicap stones; "
                                                "the komi command changes it)")
    p.add_argument("--no-model", action="store_true",
                   help="decide unsettled blocks with the simple heuristic, not the shipped model")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from seog.gtp.referee import main

    return main(size=args.size, komi=args.komi, rules=args.rules,
                model=None if args.no_model else "default")
