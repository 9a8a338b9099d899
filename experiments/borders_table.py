"""How often the eye-shape rules alone close a position's borders, on a held-out side of the
training archives: the evidence for looking at the borders without them where no counted result
says the game was finished (``scoring.decision.closed_by_eye_shape``, docs/scoring.md).

    python experiments/borders_table.py --side hash      # --side year, --side train

Each position not unfinished by its RE is decided as finished; where an eye-shape rule turned a
block and the borders look closed, they are looked at again with the model's other rules alone.
Records with a counted result and records without one are tallied apart, with the counts before
and after for each position whose borders were closed by the eye-shape rules alone.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from seog.classifiers.status import EYE_SHAPE_PASSES, decide, passes_without_eye_shape
from seog.datasets.recount import held_out_games
from seog.features import sgf
from seog.features.topology import analyze
from seog.scoring.decision import count_request, open_board
from seog.scoring.request import from_game
from seog.scoring.result import parse_result
from seog.scoring.score import default_model

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
ARCHIVES = [str(DATA / "kgs-6d-more.tar.xz"), str(DATA / "kgs-6d-train.tar.xz")]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--side", choices=["hash", "year", "train"], default="hash")
    args = p.parse_args()
    model = default_model()
    others = passes_without_eye_shape(model)
    tally: collections.Counter = collections.Counter()
    closed = []
    for gid, data in held_out_games(ARCHIVES, args.side):
        try:
            game = sgf.loads(data)
        except ValueError:
            continue
        request = from_game(game)
        if request.unfinished:
            continue
        kind = "counted" if parse_result(game.recorded).counted else "no count"
        topology = analyze(request.board.grid)
        statuses = decide(topology, model, finished=True)
        counted = count_request(request, topology, statuses)
        if open_board(request, counted):
            tally[kind, "open borders as read"] += 1
        elif not any(st.source in EYE_SHAPE_PASSES for st in statuses):
            tally[kind, "closed, no eye-shape rule turned a block"] += 1
        else:
            without = count_request(request, topology, decide(topology, model, passes=others, finished=True))
            if open_board(request, without):
                tally[kind, "closed by the eye-shape rules alone"] += 1
                closed.append((kind, gid, game.recorded or "-", counted.result, without.result))
            else:
                tally[kind, "closed without them too"] += 1
    for (kind, what), n in sorted(tally.items()):
        print(f"{n:6d}  {kind:9s} {what}")
    for kind, gid, recorded, before, after in closed:
        print(f"  {kind:9s} {gid:16s} RE {recorded:9s} read {before:8s} without the eye-shape rules {after}")


if __name__ == "__main__":
    main()
