"""How much drawing the scored board adds to scoring it: SVG and terminal text against score_game.

Run: python benchmarks/bench_pictures.py [SGF ...]   (default: the shipped 19x19 example and the
web page's examples). Prints milliseconds per call (best of 5 rounds) and the ratio to scoring.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from seog.features import sgf
from seog.scoring.score import score_game
from seog.scoring.svg import render_svg
from seog.scoring.text import render

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT / "examples" / "gnugo-selfplay-19.sgf",
           *sorted((ROOT / "seog" / "api" / "static" / "examples").glob("*.sgf"))]


def best_ms(fn, rounds: int = 5, number: int = 20) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1000


def main(paths: list[str]) -> None:
    files = [Path(p) for p in paths] or DEFAULT
    print(f"{'game':40} {'size':>4} {'score ms':>9} {'svg ms':>8} {'svg/score':>9} {'text ms':>8} {'svg KiB':>8}")
    for path in files:
        game = sgf.load(path)
        score = score_game(game)
        grid = game.board.grid
        t_score = best_ms(lambda: score_game(game))
        t_svg = best_ms(lambda: render_svg(grid, score, recorded=game.result))
        t_text = best_ms(lambda: render(grid, score, colour=True))
        kib = len(render_svg(grid, score).encode()) / 1024
        print(f"{path.name:40} {game.size:>4} {t_score:>9.2f} {t_svg:>8.2f} {t_svg / t_score:>9.2f} "
              f"{t_text:>8.2f} {kib:>8.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
