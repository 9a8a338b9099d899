"""``seog score FILE.sgf``: the final board with dead stones marked, the counts and the result."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub) -> None:
    p = sub.add_parser("score", help="score a finished game (SGF)",
                       description="Decide the dead stones of a finished game and count it.")
    p.add_argument("file", help="an SGF file ('-' reads standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the REST API's answer)")
    p.add_argument("--rules", help="japanese, korean, chinese, aga, nz or tromp-taylor (default: the file's RU)")
    p.add_argument("--komi", type=float, help="komi (default: the file's KM)")
    p.add_argument("--use-markup", action="store_true",
                   help="use the dead stones marked in the file (TB/TW) instead of deciding them")
    p.add_argument("--no-model", action="store_true",
                   help="decide unsettled blocks with the simple heuristic, not the shipped model")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from seog.features import sgf
    from seog.scoring.report import to_dict
    from seog.scoring.score import score_game
    from seog.scoring.text import render

    game = sgf.loads(sys.stdin.buffer.read()) if args.file == "-" else sgf.load(args.file)
    if args.use_markup and not game.has_markup:
        raise ValueError(f"{args.file}: --use-markup given but the file has no TB/TW territory marks")
    score = score_game(game, rules=args.rules, komi=args.komi, use_markup=args.use_markup,
                       model=None if args.no_model else "default")
    if args.json:
        print(json.dumps(to_dict(score, game.result or None)))
    else:
        print(render(game.board.grid, score, recorded=game.result))
    return 0
