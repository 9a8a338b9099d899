"""A cascade that learns from every game of ``kgs-6d-train``, measured honestly by cross-fitting:
five cascades, each learnt without a fifth of the archive's games (by a hash of the game's id),
and every position read with the cascade that did not learn from its game, in training (the
reader's status plane) and in the held-out measure alike. The shipped cascade learnt from the
hash and year sides' games (``experiments/cascade_seen_split.py``); a cascade of the training side
alone has fewer games to learn from (``experiments/stacked_cascade_trial.py``). This gives the figure
of the recipe whose cascade learns from all of them, none of it read with a cascade that has
seen the game.

    python experiments/crossfit_trial.py --cache cache/train.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --out runs/crossfit          # 25 min

writes the fold cascades (``runs/crossfit-foldK.npz``), the reader's training record and prints
the finished positions wrong through the product's path (the shipped rules, calibration 1.25) on
``hash``, ``year`` and the ``small`` side (``--small``), and on the 310 hash and year positions
the shipped cascade never learnt from.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing

import numpy as np
from stacked_cascade_trial import FOLDS, fold_of, status_planes, train_cascade

from seog.classifiers import model_file, planes_cache
from seog.classifiers import train as cascade_trainer
from seog.classifiers import train_refiner as trainer
from seog.classifiers.status import apply_passes, model_passes, read
from seog.datasets.heldout import labelled_positions
from seog.datasets.split import game_id


def wrong_positions(models: list, data: dict, rows) -> list[int]:
    """The ``rows`` whose finished position the product's path reads wrong, each read with the
    model of its game's fold."""
    out = []
    for row, topology, truth in labelled_positions(data, rows):
        model = models[fold_of(str(data["names"][row]))]
        statuses = apply_passes(topology, read(topology, model, True), model_passes(model), True)
        if (np.array([statuses[b.id].alive for b in topology.blocks]) != truth).any():
            out.append(int(row))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--small", default="cache/planes-small.npz")
    p.add_argument("--out", required=True, help="prefix of the files written")
    p.add_argument("--epochs", type=int, default=10)
    args = p.parse_args()
    names = [str(n) for n in cascade_trainer.load_cache(args.cache)["positions"]]
    fold = np.array([fold_of(n) for n in names])
    jobs = [(args.cache, fold != k, f"{args.out}-fold{k}.npz") for k in range(FOLDS)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        paths = pool.map(train_cascade, jobs, chunksize=1)
    cascades = [model_file.load(path) for path in paths]

    data = planes_cache.load(args.planes)
    planes = status_planes(data, lambda row: cascades[fold_of(str(data["names"][row]))])
    refiner, record = trainer.train(planes, data["segments"], data["ownership"], data["split"], data["finished"],
                                    channels=32, layers=6, global_pool=True, epochs=args.epochs, seed=1,
                                    small_weight=4, finished_plane=True)
    record.pop("curve")
    with open(f"{args.out}.json", "w") as f:
        json.dump(record, f, indent=1)
    print(f"reader alone: {json.dumps(record['held_out'])}", flush=True)

    shipped = model_file.load("seog/models/default.npz")
    models = []
    for cascade in cascades:
        cascade.refiner = refiner
        cascade.refiner.calibration = 1.25
        for name in ("uncertain_margin", "refiner_margin", "flag_margin", "part_margin"):
            setattr(cascade, name, getattr(shipped, name))
        cascade.passes = model_passes(shipped)
        models.append(cascade)
    seen = {game_id(n): i for i, n in enumerate(names)}
    held = cascade_trainer.TEST_EVERY - 1
    for side in ("hash", "year"):
        rows = np.flatnonzero((data["split"] == side) & data["finished"])
        wrong = set(wrong_positions(models, data, rows))
        unseen = [r for r in rows if seen.get(game_id(str(data["names"][r])), held) % cascade_trainer.TEST_EVERY == held]
        print(f"{side}: {len(wrong)} of {len(rows)} finished positions wrong; of the {len(unseen)} the shipped "
              f"cascade never learnt from, {len(wrong & set(unseen))}", flush=True)
    small = planes_cache.load([args.small])
    rows = np.flatnonzero(small["finished"])
    print(f"small: {len(wrong_positions(models, small, rows))} of {len(rows)} finished positions wrong")


if __name__ == "__main__":
    main()
