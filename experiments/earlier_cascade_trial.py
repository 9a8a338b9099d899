"""The cascade taught on positions a few moves before the end of counted games as well: four
times the positions, each labelled by the ownership of its game's last position (a block taken
off in the last moves dead, one still there with its fate at the end). The "final" recipe of
``experiments/stacked_cascade_trial.py`` otherwise: the cascade learns from the training side alone
and the reader (32 x 6) from its verdicts on the usual planes (last positions only). A tenth of
the training side's games, by a hash of the game's id, stop each net (all of a game's positions
on one side of that cut). With ``--folds K`` the reader learns instead from out-of-fold
verdicts on the training side's counted games ("stacked"): K more cascades, each without a K-th
of those games (by a hash of the id), read the games they did not learn from, so that the reader
learns how far to trust a cascade on a game it has not seen; every other position is read with
the cascade of the whole training side, as in the product. ``--cascade`` takes that cascade
from an earlier run; ``--features B`` teaches the cascades on the study's whole feature vector
in place of set A.

    python -m seog.datasets.cache ../shared/data/kgs-6d-more.tar.xz \\
        --ownership ../shared/data/kgs-6d-more-katago.npz --back 4 10 20 \\
        --out cache/more8-back.npz --workers 2                                              # 3 min
    python experiments/earlier_cascade_trial.py --caches cache/more8-back.npz cache/train.npz \\
        --labels ../shared/data/kgs-6d-more-katago.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --out runs/ecas                     # 21 min
    python experiments/earlier_cascade_trial.py ... --cascade runs/ecas-cascade.npz --folds 2 --out runs/ecas2

The second cache adds the training side's games the ownership file does not label (their
last positions, KataGo's 1-visit read). Writes ``runs/ecas-cache.npz`` (the two joined),
``runs/ecas-cascade.npz`` (unless given), ``runs/ecas-foldK.npz`` (with ``--folds``) and
``runs/ecas-final.npz`` (the cascade with its reader) with its training record (``.json``).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import time

import numpy as np
from stacked_cascade_trial import save_reader, status_planes

from seog.classifiers import model_file, planes_cache
from seog.classifiers import train as cascade_trainer
from seog.datasets import cache as feature_cache
from seog.datasets.split import game_id, split_of
from seog.features.vector import SET_A, SET_B

FEATURES = {"A": SET_A, "B": SET_B}


def stops_nets(gid: str) -> bool:
    """One game in ten by another part of its id's sha1 than the split and the folds read."""
    return int(hashlib.sha1(gid.encode()).hexdigest()[16:24], 16) % cascade_trainer.TEST_EVERY == 0


def fold_of(gid: str, folds: int) -> int:
    """A game's fold, by the part of its id's sha1 the stacked trial reads."""
    return int(hashlib.sha1(gid.encode()).hexdigest()[8:16], 16) % folds


def training_rows(cache, first: int, labelled: set[str], leave_out=lambda gid: False
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Open rows of the training side's positions: every one of the first cache's ``first``
    positions, of the other those whose game the ownership file does not label, less the games
    ``leave_out`` names; split into the rows the nets learn from and those that stop them, by game."""
    ids = [game_id(str(n)) for n in cache["positions"]]
    chosen = np.array([split_of(g) == "train" and (i < first or g not in labelled) and not leave_out(g)
                       for i, g in enumerate(ids)])
    stop = np.array([stops_nets(g) for g in ids])
    position = cache["position"]
    open_rows = np.flatnonzero((cache["static"] < 0) & chosen[position])
    held = stop[position[open_rows]]
    return open_rows[~held], open_rows[held]


def learn_cascade(cache, rows, out: str, features: str = "A") -> str:
    """The shipped cascade's recipe (3 nets, SARPROP T = 0.015) on ``rows`` over the features of
    set ``features`` (the shipped set, A, by default), saved to ``out``."""
    start = time.perf_counter()
    config = cascade_trainer.TrainConfig(method="sarp15", hidden=32)
    result = cascade_trainer.train_cascade(cache, list(FEATURES[features]), config, nets=3, seed=1, rows=rows)
    model_file.save(out, result.model)
    print(f"{out}: {len(rows[0])} open rows to learn from, {len(rows[1])} to stop the nets; nets' train / test "
          f"RMS {[(round(r.train_rms, 5), round(r.test_rms, 5)) for r in result.nets]}, "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    return out


def fold_job(job) -> str:
    joined, first, labelled, k, folds, out, features = job
    cache = cascade_trainer.load_cache(joined)
    return learn_cascade(cache, training_rows(cache, first, labelled, lambda g: fold_of(g, folds) == k), out,
                         features)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--caches", nargs=2, required=True, help="the cache with earlier positions, then the 1-visit one")
    p.add_argument("--labels", required=True, help="the ownership file the first cache was built with (its names)")
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--out", required=True, help="prefix of the files written")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--cascade", help="the whole training side's cascade of an earlier run (else learnt here)")
    p.add_argument("--folds", type=int, default=0, help="out-of-fold verdicts from this many cascades (stacked)")
    p.add_argument("--seed", type=int, default=1, help="the reader's seed")
    p.add_argument("--features", choices=sorted(FEATURES), default="A", help="the cascade's feature set")
    p.add_argument("--channels", type=int, default=32, help="the reader's width")
    args = p.parse_args()
    joined = f"{args.out}-cache.npz"
    feature_cache.merge(args.caches, joined)
    first = len(cascade_trainer.load_cache(args.caches[0])["positions"])
    labelled = {game_id(str(n)) for n in np.load(args.labels)["names"]}
    cascade_path = args.cascade
    if cascade_path is None:
        cache = cascade_trainer.load_cache(joined)
        cascade_path = learn_cascade(cache, training_rows(cache, first, labelled), f"{args.out}-cascade.npz",
                                     args.features)
        del cache
    jobs = [(joined, first, labelled, k, args.folds, f"{args.out}-fold{k}.npz", args.features)
            for k in range(args.folds)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        fold_paths = pool.map(fold_job, jobs, chunksize=1)
    cascade = model_file.load(cascade_path)
    cascade.refiner = None
    folds = []
    for path in fold_paths:
        folds.append(model_file.load(path))
        folds[-1].refiner = None
    learnt = {g for g in (game_id(str(n)) for n in cascade_trainer.load_cache(joined)["positions"])
              if split_of(g) == "train"}

    data = planes_cache.load(args.planes)

    def cascade_of(row):
        gid = game_id(str(data["names"][row]))
        if folds and data["finished"][row] and gid in learnt:
            return folds[fold_of(gid, len(folds))]  # out of fold
        return cascade

    planes = status_planes(data, cascade_of)
    save_reader(planes, data["segments"], data["ownership"], data["split"], data["finished"], cascade_path,
                f"{args.out}-final.npz", args.epochs, args.seed, args.channels,
                status_plane=f"stacked, {args.folds} folds" if args.folds else "final",
                cascade_positions="last and 4, 10, 20 moves before it")

if __name__ == "__main__":
    main()
