"""Blocks, chains, empty regions and colour-enclosed regions (CERs) of a position.

``analyze`` runs the steps ``label_objects -> block_links -> region_links -> chain_links ->
cer_links -> assemble``, each a function with data in and data out (the step records below):
one ``label`` call numbers every block, empty region and CER at once; each step reads its
relations off the labels around each point, with whole-array operations (chains: a union-find
over the shared liberties); the ``Topology`` records are built last, from sorted index arrays.
Points are grid indices (``row * size + col``, see ``coords``). A ``Topology`` is frozen: nothing
changes it after ``analyze`` returns, so a table derived from it (``features.vector.table``) is
kept per topology.

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
from typing import NamedTuple

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


@dataclass(frozen=True, eq=False)
class Topology:
    """The structure of one position; see the module docstring for the vocabulary.

    ``block_of`` / ``region_of`` are (size, size) label arrays (block or region id + 1, 0 elsewhere);
    ``cer_of[c]`` labels the CERs enclosed by colour c (id + 1, 0 on c stones). Frozen, and equal
    only to itself: tables derived from a position are keyed by its topology.
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


def analyze(grid: np.ndarray) -> Topology:
    """Split a (size, size) array of colours into blocks, empty regions, chains and CERs.

    One labelling numbers every object (``label_objects``); each step then reads its objects
    off it and off the steps before, and the records are assembled last.
    """
    grid = np.asarray(grid, dtype=np.int8)
    labels = label_objects(grid)
    blocks = block_links(labels)
    regions = region_links(labels, blocks)
    chains = chain_links(labels, blocks)
    cers = cer_links(labels, blocks)
    return assemble(labels, blocks, regions, chains, cers)


# ---- the steps ---------------------------------------------------------------------------------
# Each object is a label in one numbering (``Labels``): blocks 1..n_blocks (black first), empty
# regions, CERs enclosed by Black, CERs enclosed by White. Relations are lists of sorted ids per
# object, cut from one array at ``bounds`` (``_incidence``).


class Labels(NamedTuple):
    """Every object of a position in one numbering, from one ``label`` call over a stack of masks
    (black, white, empty, not black, not white), and their points from one stable sort.

    ``flat[k]``: the labels of mask k per point (0 off it); the label ranges are ``1..n_black``
    (black blocks), ``..n_blocks`` (white blocks), ``..r_end`` (empty regions), ``..b_end`` (CERs
    enclosed by Black), ``..total`` (by White). ``points[k - 1]``: the points of label k;
    ``cer_empty[k - r_end - 1]``: the empty points of CER label k.
    """

    grid: np.ndarray
    stack: np.ndarray
    flat: np.ndarray
    black: np.ndarray
    empty: np.ndarray
    n_black: int
    n_blocks: int
    r_end: int
    b_end: int
    total: int
    points: list
    cer_empty: list


def label_objects(grid: np.ndarray) -> Labels:
    """The one numbering of every block, empty region and CER of ``grid`` (see ``Labels``)."""
    h, w = grid.shape
    hw = h * w
    masks = np.empty((5, h, w), dtype=bool)
    np.equal(grid, BLACK, out=masks[0])
    np.equal(grid, WHITE, out=masks[1])
    np.equal(grid, EMPTY, out=masks[2])
    np.logical_not(masks[0], out=masks[3])
    np.logical_not(masks[1], out=masks[4])
    stack, total = label(masks, STACK)
    flat = stack.reshape(5, hw)
    # last label of black blocks, of all blocks, of regions, of CERs enclosed by Black
    n_black, n_blocks, r_end, b_end, _ = np.maximum.accumulate(flat.max(axis=1)).tolist()
    black, empty = masks[0].reshape(hw), masks[2].reshape(hw)
    # key 1..total: the label; total + label: the empty points of a CER
    n_keys = 2 * total + 1
    keys = np.zeros((7, hw), dtype=np.int16 if n_keys < 2 ** 15 else np.int32)
    keys[:5] = flat
    np.add(flat[3:5], total, out=keys[5:7], where=empty)
    keys = keys.reshape(-1)
    order = keys.argsort(kind="stable") % hw
    bounds = np.bincount(keys, minlength=n_keys).cumsum().tolist()
    points = [order[a:b] for a, b in zip(bounds[:total], bounds[1:total + 1])]
    cer_empty = [order[a:b] for a, b in zip(bounds[total + r_end:], bounds[total + r_end + 1:])]
    return Labels(grid, stack, flat, black, empty, n_black, n_blocks, r_end, b_end, total, points, cer_empty)


class BlockLinks(NamedTuple):
    """Blocks: ``block_of`` (id + 1 per point, 0 elsewhere), ``near`` (the block labels around each
    point, (4, points), 0 for none or off the board), the (``lib_blocks``, ``lib_points``) pairs
    of a block label and a liberty, and per block its ``liberties`` and adjacent ``opponents``."""

    block_of: np.ndarray
    near: np.ndarray
    lib_blocks: np.ndarray
    lib_points: np.ndarray
    liberties: list
    opponents: list


def block_links(labels: Labels) -> BlockLinks:
    """Each block's liberties and adjacent opponent blocks, from the block labels around each point."""
    n_blocks, hw = labels.n_blocks, labels.flat.shape[1]
    block_of = labels.stack[0] + labels.stack[1]
    block_flat = block_of.reshape(hw)
    near = around(block_of)
    touch = near > 0
    libs = touch & labels.empty
    lib_points = nonzero2(libs)[1]  # the point of each (direction, point) pair in ``libs``
    lib_blocks = near[libs]
    opponent = touch & ~labels.empty & (near != block_flat)
    opponents, opp_bounds = _incidence(block_flat[nonzero2(opponent)[1]], near[opponent], n_blocks + 1, n_blocks + 1)
    liberties, lib_bounds = _incidence(lib_blocks, lib_points, n_blocks + 1, hw)
    return BlockLinks(block_of, near, lib_blocks, lib_points, _split(liberties, lib_bounds, 1, n_blocks + 1),
                      _split((opponents - 1).tolist(), opp_bounds, 1, n_blocks + 1))


class RegionLinks(NamedTuple):
    """Empty regions: ``region_of`` (id + 1 per point, 0 elsewhere), per region its bordering
    ``blocks`` and their colours (``borders``), and per block its adjacent ``regions``."""

    region_of: np.ndarray
    blocks: list
    borders: list
    regions: list


_BORDERS = [frozenset(), frozenset((BLACK,)), frozenset((WHITE,)), frozenset((BLACK, WHITE))]


def region_links(labels: Labels, blocks: BlockLinks) -> RegionLinks:
    """Which blocks border which empty regions: a block's liberty lies in a region it borders."""
    n_black, n_blocks = labels.n_black, labels.n_blocks
    n_regions = labels.r_end - n_blocks
    region_rows = labels.flat[2][blocks.lib_points] - (n_blocks + 1)
    (by_region, region_bounds), (by_block, block_bounds) = _both_ways(
        region_rows, blocks.lib_blocks, n_regions, n_blocks + 1)
    region_blocks = _split((by_region - 1).tolist(), region_bounds, 0, n_regions)
    # blocks are in id order, black ones first
    borders = [_BORDERS[(bool(bs) and bs[0] < n_black) + 2 * (bool(bs) and bs[-1] >= n_black)]
               for bs in region_blocks]
    region_of = np.maximum(labels.stack[2] - n_blocks, 0)  # labels of regions are above n_blocks
    return RegionLinks(region_of, region_blocks, borders, _split(by_block.tolist(), block_bounds, 1, n_blocks + 1))


class ChainLinks(NamedTuple):
    """Chains: ``chain_of`` (per block), and per chain its ``blocks`` ids, ``points`` and ``liberties``."""

    chain_of: np.ndarray
    blocks: list
    points: list
    liberties: list


def chain_links(labels: Labels, blocks: BlockLinks) -> ChainLinks:
    """Blocks of one colour joined by shared liberties, numbered in the order of their first block."""
    n_blocks, hw = labels.n_blocks, labels.flat.shape[1]
    chain_of = _chain_of(blocks.near, labels.empty, labels.n_black, n_blocks)
    n_chains = int(chain_of.max()) + 1 if n_blocks else 0
    members = chain_of.argsort(kind="stable").tolist()
    member_bounds = [0, *np.bincount(chain_of, minlength=n_chains).cumsum().tolist()]
    # the points of each chain by one stable sort of the chain + 1 of every point (0 off stones;
    # 16 bits sort by radix)
    chain_key = np.zeros(n_blocks + 1, dtype=np.int16 if n_chains < 2 ** 15 else np.int32)
    chain_key[1:] = chain_of + 1
    keys = chain_key[blocks.block_of.reshape(hw)]
    order = keys.argsort(kind="stable")
    point_bounds = np.bincount(keys, minlength=n_chains + 1).cumsum().tolist()
    liberties, lib_bounds = _incidence(chain_of[blocks.lib_blocks - 1], blocks.lib_points, n_chains, hw)
    return ChainLinks(chain_of, _split(members, member_bounds, 0, n_chains), _split(order, point_bounds, 0, n_chains),
                      _split(liberties, lib_bounds, 0, n_chains))


class CerLinks(NamedTuple):
    """CERs, indexed by colour (``cer_of[c]``: CER id + 1 per point, 0 on c stones): per CER its
    enclosing ``blocks`` and the ``inner_blocks`` inside it; per block the ``enclosing`` CER of the
    other colour and its ``adjacent`` CERs of its own colour."""

    cer_of: dict
    blocks: dict
    inner_blocks: dict
    enclosing: list
    adjacent: list


def cer_links(labels: Labels, blocks: BlockLinks) -> CerLinks:
    """Which blocks enclose which CERs and which CER holds each block.

    A point that is not c next to a c block lies in one of the CERs enclosed by c, so a CER and a
    c block next to it are read off the labels around each point.
    """
    n_black, n_blocks, r_end, b_end, total = labels.n_black, labels.n_blocks, labels.r_end, labels.b_end, labels.total
    flat, near = labels.flat, blocks.near
    touch = near > 0
    in_cer = np.where(touch & (near <= n_black), flat[3], flat[4])
    boundary = touch & (in_cer > 0)
    n_cers = total - r_end
    (by_cer, cer_bounds), (by_block, block_bounds) = _both_ways(
        in_cer[boundary] - (r_end + 1), near[boundary], max(n_cers, 1), n_blocks + 1)
    enclosing = np.zeros(n_blocks + 1, dtype=np.int64)  # the opponent's CER around each block (label)
    block_flat = blocks.block_of.reshape(-1)
    enclosing[block_flat] = np.where(labels.black, flat[4], flat[3])
    enclosing = enclosing[1:]
    inside = enclosing.argsort(kind="stable").tolist()
    inside_bounds = [0, *np.bincount(enclosing, minlength=total + 1).cumsum().tolist()]
    enclosers = _split((by_cer - 1).tolist(), cer_bounds, 0, n_cers)
    cer_of, enclosed, inner = {}, {}, {}
    for color, first, last, k in ((BLACK, r_end, b_end, 3), (WHITE, b_end, total, 4)):
        cer_of[color] = np.maximum(labels.stack[k] - first, 0)
        enclosed[color] = enclosers[first - r_end:last - r_end]
        inner[color] = _split(inside, inside_bounds, first + 1, last + 1)
    # CER ids count from 0 in each colour; ``by_block`` counts Black's CERs, then White's
    black = np.arange(n_blocks) < n_black
    own = np.where(by_block >= b_end - r_end, by_block - (b_end - r_end), by_block)
    return CerLinks(cer_of, enclosed, inner, (enclosing - np.where(black, b_end + 1, r_end + 1)).tolist(),
                    _split(own.tolist(), block_bounds, 1, n_blocks + 1))


def assemble(labels: Labels, blocks: BlockLinks, regions: RegionLinks, chains: ChainLinks,
             cers: CerLinks) -> Topology:
    """The records of every object, from the steps' data."""
    n_black, n_blocks, r_end, total = labels.n_black, labels.n_blocks, labels.r_end, labels.total
    colors = [BLACK] * n_black + [WHITE] * (n_blocks - n_black)
    points = labels.points
    block_list = list(map(Block, range(n_blocks), colors, points[:n_blocks], blocks.liberties, blocks.opponents,
                          regions.regions, chains.chain_of.tolist(), cers.enclosing, cers.adjacent))
    region_list = list(map(Region, range(r_end - n_blocks), points[n_blocks:r_end], regions.blocks, regions.borders))
    chain_list = list(map(Chain, range(len(chains.blocks)), [colors[m[0]] for m in chains.blocks], chains.blocks,
                          chains.points, chains.liberties))
    cer_lists = {}
    for color, first, last in ((BLACK, r_end, labels.b_end), (WHITE, labels.b_end, total)):
        cer_lists[color] = list(map(CER, range(last - first), [color] * (last - first), points[first:last],
                                    labels.cer_empty[first - r_end:last - r_end], cers.blocks[color],
                                    cers.inner_blocks[color]))
    return Topology(labels.grid.shape[0], labels.grid, blocks.block_of, block_list, regions.region_of, region_list,
                    chain_list, cers.cer_of, cer_lists)


def _incidence(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> tuple[np.ndarray, list]:
    """The distinct (row, col) pairs sorted, as (cols, bounds): row r's are ``cols[bounds[r]:bounds[r + 1]]``.

    A dense bool matrix does the work of ``np.unique``: the label ranges here are small.
    """
    hit = np.zeros((n_rows, n_cols), dtype=bool)
    hit[rows, cols] = True
    row, col = nonzero2(hit)
    return col, [0, *np.bincount(row, minlength=n_rows).cumsum().tolist()]


def _both_ways(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> tuple[tuple, tuple]:
    """``_incidence`` of the pairs and of the pairs turned round (cols as rows), from one matrix."""
    hit = np.zeros((n_rows, n_cols), dtype=bool)
    hit[rows, cols] = True
    row, col = nonzero2(hit)
    return ((col, [0, *np.bincount(row, minlength=n_rows).cumsum().tolist()]),
            (row[col.argsort(kind="stable")], [0, *np.bincount(col, minlength=n_cols).cumsum().tolist()]))


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
    for x, y in set(zip(a[link].tolist(), b[link].tolist())):
        while root[x] != x:
            x = root[x]
        while root[y] != y:
            y = root[y]
        if x != y:
            root[max(x, y)] = min(x, y)
    root = np.array(root)
    while True:  # every label to its root
        up = root[root]
        if (up == root).all():
            break
        root = up
    head = root[1:] - 1  # first block of each chain
    return ((head == np.arange(n_blocks)).cumsum() - 1)[head]
