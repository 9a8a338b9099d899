"""The whole board as stacked feature planes, for the ownership refiner's convolutions.

Each plane is one number per point: stone colours, the liberties and size of the point's block,
the size and owner of the point's empty region, and whether the block is unconditionally alive.
``segments`` numbers the points' groups (blocks first, then empty regions) so the refiner can
average over a whole block or region at once, which a 3x3 convolution alone would need many
layers to see.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from seog.features.coords import BLACK, WHITE
from seog.features.topology import Topology

PLANES = ["black", "white", "empty", "on_board",
          "liberties_1", "liberties_2", "liberties_3", "liberties_4plus",
          "block_log_size", "region_log_size", "region_black", "region_white", "benson_alive"]
# Swapping the colours of a position permutes the planes this way (training augments with it).
COLOR_SWAP = [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 11, 10, 12]


def static_planes(topology: Topology, alive: Iterable[int] = ()) -> np.ndarray:
    """``(len(PLANES), n, n)`` float32 planes of a position; ``alive``: Benson-alive block ids."""
    grid = topology.grid.ravel()
    n = topology.size
    out = np.zeros((len(PLANES), n * n), dtype=np.float32)
    out[0] = grid == BLACK
    out[1] = grid == WHITE
    out[2] = grid == 0
    out[3] = 1.0
    block_of = topology.block_of.ravel()
    stone = block_of > 0
    # Per-block tables indexed by label (0 = no block), looked up at every point at once.
    libs = np.zeros(len(topology.blocks) + 1)
    libs[1:] = [len(b.liberties) for b in topology.blocks]
    sizes = np.bincount(block_of, minlength=len(topology.blocks) + 1).astype(np.float64)
    log_size = np.log2(sizes + 1) / 6
    log_size[0] = 0  # label 0: no block
    at = libs[block_of]
    out[4] = stone & (at == 1)
    out[5] = stone & (at == 2)
    out[6] = stone & (at == 3)
    out[7] = stone & (at >= 4)
    out[8] = log_size[block_of]
    region_of = topology.region_of.ravel()
    empty = region_of > 0
    rsizes = np.bincount(region_of, minlength=len(topology.regions) + 1).astype(np.float64)
    log_rsize = np.log2(rsizes + 1) / 6
    log_rsize[0] = 0
    owner = np.zeros(len(topology.regions) + 1)
    owner[1:] = [BLACK if r.borders == {BLACK} else WHITE if r.borders == {WHITE} else 0
                 for r in topology.regions]
    out[9] = log_rsize[region_of]
    out[10] = empty & (owner[region_of] == BLACK)
    out[11] = empty & (owner[region_of] == WHITE)
    benson = np.zeros(len(topology.blocks) + 1, dtype=bool)
    benson[[b + 1 for b in alive]] = True
    out[12] = benson[block_of]
    return out.reshape(len(PLANES), n, n)


def segments(topology: Topology) -> tuple[np.ndarray, int]:
    """Every point's group id, ``(n, n)`` ints: block ids, then empty regions after them; and the count."""
    nb = len(topology.blocks)
    seg = np.where(topology.block_of > 0, topology.block_of - 1, nb + topology.region_of - 1)
    return seg.astype(np.int64), nb + len(topology.regions)


def status_plane(topology: Topology, p_alive: np.ndarray) -> np.ndarray:
    """``(n, n)`` float32: each stone's block's probability of being alive mapped to [-1, 1], 0 off stones."""
    table = np.zeros(len(topology.blocks) + 1, dtype=np.float32)
    table[1:] = 2 * np.asarray(p_alive, dtype=np.float32) - 1
    return table[topology.block_of]
