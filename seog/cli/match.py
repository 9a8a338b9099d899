"""``seog match``: two GTP engines play each other; seog checks every move and scores every game."""

from __future__ import annotations

import argparse
from pathlib import Path

from seog.cli import komi


def register(sub) -> None:
    p = sub.add_parser("match", help="play two GTP engines against each other, refereed by seog",
                       description="Play GAMES games between two GTP engines, alternating colours "
                                   "(the --black engine takes Black in odd games). seog checks the "
                                   "legality of every move (an illegal move forfeits), scores each game, "
                                   "writes one SGF per game with the result and the dead stones, "
                                   "and prints a summary table.")
    p.add_argument("--black", required=True, metavar="CMD",
                   help="engine A, Black in the first game (a command line, e.g. "
                        "\"/usr/games/gnugo --mode gtp --level 0\")")
    p.add_argument("--white", required=True, metavar="CMD", help="engine B, White in the first game")
    p.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    p.add_argument("--size", type=int, default=19, help="board size (default 19)")
    p.add_argument("--komi", type=komi, default=7.5, help="komi (default 7.5)")
    p.add_argument("--rules", default="chinese",
                   help="rules for the count: chinese (default), japanese, korean, aga, nz, tromp-taylor")
    p.add_argument("--out", type=Path,
                   help="folder for the SGF files (default match-DATE-TIME); one that holds the game "
                        "files of an earlier match is refused")
    p.add_argument("--max-moves", type=int,
                   help="stop a game after this many moves: unfinished, no result (RE Void, the count in "
                        "its comment), kept out of the win counts (default 3 x size x size)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds an engine may take to answer one command (default 60); a timeout forfeits")
    p.add_argument("--no-model", action="store_true",
                   help="decide unsettled blocks with the simple heuristic, not the shipped model")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import datetime as dt

    from seog.api.match import MatchConfig, run_match, summary

    out = args.out or Path(f"match-{dt.datetime.now():%Y%m%d-%H%M%S}")
    config = MatchConfig(black=args.black, white=args.white, games=args.games, size=args.size,
                         komi=args.komi, rules=args.rules, out=out, max_moves=args.max_moves,
                         timeout=args.timeout, model=None if args.no_model else "default")
    records, seats, stopped = run_match(config)
    print()
    print(summary(records, seats, config))
    if stopped:
        print(f"match stopped early: {stopped}")
        return 1
    return 0
