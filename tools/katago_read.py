"""A deeper KataGo read of dev positions where seog and the players' marks disagree.

For each named position of a dev folder (SGF + NAME.json with the marks), KataGo's analysis
engine reads the game's real move sequence with ``--visits`` visits and its ownership map; a
block is alive for KataGo when its mean ownership has the block's sign. Prints every block
where KataGo, the marks and seog do not all agree, so the docs can say who is right.

    python tools/katago_read.py --katago PATH/AppRun --model PATH/b10c384h6nbttflrs.bin.gz \\
        --config katago.cfg --visits 32 2017-01-06-18 2017-03-29-29 ...

KataGo setup on this machine: ../shared/README.md (the katrain wheel, pocl, a tuning file).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from seog.classifiers.status import decide
from seog.datasets import devsets
from seog.datasets.labels import block_labels
from seog.features import coords
from seog.features.topology import analyze
from seog.scoring.rules import rules_from_sgf
from seog.scoring.score import default_model

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "kgs-2017-q1"
KATAGO_RULES = {"nz": "new-zealand"}  # seog's rule names KataGo spells otherwise


def query(name: str, position, visits: int) -> dict:
    """The analysis query: the game's real moves, or for a position without a record (the
    ``.game`` files of ogs-score-estimator) its stones as setup, Black to play."""
    game, n = position.game, position.size
    rules = rules_from_sgf(position.rules).name
    if game is not None:
        stones = [("B" if c == 1 else "W", coords.to_gtp(p, n)) for c, p in game.setup]
        moves = [["B" if c == 1 else "W", coords.to_gtp(p, n)] for c, p in game.moves]
    else:
        grid = position.board.grid
        stones = [("B" if grid.flat[i] == 1 else "W", coords.index_to_gtp(i, n)) for i in np.flatnonzero(grid)]
        moves = []
    return {"id": name, "boardXSize": n, "boardYSize": n, "komi": position.komi, "maxVisits": visits,
            "rules": KATAGO_RULES.get(rules, rules), "includeOwnership": True,
            "moves": moves, "initialStones": [list(s) for s in stones], "initialPlayer": "B"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="+", help="position names (file stems) in --folder")
    p.add_argument("--folder", default=str(DEV))
    p.add_argument("--katago", required=True, help="the KataGo binary (the extracted AppImage's AppRun)")
    p.add_argument("--model", required=True, help="KataGo's network file")
    p.add_argument("--config", required=True, help="an analysis config (../shared/katago-cpu.cfg with paths set)")
    p.add_argument("--visits", type=int, default=32)
    args = p.parse_args()
    engine = subprocess.Popen([args.katago, "analysis", "-config", args.config, "-model", args.model],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    model = default_model()
    folder = Path(args.folder)
    for name in args.names:
        files = [folder / f"{name}{suffix}" for suffix in (".sgf", ".game")]
        positions, skipped = devsets.read(next((f for f in files if f.exists()), files[0]))
        if not positions:
            print(f"{name}: skipped ({skipped[0].reason if skipped else 'no such position'})")
            continue
        position = positions[0]
        dead, n = position.dead, position.size
        start = time.perf_counter()
        engine.stdin.write(json.dumps(query(name, position, args.visits)) + "\n")
        engine.stdin.flush()
        answer = json.loads(engine.stdout.readline())
        if "ownership" not in answer:
            print(f"{name}: KataGo gave no ownership ({answer.get('error', answer)})")
            continue
        owner = np.array(answer["ownership"]).reshape(n, n)  # + = Black with reportAnalysisWinratesAs BLACK
        topology = analyze(position.board.grid)
        notes = []
        truth, _ = block_labels(topology, dead)
        for block, status in zip(topology.blocks, decide(topology, model)):
            mean = float(owner.flat[block.points].mean()) * block.color
            verdicts = (bool(truth[block.id]), status.alive, mean > 0)
            if len(set(verdicts)) > 1:
                marks, ours, theirs = ("alive" if v else "dead" for v in verdicts)
                notes.append(f"{coords.index_to_gtp(block.points[0], n)} ({len(block.points)} stones): "
                             f"marks {marks}, seog {ours}, KataGo {theirs} ({mean:+.2f})")
        print(f"{name} ({time.perf_counter() - start:.0f} s): " + ("; ".join(notes) or "all agree"), flush=True)
    engine.stdin.close()
    engine.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
