"""The shipped reader's recipe with a second pooling in every layer: beside each block's (and
each empty region's) channel means, the means over each chain's stones (the blocks of one colour
that share a liberty, ``topology.chains``), so that one layer carries news across a whole group
of blocks rather than one block at a time. Does the reader miss groups because its pooling stops
at a block's edge?

    python experiments/chain_pool_trial.py --planes cache/planes-more.npz cache/planes-train.npz \\
        cache/planes-selfplay.npz --record runs/chain-pool.json      # 10 min on 2 cores

The figures are the trainer's (``train_refiner.held_out``: the reader alone, one pass), beside
those of the shipped recipe in docs/trials.md. The numpy refiner has no second pooling, so nothing
is saved to ship. The two segmentations travel as one integer per point (chain id times
``PACK`` plus the block's or region's), which the board symmetries move together.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from seog.classifiers import planes_cache
from seog.classifiers import train_refiner as trainer
from seog.datasets.heldout import board_of
from seog.features.topology import analyze

PACK = 1024  # more than any position's blocks and regions


def chain_segments(planes: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """``segments`` with each stone's chain folded in: ``chain * PACK + segment``, where a chain
    is named by its first block's segment id and an empty point's chain is its own segment."""
    top = analyze(board_of(planes))
    n = top.size
    seg = segments.astype(np.int64)
    chain = seg.copy()
    inner = chain[:n, :n]
    for c in top.chains:
        first = c.blocks[0]
        for b in c.blocks:
            inner[top.block_of == b + 1] = first
    return chain * PACK + seg


def forward(self, x: torch.Tensor, packed: torch.Tensor) -> torch.Tensor:
    """``RefinerNet.forward`` with a chain pooling added to each layer's block pooling."""
    batch, _, n, _ = x.shape
    offsets = torch.arange(batch).reshape(batch, 1) * (n * n)
    flats = [(s.reshape(batch, -1) + offsets).reshape(-1) for s in (packed % PACK, packed // PACK)]
    counts = [torch.zeros(batch * n * n).index_add_(0, f, torch.ones(batch * n * n)).clamp(min=1) for f in flats]
    board = x[:, 3:4]
    area = board.sum(dim=(2, 3))
    h = F.relu(self.stem(x)) * board
    for k, conv in enumerate(self.convs):
        c = h.shape[1]
        rows = h.permute(0, 2, 3, 1).reshape(-1, c)
        mixed = 0
        for pool, flat, count in zip((self.pools[k], self.chain_pools[k]), flats, counts):
            sums = torch.zeros(batch * n * n, c).index_add_(0, flat, rows)
            mixed = mixed + pool(sums / count[:, None])[flat].reshape(batch, n, n, c).permute(0, 3, 1, 2)
        mixed = mixed + self.globs[k](h.sum(dim=(2, 3)) / area)[:, :, None, None]
        h = F.relu(h + conv(h) + mixed) * board
    return torch.tanh(self.head(h)).squeeze(1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    data = planes_cache.load(args.planes)
    assert int(data["segments"].max()) < PACK
    packed = np.stack([chain_segments(x, s) for x, s in zip(data["planes"], data["segments"])])
    plain_init = trainer.RefinerNet.__init__

    def init(self, *a, **kw):
        plain_init(self, *a, **kw)
        self.chain_pools = nn.ModuleList(nn.Linear(p.in_features, p.out_features) for p in self.pools)

    trainer.RefinerNet.__init__ = init
    trainer.RefinerNet.forward = forward
    trainer.to_refiner = lambda net: None  # the numpy refiner has no chain pooling: figures only
    _, record = trainer.train(data["planes"], packed, data["ownership"], data["split"], data["finished"],
                              channels=32, layers=6, global_pool=True, epochs=args.epochs, seed=args.seed,
                              small_weight=4, finished_plane=True)
    record.pop("curve")
    Path(args.record).write_text(json.dumps(record, indent=1))
    print(json.dumps(record["held_out"]))


if __name__ == "__main__":
    main()
