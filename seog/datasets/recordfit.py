"""The recorded result as evidence, measured: held-out positions right blind and fitted to the record.

Every counted game of a held-out side is read blind (``from_game(..., ignore_result=True)``), then fitted to its recorded
count (``scoring.fit.fit_record``); both readings are set against KataGo's (the teacher's dead
stones, from the planes caches). The figures: positions all right blind and fitted, positions the
fit mends and makes wrong, and positions it leaves to a person (no fit, or two about as good).

    python -m seog.datasets.recordfit ../shared/data/kgs-6d-more.tar.xz ../shared/data/kgs-6d-train.tar.xz \\
        --side hash --planes cache/planes-more.npz cache/planes-train.npz [--turns 3] [--clear 1.39] \\
        [--out runs/recordfit-hash.json]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from seog.datasets.heldout import held_out_arguments, milliseconds, write_figures


def measure(games, model, truth, settings, log=None) -> dict:
    """Figures over ``games`` ((id, SGF bytes) pairs) against ``truth`` (a ``recount.dead_by``): each
    counted game scored blind and with its result, as ``seog score`` scores it, with ``settings``."""
    from seog.datasets.recount import score_reads_otherwise
    from seog.features import sgf
    from seog.scoring.request import from_game
    from seog.scoring.result import parse_result
    from seog.scoring.score import score

    tally, named = Counter(), {"mended": [], "made wrong": [], "wrong, left": [], "declined": []}
    extra = []
    for n, (gid, data) in enumerate(games, 1):
        try:
            game = sgf.loads(data)
        except ValueError:
            continue
        if not parse_result(game.result).counted:
            continue
        start = time.perf_counter()
        blind = score(from_game(game, ignore_result=True), model)
        middle = time.perf_counter()
        fitted = score(from_game(game), model, settings)
        extra.append((time.perf_counter() - middle) - (middle - start))
        if fitted.record_fit is None:  # rules or an RU the record's count is not exact under
            continue
        dead_truth = truth(game, data, gid)
        was, now = (score_reads_otherwise(game, counted, dead_truth) for counted in (blind, fitted))
        outcome = fitted.record_fit
        tally["positions"] += 1
        tally[f"outcome {outcome}"] += 1
        tally["wrong blind"] += was
        tally["wrong with the result"] += now
        tally["sure blocks turned"] += sum(1 for st in fitted.read if st.doubt == "record")
        if was and not now:
            named["mended"].append(gid)
        if now and not was:
            named["made wrong"].append(gid)
        if was and now:
            named["wrong, left"].append(f"{gid} ({outcome})")
        if outcome.declined:
            named["declined"].append(f"{gid} ({outcome}, {'wrong' if was else 'right'} blind)")
        if log and n % 200 == 0:
            log(f"  {n} games read, {tally['positions']} counted")
    p = max(tally["positions"], 1)
    out = dict(tally)
    out.update({"all right blind": round(1 - tally["wrong blind"] / p, 4),
                "all right with the result": round(1 - tally["wrong with the result"] / p, 4),
                "ms more than blind, median": milliseconds(extra, 0.5),
                "ms more than blind, p90": milliseconds(extra, 0.9),
                **named})
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.datasets.recordfit", description=__doc__.splitlines()[0])
    held_out_arguments(p)
    p.add_argument("--turns", type=int, help="units turned at most (FitSettings.turns)")
    p.add_argument("--units", type=int, help="the cheapest units searched (FitSettings.units)")
    p.add_argument("--min-stones", type=int, help="units of fewer stones are not turned (FitSettings.min_stones)")
    p.add_argument("--clear", type=float, help="the next fit must cost this much more, log-odds")
    p.add_argument("--out", help="write the figures to this JSON file")
    args = p.parse_args(argv)
    from dataclasses import replace

    from seog.classifiers import model_file
    from seog.datasets.recount import held_out_games, teacher_dead
    from seog.scoring.fit import DEFAULT

    settings = replace(DEFAULT, **{k: v for k, v in
                                   (("turns", args.turns), ("units", args.units), ("clear", args.clear),
                                    ("min_stones", args.min_stones)) if v is not None})
    figures = {"side": args.side, "settings": {"turns": settings.turns, "units": settings.units,
                                               "clear": round(settings.clear, 3), "floor": settings.floor,
                                               "min_stones": settings.min_stones},
               **measure(held_out_games(args.archives, args.side), model_file.load(args.model),
                         teacher_dead(args.planes), settings, log=lambda m: print(m, file=sys.stderr))}
    write_figures(figures, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
