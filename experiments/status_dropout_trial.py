"""The reader taught to doubt the cascade: in training, a quarter of the positions of each batch
lose their status plane (every stone's cascade verdict set to 0, p_alive 0.5), so that the reader
must read those boards from the stones alone and learns features that can overrule a cascade
that is sure and wrong. The "ecas" recipe otherwise (``experiments/earlier_cascade_trial.py``: its
cascade, the reader 32 x 6 on the usual planes); the product's reader reads with the plane.

    python experiments/status_dropout_trial.py --cascade runs/ecas-cascade.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --drop 0.25 --out runs/sdrop            # 9 min

writes ``runs/sdrop-final.npz`` (the cascade with its reader) and its training record (``.json``).
"""

from __future__ import annotations

import argparse

from stacked_cascade_trial import STATUS, save_reader, status_planes

from seog.classifiers import model_file, planes_cache
from seog.classifiers import train_refiner as trainer


def dropping(augment, drop: float):
    """``augment`` with the status plane of each position set to 0 with probability ``drop``."""

    def augmented(x, seg, y, rng):
        x, seg, y = augment(x, seg, y, rng)
        lose = rng.random(x.shape[0]) < drop
        if lose.any():
            x = x.clone()
            x[lose, STATUS] = 0
        return x, seg, y

    return augmented


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cascade", required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--drop", type=float, default=0.25)
    p.add_argument("--out", required=True, help="prefix of the files written")
    p.add_argument("--epochs", type=int, default=10)
    args = p.parse_args()
    cascade = model_file.load(args.cascade)
    cascade.refiner = None
    data = planes_cache.load(args.planes)
    planes = status_planes(data, lambda row: cascade)
    trainer.augment = dropping(trainer.augment, args.drop)
    save_reader(planes, data["segments"], data["ownership"], data["split"], data["finished"], args.cascade,
                f"{args.out}-final.npz", args.epochs, status_plane="final", status_dropout=args.drop)

if __name__ == "__main__":
    main()
