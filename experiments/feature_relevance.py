"""Rank the SEOG features by how much they tell about a block's status, on the training archive.

Reads the first N games of the training tarball whose KataGo labels reproduce the recorded result
(``result_consistent``), replays them, and for every block the static pass leaves unsettled
computes its set-B row and its label (dead iff its stones are in ``katago_dead``). Two measures:
mutual information with the label (scikit-learn, per feature) and permutation importance of a
random forest on held-out games (accuracy drop when a column is shuffled). The features are
ranked by the mean of their two ranks; the top 33 is the candidate set A.

    python experiments/feature_relevance.py --games 400 [--json out.json]

Never run it on the dev sets (kgs-2017-q1 and the other folders of ../shared/data).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np

from seog.classifiers.status import static_statuses
from seog.datasets import archive
from seog.features import coords, sgf
from seog.features.topology import analyze
from seog.features.vector import SET_A, SET_B, extract

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def labels(path: Path) -> dict:
    out = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            row = json.loads(line)
            out[row["name"]] = row
    return out


def board_rows(grid: np.ndarray) -> list[str]:
    return ["".join({1: "X", -1: "O", 0: "."}[int(v)] for v in row) for row in grid]


def collect(tarball: Path, teacher: dict, games: int):
    """Feature rows, labels (1 = dead) and game numbers of the unsettled blocks of ``games`` games."""
    rows, dead, game_of, used, skipped = [], [], [], 0, 0
    for entry in archive.read(tarball):
        name = Path(entry.name).name.removesuffix(".sgf")
        info = teacher.get(name)
        if info is None or not info["result_consistent"]:
            continue
        try:
            game = sgf.loads(entry.data)
        except ValueError:
            skipped += 1
            continue
        grid = game.board.grid.copy()
        if board_rows(grid) != info["final_board"]:
            skipped += 1
            continue
        size = game.size
        dead_points = {coords.sgf_to_index(p, size) for p in info["katago_dead"]}
        topo = analyze(grid)
        settled = static_statuses(topo)
        ids = [b.id for b in topo.blocks if b.id not in settled]
        if ids:
            rows.append(extract(topo, ids))
            dead.extend(int(topo.blocks[b].points[0]) in dead_points for b in ids)
            game_of.extend([used] * len(ids))
        used += 1
        if used >= games:
            break
    return np.vstack(rows), np.array(dead, dtype=int), np.array(game_of), used, skipped


def ranks(values: np.ndarray) -> np.ndarray:
    """1 = largest value."""
    order = np.argsort(-values, kind="stable")
    out = np.empty(len(values), dtype=int)
    out[order] = np.arange(1, len(values) + 1)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tarball", type=Path, default=DATA / "kgs-6d-train.tar.xz")
    parser.add_argument("--labels", type=Path, default=DATA / "kgs-6d-train-katago.jsonl.gz")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write the table here")
    args = parser.parse_args(argv)

    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_selection import mutual_info_classif
    from sklearn.inspection import permutation_importance

    t0 = time.perf_counter()
    X, y, game_of, used, skipped = collect(args.tarball, labels(args.labels), args.games)
    print(f"{used} games ({skipped} skipped), {len(y)} unsettled blocks, {y.mean():.1%} dead, "
          f"read in {time.perf_counter() - t0:.0f} s", file=sys.stderr)

    mi = mutual_info_classif(X, y, random_state=args.seed)
    test = game_of % 4 == 0  # a quarter of the games held out
    forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=3, n_jobs=1, random_state=args.seed)
    forest.fit(X[~test], y[~test])
    accuracy = forest.score(X[test], y[test])
    perm = permutation_importance(forest, X[test], y[test], n_repeats=5, random_state=args.seed, n_jobs=1)
    score = (ranks(mi) + ranks(perm.importances_mean)) / 2
    order = np.argsort(score, kind="stable")
    top = [SET_B[i] for i in order[:33]]

    print(f"forest accuracy on held-out games: {accuracy:.4f} (all dead: {y[test].mean():.4f})")
    print("| rank | feature | mutual information | permutation importance | in SET_A |")
    print("|---:|---|---:|---:|:---:|")
    for r, i in enumerate(order, 1):
        print(f"| {r} | `{SET_B[i]}` | {mi[i]:.4f} | {perm.importances_mean[i]:.4f} | "
              f"{'yes' if SET_B[i] in SET_A else ''} |")
    print("top 33:", top)
    if args.json:
        args.json.write_text(json.dumps({
            "games": used, "blocks": int(len(y)), "dead_share": float(y.mean()), "forest_accuracy": accuracy,
            "features": [{"name": SET_B[i], "mi": float(mi[i]), "permutation": float(perm.importances_mean[i])}
                         for i in order], "top33": top}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
