"""The shipped reader's recipe trained with more input planes, for the figures alone: the trainer
(``train_refiner.train``) with a wider first layer, the held-out record written to a file. The
numpy refiner takes no such planes, so nothing is saved to ship. Used by
``experiments/turn_plane_trial.py`` and ``experiments/group_planes_trial.py``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from torch import nn

from seog.classifiers import train_refiner as trainer
from seog.classifiers.refiner import COLOR_SWAP, N_INPUTS
from seog.datasets.heldout import board_of
from seog.features.topology import analyze


def arguments(description: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args()


def canvas(planes: np.ndarray, k: int):
    """``(rows, topology)`` for ``k`` more planes of a cached position: ``rows`` the ``(k, n * n)``
    float16 zeros to fill, a row per plane indexed by flat grid points, and the position's
    topology; ``on_canvas`` puts the filled rows on the cache's canvas."""
    topology = analyze(board_of(planes))
    return np.zeros((k, topology.size ** 2), dtype=np.float16), topology


def on_canvas(rows: np.ndarray, planes: np.ndarray) -> np.ndarray:
    """The ``(k, N, N)`` planes of ``canvas``'s filled ``rows``, on the canvas of ``planes``."""
    k, points = rows.shape
    n = int(round(points ** 0.5))
    out = np.zeros((k,) + planes.shape[-2:], dtype=np.float16)
    out[:, :n, :n] = rows.reshape(k, n, n)
    return out


def train_with(data: dict, extra: np.ndarray, extra_swap: list[int], args: argparse.Namespace) -> None:
    """Train on the cache ``data`` with the ``(rows, k, N, N)`` planes ``extra`` after its own 14;
    a colour swap sends extra plane i to ``extra_swap[i]``. The finished plane the trainer appends
    comes last. Writes the record to ``args.record`` and prints its held-out figures."""
    k = extra.shape[1]
    planes = np.concatenate([data["planes"], extra.astype(data["planes"].dtype)], axis=1)
    trainer.SWAP_INPUTS = np.array(COLOR_SWAP + [N_INPUTS - 1] + [N_INPUTS + i for i in extra_swap] + [N_INPUTS + k])
    plain_init = trainer.RefinerNet.__init__

    def init(self, *a, **kw):
        plain_init(self, *a, **kw)
        self.stem = nn.Conv2d(N_INPUTS + 1 + k, self.stem.out_channels, self.stem.kernel_size,
                              padding=self.stem.padding)

    trainer.RefinerNet.__init__ = init
    trainer.to_refiner = lambda net: None  # the numpy refiner takes no such planes: figures only
    _, record = trainer.train(planes, data["segments"], data["ownership"], data["split"], data["finished"],
                              channels=32, layers=6, global_pool=True, epochs=args.epochs, seed=args.seed,
                              small_weight=4, finished_plane=True)
    record.pop("curve")
    Path(args.record).write_text(json.dumps(record, indent=1))
    print(json.dumps(record["held_out"]))
