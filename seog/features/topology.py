"""Blocks, chains, empty regions and colour-enclosed regions (CERs) of a position.

Everything is computed with whole-array operations (``arrays.label`` and shifted
comparisons) but chains (a union-find over the shared liberties); per-object lists are built once
from sorted index arrays. Points are grid
indices (``row * size + col``, see ``coords``).

Vocabulary (as in the study):
- *block*: a 4-connected group of stones of one colour.
- *chain*: blocks of one colour linked through shared liberties (a block alone is a chain).
- *empty region*: a 4-connected group of empty points.
- *CER enclosed by colour c*: a 4-connected group of points that are not ``c`` (empty points
  and ``-c`` stones), bounded by ``c`` stones and the edge. An eye of a ``c`` block is such a
  region holding no stones; the region enclosed by the opponent that holds a block is its
  *opponent CER*.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from seog.features.arrays import STACK, around, label, nonzero2
from seog.features.coords import BLACK, EMPTY, WHITE, adjacent


@dataclass
class Block:
    """One block of stones.

    Fields: ``id`` (index into ``Topology.blocks``), ``color``, ``points`` and ``liberties``
    (sorted grid indices), ``opponents`` (ids of adjacent opponent blocks), ``regions`` (ids
    of adjacent empty regions), ``chain`` (chain id), ``enclosing_cer`` (id of the CER
    enclosed by the opponent that holds it) and ``adjacent_cers`` (ids of CERs enclosed by
    its own colour that it borders).
    """

    id: int
    color: int
    points: np.ndarray
    liberties: np.ndarray
    opponents: list[int] = field(default_factory=list)
    regions: list[int] = field(default_factory=list)
    chain: int = -1
    enclosing_cer: int = -1
    adjacent_cers: list[int] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.points)


@dataclass
class Chain:
    """Blocks of one colour joined by shared liberties: ``blocks`` ids, all ``points`` and ``liberties``."""

    id: int
    color: int
    blocks: list[int]
    points: np.ndarray
    liberties: np.ndarray


@dataclass
class Region:
    """A 4-connected group of empty points and the colours of the stones that border it."""

    id: int
    points: np.ndarray
    blocks: list[int]
    borders: frozenset


@dataclass
class CER:
    """A region enclosed by ``color``: its ``points``, the enclosing ``blocks`` (colour ``color``)
    and the ``inner_blocks`` (opponent stones inside it). An eye when it has no inner blocks."""

    id: int
    color: int
    points: np.ndarray
    empty: np.ndarray
    blocks: list[int]
    inner_blocks: list[int]

    @property
    def is_eye(self) -> bool:
        return not self.inner_blocks


@dataclass
class Topology:
    """The structure of one position; see the module docstring for the vocabulary.

    ``block_of`` / ``region_of`` are (size, size) label arrays (block or region id + 1, 0 elsewhere);
    ``cer_of[c]`` labels the CERs enclosed by colour c (id + 1, 0 on c stones).
    """

    size: int
    grid: np.ndarray
    block_of: np.ndarray
    blocks: list[Block]
    region_of: np.ndarray
    regions: list[Region]
    chains: list[Chain]
    cer_of: dict
    cers: dict
    cache: dict = field(default_factory=dict, repr=False, compare=False)  # derived tables (features)

    def block_at(self, index: int) -> Block | None:
        label = self.block_of.flat[index]
        return self.blocks[label - 1] if label else None

    def liberties_after(self, index: int, color: int) -> set[int] | None:
        """The liberties of ``color``'s stone played on the empty point ``index``, with the own
        blocks it joins (their liberties include ``index`` itself); None when the move captures."""
        grid, free = self.grid.ravel(), set()
        for q in adjacent(self.size)[index]:
            if not grid[q]:
                free.add(q)
                continue
            block = self.block_at(q)
            if block.color == color:
                free.update(block.liberties.tolist())
            elif len(block.liberties) == 1:
                return None
        return free


_BORDERS = [frozenset(), frozenset((BLACK,)), frozenset((WHITE,)), frozenset((BLACK, WHITE))]


def _incidence(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> tuple[np.ndarray, list]:
    """The distinct (row, col) pairs sorted, as (cols, bounds): row r's are ``cols[bounds[r]:bounds[r + 1]]``.

    A dense bool matrix does the work of ``np.unique``: the label ranges here are small.
    """
    hit = np.zeros((n_rows, n_cols), dtype=bool)
    hit[rows, cols] = True
    row, col = nonzero2(hit)
    return col, [0, *np.bincount(row, minlength=n_rows).cumsum().tolist()]


def _split(values, bounds: list, first: int, stop: int) -> list:
    """Pieces ``first`` .. ``stop - 1`` of ``values`` cut at ``bounds``."""
    return [values[a:b] for a, b in zip(bounds[first:stop], bounds[first + 1:stop + 1])]


def _chain_of(near: np.ndarray, empty: np.ndarray, n_black: int, n_blocks: int) -> np.ndarray:
    """Chain id of each block, chains numbered in the order of their first block: the connected
    components of the graph of blocks sharing a liberty, by union-find over the blocks of one
    colour around each empty point. ``near``: the block labels around each point (black's first,
    up to ``n_black``); ``empty``: the empty points."""
    labels = near[:, empty]
    labels.sort(axis=0)
    a, b = labels[:-1], labels[1:]
    # consecutive distinct labels of one colour around a point: a shared liberty
    link = (a > 0) & (a != b) & ((a <= n_black) == (b <= n_black))
    root = list(range(n_blocks + 1))  # by label; a component's root is its lowest label

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for x, y in zip(a[link].tolist(), b[link].tolist()):
        rx, ry = find(x), find(y)
        root[max(rx, ry)] = min(rx, ry)
    head = np.array([find(x) for x in range(1, n_blocks + 1)], dtype=np.intp) - 1  # first block of each chain
    return ((head == np.arange(n_blocks)).cumsum() - 1)[head]


def analyze(grid: np.ndarray) -> Topology:
    """Split a (size, size) array of colours into blocks, chains, empty regions and CERs.

    One ``label`` call over a stack of masks (black, white, empty, not black, not white)
    gives every object a label in one numbering: blocks (black first, as ``label_blocks``), empty
    regions, CERs enclosed by Black, CERs enclosed by White. Adjacencies come from the block labels
    around each point, the points of every object from one stable sort of the labels.
    """
    grid = np.asarray(grid, dtype=np.int8)
    size = grid.shape[0]
    h, w = grid.shape
    hw = h * w
    masks = np.empty((5, h, w), dtype=bool)
    np.equal(grid, BLACK, out=masks[0])
    np.equal(grid, WHITE, out=masks[1])
    np.equal(grid, EMPTY, out=masks[2])
    np.logical_not(masks[0], out=masks[3])
    np.logical_not(masks[1], out=masks[4])
    labels, total = label(masks, STACK)
    flat = labels.reshape(5, hw)
    # last label of black blocks, of all blocks, of regions, of CERs enclosed by Black
    n_black, n_blocks, r_end, b_end, _ = np.maximum.accumulate(flat.max(axis=1)).tolist()
    n_regions = r_end - n_blocks
    black = masks[0].reshape(hw)
    empty = masks[2].reshape(hw)
    block_of = labels[0] + labels[1]
    block_flat = block_of.reshape(hw)

    near = around(block_of)  # the block labels around each point, (4, hw), 0 for none or off the board
    touch = near > 0
    near_black = touch & (near <= n_black)
    libs = touch & empty

    # (object, block) pairs in the one numbering: a block and an opponent block next to it, an empty
    # region and a block next to it, a CER enclosed by c and a c block next to it (a point that is
    # not c next to a c block lies in one of the CERs enclosed by c)
    in_cer = np.where(near_black, flat[3], flat[4])
    opponent = touch & ~empty & (near != block_flat)
    boundary = touch & (in_cer > 0)
    lib_points = nonzero2(libs)[1]  # the point of each (direction, point) pair in ``libs``
    lib_blocks = near[libs]
    region_rows = flat[2][lib_points]
    cer_rows, cer_blocks = in_cer[boundary], near[boundary]
    adjacent, adjacent_bounds = _incidence(
        np.concatenate([block_flat[nonzero2(opponent)[1]], region_rows, cer_rows]),
        np.concatenate([near[opponent], lib_blocks, cer_blocks]), total + 1, n_blocks + 1)
    adjacent = (adjacent - 1).tolist()
    # and (block, object): the regions and the CERs of its colour around each block
    block_regions, block_regions_bounds = _incidence(lib_blocks, region_rows - (n_blocks + 1),
                                                     n_blocks + 1, n_regions)
    cer_local = cer_rows - np.where(cer_rows > b_end, b_end + 1, r_end + 1)
    block_cers, block_cers_bounds = _incidence(cer_blocks, cer_local, n_blocks + 1, max(total - r_end, 1))

    chain_of = _chain_of(near, empty, n_black, n_blocks)
    n_chains = int(chain_of.max()) + 1 if n_blocks else 0

    # the opponent's CER around each block
    enclosing = np.zeros(n_blocks + 1, dtype=np.int64)
    enclosing[block_flat] = np.where(black, flat[4], flat[3])
    enclosing = enclosing[1:]

    # points of every object by one stable sort of its label: key 1..total as above, then
    # total + label for the empty points of a CER, then 2 * total + 1 + chain for chains
    n_keys = 2 * total + n_chains + 1
    keys = np.zeros((8, hw), dtype=np.int16 if n_keys < 2 ** 15 else np.int32)
    keys[:5] = flat
    keys[5:7] = np.where(empty, flat[3:5] + total, 0)
    keys[7] = np.concatenate([[0], chain_of + (2 * total + 1)])[block_flat]
    keys = keys.reshape(-1)
    order = keys.argsort(kind="stable") % hw
    bounds = np.bincount(keys, minlength=n_keys).cumsum().tolist()
    points = [order[a:b] for a, b in zip(bounds, bounds[1:])]  # points[k - 1]: of key k

    # liberties: rows 1..n_blocks for blocks, then one per chain
    lib_rows = np.concatenate([lib_blocks, chain_of[lib_blocks - 1] + (n_blocks + 1)])
    liberties, lib_bounds = _incidence(lib_rows, np.concatenate([lib_points, lib_points]),
                                       n_blocks + n_chains + 1, hw)

    colors = [BLACK] * n_black + [WHITE] * (n_blocks - n_black)
    colors_black = np.arange(n_blocks) < n_black
    blocks = list(map(Block, range(n_blocks), colors, points[:n_blocks],
                      _split(liberties, lib_bounds, 1, n_blocks + 1),
                      _split(adjacent, adjacent_bounds, 1, n_blocks + 1),
                      _split(block_regions.tolist(), block_regions_bounds, 1, n_blocks + 1),
                      chain_of.tolist(), (enclosing - np.where(colors_black, b_end + 1, r_end + 1)).tolist(),
                      _split(block_cers.tolist(), block_cers_bounds, 1, n_blocks + 1)))

    region_blocks = _split(adjacent, adjacent_bounds, n_blocks + 1, r_end + 1)
    # blocks are in id order, black ones first
    borders = [_BORDERS[(bool(bs) and bs[0] < n_black) + 2 * (bool(bs) and bs[-1] >= n_black)]
               for bs in region_blocks]
    regions = list(map(Region, range(n_regions), points[n_blocks:r_end], region_blocks, borders))

    members = chain_of.argsort(kind="stable").tolist()
    member_bounds = [0, *np.bincount(chain_of, minlength=n_chains).cumsum().tolist()]
    chain_blocks = _split(members, member_bounds, 0, n_chains)
    chains = list(map(Chain, range(n_chains), [colors[m[0]] for m in chain_blocks], chain_blocks,
                      points[2 * total:2 * total + n_chains],
                      _split(liberties, lib_bounds, n_blocks + 1, n_blocks + n_chains + 1)))

    inside = enclosing.argsort(kind="stable").tolist()
    inside_bounds = [0, *np.bincount(enclosing, minlength=total + 1).cumsum().tolist()]
    cer_of, cers = {}, {}
    for color, first, last, offset in ((BLACK, r_end, b_end, 3), (WHITE, b_end, total, 4)):
        cer_of[color] = np.where(labels[offset] > 0, labels[offset] - first, 0)
        cers[color] = list(map(CER, range(last - first), [color] * (last - first), points[first:last],
                               points[total + first:total + last],
                               _split(adjacent, adjacent_bounds, first + 1, last + 1),
                               _split(inside, inside_bounds, first + 1, last + 1)))
    region_of = np.where(labels[2] > 0, labels[2] - n_blocks, 0)
    return Topology(size, grid, block_of, blocks, region_of, regions, chains, cer_of, cers)
