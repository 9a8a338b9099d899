"""``seog match``: two GTP engines play each other; seog checks every move and scores every game."""

from __future__ import annotations

import argparse
from pathlib import Path

from seog.cli import komi, seconds


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
    p.add_argument("--timeout", type=seconds, default=60.0,
                   help="seconds an engine may take to answer one command (default 60); a timeout forfeits")
    p.add_argument("--startup-timeout", type=seconds, default=300.0,
                   help="seconds a started engine may take to answer 'name' (loading its weights; "
                        "default 300); past it the match stops")
    p.add_argument("--no-model", action="store_true",
                   help="decide unsettled blocks with the simple heuristic, not the shipped model")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import datetime as dt

    from seog.gtp.match import MatchConfig, run_match, summary

    config = MatchConfig(black=args.black, white=args.white, games=args.games, size=args.size,
                         komi=args.komi, rules=args.rules, out=args.out, max_moves=args.max_moves,
                         timeout=args.timeout, startup=args.startup_timeout,
                         model=None if args.no_model else "default")
    if config.out is None:  # made once the settings are known to be good
        config.out = _new_folder(Path(f"match-{dt.datetime.now():%Y%m%d-%H%M%S}"))
    records, seats, stopped = run_match(config)
    print()
    print(summary(records, seats, config))
    if stopped:
        print(f"match stopped early: {stopped}")
        return 1
    return 0


def _new_folder(base: Path) -> Path:
    """``base``, or ``base-2``, ``base-3``... : the first that did not exist, created here, so that
    two matches started in the same second get folders of their own."""
    for n in range(1, 1000):
        folder = base if n == 1 else base.with_name(f"{base.name}-{n}")
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            continue
    raise ValueError(f"{base}: too many match folders of that name")
