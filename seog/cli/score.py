"""``seog score FILE.sgf``: the final board with dead stones marked, the counts and the result."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from seog.cli import komi


def register(sub) -> None:
    p = sub.add_parser("score", help="score a finished game (SGF)",
                       description="Decide the dead stones of a finished game and count it.")
    p.add_argument("file", help="an SGF file ('-' reads standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the REST API's answer)")
    p.add_argument("--rules", help="japanese, korean, chinese, aga, nz or tromp-taylor (default: the file's RU)")
    p.add_argument("--komi", type=komi, help="komi (default: the file's KM)")
    p.add_argument("--use-markup", action="store_true",
                   help="use the dead stones marked in the file (TB/TW) instead of deciding them")
    p.add_argument("--unfinished", action="store_true",
                   help="the game was not counted (stopped, or still going, and the file has no RE to say "
                        "so): decide it as a position that is not finished, without the eye-shape rules; "
                        "the count is an estimate")
    p.add_argument("--ignore-result", action="store_true",
                   help="read blind: leave the record's counted result out of deciding the dead stones "
                        "(by default it settles the groups in doubt that, turned, make the count equal it)")
    p.add_argument("--no-model", action="store_true",
                   help="decide unsettled blocks with the simple heuristic, not the shipped model")
    p.add_argument("--svg", metavar="OUT.svg", help="also draw the scored board as an SVG picture")
    p.add_argument("--png", metavar="OUT.png",
                   help="also draw it as PNG (needs cairosvg, rsvg-convert or ImageMagick)")
    p.add_argument("--color", "--colour", dest="color", choices=["auto", "always", "never"], default="auto",
                   help="colour the terminal board: auto (a terminal without NO_COLOR), always or never")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from seog.features import sgf
    from seog.features.board import IllegalPosition
    from seog.scoring.request import SAID_UNFINISHED_CLI, NoMarkup, from_game

    name = "standard input" if args.file == "-" else Path(args.file).name
    if args.file == "-":
        try:
            game = sgf.loads(sgf.read_limited(sys.stdin.buffer))
        except sgf.SgfError as exc:
            raise sgf.SgfError(f"{name}: {exc}") from None
    else:
        game = sgf.load(args.file)  # its errors name the file
    try:
        request = from_game(game, rules=args.rules, komi=args.komi, use_markup=args.use_markup,
                            said_unfinished=SAID_UNFINISHED_CLI if args.unfinished else "",
                            ignore_result=args.ignore_result)
    except NoMarkup:
        raise ValueError(f"{args.file}: --use-markup given but the file has no TB/TW territory marks") from None
    except sgf.SgfError as exc:  # a suicide its rules forbid
        raise sgf.SgfError(f"{name}: {exc}") from None
    from seog.scoring.report import to_dict  # after the file is read: a refused file is refused at once
    from seog.scoring.score import score
    from seog.scoring.text import render, wants_colour

    try:
        counted = score(request, None if args.no_model else "default")
    except IllegalPosition as exc:  # a block without liberties
        raise IllegalPosition(f"{name}: {exc}") from None
    if args.svg or args.png:
        _pictures(args, game, counted)
    if args.json:
        print(json.dumps(to_dict(counted, request.recorded)))
    else:
        colour = {"always": True, "never": False}.get(args.color, None)
        colour = wants_colour(sys.stdout) if colour is None else colour
        print(render(game.board.grid, counted, recorded=request.recorded, colour=colour))
    return 0


def _pictures(args: argparse.Namespace, game, score) -> None:
    """Write the --svg and --png pictures; say on stderr where they went."""
    from seog.folders import cannot_write
    from seog.scoring.svg import render_svg, write_png

    title = _title(game, args.file)
    svg = render_svg(game.board.grid, score, recorded=game.recorded or None, title=title)
    if args.svg:
        try:
            Path(args.svg).write_text(svg, encoding="utf-8")
        except OSError as exc:  # a missing folder, or one seog may not write in: one line naming it
            raise cannot_write("--svg", args.svg, exc) from None
        print(f"wrote {args.svg}", file=sys.stderr)
    if args.png:
        try:
            tool = write_png(svg, args.png, scale=1.5)
        except OSError as exc:
            raise cannot_write("--png", args.png, exc) from None
        print(f"wrote {args.png} (with {tool})", file=sys.stderr)


def _title(game, file: str) -> str:
    props = game.properties
    black, white = props.get("PB"), props.get("PW")
    names = f"{black or 'Black'} vs {white or 'White'}" if (black or white) else None
    return names or ("standard input" if file == "-" else Path(file).name)
