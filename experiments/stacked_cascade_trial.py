"""The cascade learnt from the training side alone, and the reader taught on its out-of-fold
verdicts. The shipped cascade learnt from 90% of ``kgs-6d-train``, the hash and year sides'
finished games among them, and the reader follows the cascade where both misread (every wrong
finished hash position, 27 of 31 on year): on those sides it reads a cascade that has seen the
answer. Here the cascade learns from the training side of ``datasets.split`` only (its every
10th position kept back to stop each net), so both held-out sides are unseen by every net; and
the reader learns either from that cascade's verdicts on every position ("final"), or, on the
training side's counted games, from the verdicts of a cascade that did not learn from them
("stacked": five cascades, each without one fifth of the games, by a hash of the game's id).
Both readers are saved with the final cascade, as model files the held-out measures take.

    python -m seog.datasets.cache ../shared/data/kgs-6d-train.tar.xz \
        --teacher ../shared/data/kgs-6d-train-katago.jsonl.gz --out cache/train.npz --workers 2   # 3 min
    python experiments/stacked_cascade_trial.py --cache cache/train.npz --planes cache/planes-more.npz \
        cache/planes-train.npz cache/planes-selfplay.npz --out runs/stack                          # 40 min

writes ``runs/stack-cascade.npz`` (the final cascade), ``runs/stack-final.npz`` and
``runs/stack-stacked.npz`` (each with its reader) and their training records (``.json``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import time

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.classifiers import train as cascade_trainer
from seog.classifiers import train_refiner as trainer
from seog.datasets.heldout import board_of
from seog.datasets.split import game_id, split_of
from seog.features.vector import SET_A

FOLDS = 5
STATUS = trainer.N_INPUTS - 1  # the status plane


def fold_of(name: str) -> int:
    """A game's fold, by another part of its id's sha1 than the held-out split reads."""
    return int(hashlib.sha1(game_id(name).encode()).hexdigest()[8:16], 16) % FOLDS


def _rows(cache, chosen: np.ndarray):
    """Open rows of the ``chosen`` positions; every 10th position's rows stop the nets early."""
    position = cache["position"]
    open_rows = np.flatnonzero((cache["static"] < 0) & chosen[position])
    held = position[open_rows] % cascade_trainer.TEST_EVERY == cascade_trainer.TEST_EVERY - 1
    return open_rows[~held], open_rows[held]


def train_cascade(job):
    """The shipped cascade's recipe (3 nets, set A, 33-32-1 then 40-32-1, SARPROP T = 0.015) on
    the positions of the cache ``chosen``; returns the model's arrays as a saved file's path."""
    cache_path, chosen, out = job
    cache = cascade_trainer.load_cache(cache_path)
    config = cascade_trainer.TrainConfig(method="sarp15", hidden=32)
    start = time.perf_counter()
    result = cascade_trainer.train_cascade(cache, list(SET_A), config, nets=3, seed=1, rows=_rows(cache, chosen))
    model_file.save(out, result.model)
    nets = [(round(r.train_rms, 5), round(r.test_rms, 5)) for r in result.nets]
    print(f"{out}: {int(chosen.sum())} positions, nets' train / test RMS {nets}, "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    return out


def status_plane(planes: np.ndarray, model) -> np.ndarray:
    """The status plane of this position as ``model``'s cascade reads it (``datasets.planes``)."""
    from seog.classifiers.refiner import inputs
    from seog.classifiers.status import decide
    from seog.features.topology import analyze

    topology = analyze(board_of(planes))
    statuses = {st.block: st for st in decide(topology, model, passes=())}
    return inputs(topology, statuses)[-1]


def status_planes(data: dict, cascade_of) -> np.ndarray:
    """The planes of a planes cache's arrays with each row's status plane as the cascade
    ``cascade_of(row)`` reads that position."""
    start = time.perf_counter()
    planes = data["planes"].copy()
    for row, plane in enumerate(data["planes"]):
        n = int(round(float(plane[3].sum()) ** 0.5))
        planes[row, STATUS, :n, :n] = status_plane(plane, cascade_of(row))
    print(f"status planes of {len(planes)} positions in {time.perf_counter() - start:.0f} s", flush=True)
    return planes


def save_reader(planes, segments, ownership, split, finished, cascade_path: str, out: str, epochs: int = 10,
                seed: int = 1, channels: int = 32, **meta) -> dict:
    """The shipped reader's recipe (32 x 6, global pooling, the finished plane, small boards x 4;
    ``channels`` wide) learnt on these arrays, saved with the cascade of ``cascade_path`` as the
    model ``out`` (its training record beside it, ``.json``); returns the record."""
    refiner, record = trainer.train(planes, segments, ownership, split, finished, channels=channels, layers=6,
                                    global_pool=True, epochs=epochs, seed=seed, small_weight=4, finished_plane=True)
    model = model_file.load(cascade_path)
    model.refiner, model.refiner_margin = refiner, 0.25
    record.pop("curve")
    model.meta["refiner"] = dict(record, cascade_sha1=model_file.cascade_sha1(model), **meta)
    model_file.save(out, model)
    with open(out.removesuffix(".npz") + ".json", "w") as f:
        json.dump(record, f, indent=1)
    print(f"{out}: {json.dumps(record['held_out'])}", flush=True)
    return record


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--out", required=True, help="prefix of the files written")
    p.add_argument("--epochs", type=int, default=10)
    args = p.parse_args()
    names = cascade_trainer.load_cache(args.cache)["positions"]
    side = np.array([split_of(str(n)) for n in names])
    fold = np.array([fold_of(str(n)) for n in names])
    train = side == "train"
    print(f"cache: {len(names)} positions, {int(train.sum())} on the training side", flush=True)
    jobs = [(args.cache, train, f"{args.out}-cascade.npz")]
    jobs += [(args.cache, train & (fold != k), f"{args.out}-fold{k}.npz") for k in range(FOLDS)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        paths = pool.map(train_cascade, jobs, chunksize=1)
    cascades = []
    for path in paths:
        m = model_file.load(path)
        m.refiner = None
        cascades.append(m)
    final, folds = cascades[0], cascades[1:]
    seen = {game_id(str(n)): int(f) for n, f, t in zip(names, fold, train) if t}

    data = planes_cache.load(args.planes)
    by_final = status_planes(data, lambda row: final)

    def cascade_of(row):
        k = seen.get(game_id(str(data["names"][row])))
        return final if k is None else folds[k]

    stacked = status_planes(data, cascade_of)
    for tag, planes in (("final", by_final), ("stacked", stacked)):
        save_reader(planes, data["segments"], data["ownership"], data["split"], data["finished"],
                    f"{args.out}-cascade.npz", f"{args.out}-{tag}.npz", args.epochs, status_plane=tag)

if __name__ == "__main__":
    main()
