"""Blocks, chains, empty regions and colour-enclosed regions (CERs) of a position.

Everything is computed with whole-array operations (``scipy.ndimage.label`` and shifted
comparisons); per-object lists are built once from sorted index arrays. Points are grid
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
from functools import cache

import numpy as np
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from seog.features.coords import BLACK, EMPTY, WHITE

FOUR = ndimage.generate_binary_structure(2, 1)


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


def adjacent_pairs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Unique (label in a, label in b) pairs of 4-adjacent points, both labels non-zero, sorted."""
    xs, ys = [], []
    for x, y in ((a[:, :-1], b[:, 1:]), (a[:, 1:], b[:, :-1]), (a[:-1, :], b[1:, :]), (a[1:, :], b[:-1, :])):
        keep = (x > 0) & (y > 0)
        xs.append(x[keep])
        ys.append(y[keep])
    x = np.concatenate(xs).astype(np.int64)
    if len(x) == 0:
        return np.empty((0, 2), dtype=np.int64)
    y = np.concatenate(ys).astype(np.int64)
    # One integer key per pair: a 1-D unique is far cheaper than a row-wise one.
    width = int(y.max()) + 1
    keys = np.unique(x * width + y)
    return np.stack(np.divmod(keys, width), axis=1)


def adjacent_points(labels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Unique (label, grid index) pairs: points in ``mask`` 4-adjacent to a labelled point."""
    index = np.arange(labels.size).reshape(labels.shape)  # row-major, so rectangles work too
    target = np.where(mask, index + 1, 0)
    pairs = adjacent_pairs(labels, target)
    pairs[:, 1] -= 1
    return pairs


def group_by_first(pairs: np.ndarray, n: int) -> list[np.ndarray]:
    """Split sorted (key, value) pairs into a list of value arrays for keys 1..n."""
    out = [np.empty(0, dtype=np.int64) for _ in range(n)]
    if len(pairs) == 0:
        return out
    keys = pairs[:, 0]
    starts = np.searchsorted(keys, np.arange(1, n + 2))
    for k in range(n):
        out[k] = pairs[starts[k]:starts[k + 1], 1]
    return out


def points_by_label(labels: np.ndarray, n: int) -> list[np.ndarray]:
    flat = labels.ravel()
    order = np.argsort(flat, kind="stable")
    starts = np.searchsorted(flat[order], np.arange(1, n + 2))
    return [order[starts[k]:starts[k + 1]] for k in range(n)]


def label_blocks(grid: np.ndarray) -> tuple[np.ndarray, int]:
    """Label 4-connected blocks of both colours in one array (black ids first)."""
    black, nb = ndimage.label(grid == BLACK, FOUR)
    white, nw = ndimage.label(grid == WHITE, FOUR)
    labels = black + np.where(white > 0, white + nb, 0)
    return labels.astype(np.int32), nb + nw


def analyze(grid: np.ndarray) -> Topology:
    """Split a (size, size) array of colours into blocks, chains, empty regions and CERs."""
    grid = np.asarray(grid, dtype=np.int8)
    size = grid.shape[0]
    empty = grid == EMPTY

    block_of, n_blocks = label_blocks(grid)
    block_points = points_by_label(block_of, n_blocks)
    colors = [int(grid.flat[p[0]]) for p in block_points]
    liberties = group_by_first(adjacent_points(block_of, empty), n_blocks)
    blocks = [Block(i, colors[i], block_points[i], liberties[i]) for i in range(n_blocks)]

    # Opponent adjacency: adjacent stone pairs of different labels are always of different colours.
    for a, b in adjacent_pairs(block_of, block_of):
        if a != b:
            blocks[a - 1].opponents.append(int(b - 1))

    region_of, n_regions = ndimage.label(empty, FOUR)
    region_points = points_by_label(region_of, n_regions)
    region_blocks = group_by_first(adjacent_pairs(region_of, block_of), n_regions)
    regions = []
    for r in range(n_regions):
        ids = [int(b) - 1 for b in region_blocks[r]]
        regions.append(Region(r, region_points[r], ids, frozenset(colors[b] for b in ids)))
        for b in ids:
            blocks[b].regions.append(r)

    chains = _chains(grid, block_of, blocks)
    cer_of, cers = {}, {}
    for color in (BLACK, WHITE):
        cer_of[color], cers[color] = _cers(grid, color, block_of, blocks)
    return Topology(size, grid, block_of, blocks, region_of, regions, chains, cer_of, cers)


def _chains(grid: np.ndarray, block_of: np.ndarray, blocks: list[Block]) -> list[Chain]:
    """Join blocks of one colour that share a liberty (connected components of a block graph)."""
    n = len(blocks)
    if n == 0:
        return []
    padded = np.pad(block_of, 1)
    around = np.stack([padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]])
    around = around[:, grid == EMPTY]  # (4, number of empty points)
    edges = []
    for i in range(4):
        for j in range(i + 1, 4):
            a, b = around[i], around[j]
            keep = (a > 0) & (b > 0) & (a != b)
            edges.append(np.stack([a[keep], b[keep]], axis=1))
    edges = np.concatenate(edges) - 1 if edges else np.empty((0, 2), int)
    colors = np.array([b.color for b in blocks])
    edges = edges[colors[edges[:, 0]] == colors[edges[:, 1]]] if len(edges) else edges
    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    _, which = connected_components(graph, directed=False)
    chains = []
    for c in range(which.max() + 1):
        members = [int(b) for b in np.flatnonzero(which == c)]
        for b in members:
            blocks[b].chain = c
        points = np.sort(np.concatenate([blocks[b].points for b in members]))
        libs = np.unique(np.concatenate([blocks[b].liberties for b in members]))
        chains.append(Chain(c, blocks[members[0]].color, members, points, libs))
    return chains


def _cers(grid: np.ndarray, color: int, block_of: np.ndarray, blocks: list[Block]):
    """Regions enclosed by ``color``: 4-connected groups of points that are not ``color``."""
    labels, n = ndimage.label(grid != color, FOUR)
    points = points_by_label(labels, n)
    own = np.where(grid == color, block_of, 0)
    inner = np.where(grid == -color, block_of, 0)
    boundary = group_by_first(adjacent_pairs(labels, own), n)
    inside = group_by_first(np.unique(np.stack([labels[inner > 0], inner[inner > 0]], axis=1), axis=0)
                            if (inner > 0).any() else np.empty((0, 2), int), n)
    flat_grid = grid.ravel()
    cers = []
    for k in range(n):
        pts = points[k]
        cer = CER(k, color, pts, pts[flat_grid[pts] == EMPTY],
                  [int(b) - 1 for b in boundary[k]], [int(b) - 1 for b in inside[k]])
        cers.append(cer)
        for b in cer.blocks:
            blocks[b].adjacent_cers.append(k)
        for b in cer.inner_blocks:
            blocks[b].enclosing_cer = k
    return labels.astype(np.int32), cers


# ---- shape measures of point sets, many sets at once ---------------------------------------
# A *stack* is a (K, size + 2, size + 2) bool array: K point sets on the board, framed by a
# one-point border that is never in a set, so shifts need no bounds checks and the frame can
# stand for the virtual points just off the board.

EIGHT = np.ones((3, 3), dtype=bool)


@cache
def _ring(w: int) -> np.ndarray:
    """Flat offsets of the 8 neighbours of a point, row stride ``w``."""
    return np.array([dr * w + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc])


def stack(labels: np.ndarray, n: int) -> np.ndarray:
    """(n, size + 2, size + 2) stack of the sets labelled 1..n in a (size, size) label array."""
    framed = frame(labels)
    return framed[None, :, :] == np.arange(1, n + 1, dtype=framed.dtype)[:, None, None]


def frame(values: np.ndarray) -> np.ndarray:
    """A (size, size) array framed by one point of zero (False) on every side."""
    out = np.zeros((values.shape[0] + 2, values.shape[1] + 2), dtype=values.dtype)
    out[1:-1, 1:-1] = values
    return out


def dilate(sets: np.ndarray) -> np.ndarray:
    """Each set plus its 4-neighbours, by shifts of the flat stack (contiguous, so fast).

    Exact for sets off the frame; a set on the frame may also spill onto other frame points,
    never onto the board.
    """
    w = sets.shape[-1]
    flat = np.ascontiguousarray(sets).reshape(-1)
    out = flat.copy()
    for d in (1, w):
        out[d:] |= flat[:-d]
        out[:-d] |= flat[d:]
    return out.reshape(sets.shape)


def count(sets: np.ndarray) -> np.ndarray:
    """Number of points in each set of a stack."""
    if len(sets) == 0:
        return np.zeros(0, dtype=np.int64)
    return rowcount(sets.reshape(len(sets), -1))


def rowcount(rows: np.ndarray) -> np.ndarray:
    """True values in each row of a 2-D bool array (int64): a uint16 sum of the bytes, about
    twice as fast as ``count_nonzero(axis=1)`` at these sizes (rows hold fewer than 65,536)."""
    return np.add.reduce(rows.view(np.uint8), axis=1, dtype=np.uint16).astype(np.int64)


def perimeters(sets: np.ndarray) -> np.ndarray:
    """Perimeter of each set: the points 4-adjacent to it on an infinite board (its liberties if
    it stood alone there); frame points count, as each is a distinct point off the board."""
    return count(dilate(sets) & ~sets)


def _gain(flat: np.ndarray, w: int) -> np.ndarray:
    """Per point of a flat stack of framed sets (row stride ``w``), as int8: 64 on set points, plus
    the 4-neighbours in the set, minus the full 2x2 squares through the point. On a set point, minus
    65 it is n4 - squares - 1; off the set it is at most 4. Right on set points only, which never
    touch another layer since the frame is empty."""
    m = flat.view(np.int8)
    gain = m * np.int8(64)
    for d in (1, w):
        gain[d:] += m[:-d]
        gain[:-d] += m[d:]
    pairs = flat[:-1] & flat[1:]
    squares = (pairs[:-w] & pairs[w:]).view(np.int8)  # full squares, by their top-left point
    two = squares[:-1] + squares[1:]  # two[q]: squares with top-left q or q + 1
    # the four squares through p have top-left p - w - 1, p - w, p - 1 and p
    gain[w + 1:len(flat) - w - 1] -= two[:-w] + two[w:]
    return gain


def hole_free(sets: np.ndarray, sizes: np.ndarray | None = None) -> np.ndarray:
    """Which sets of a stack of 4-connected sets have no hole: their Euler number (points minus
    adjacent pairs plus full 2x2 squares) is one. ``sizes`` (points of each set) spares a count."""
    k, h, w = sets.shape
    flat = np.ascontiguousarray(sets).reshape(-1)
    terms = np.zeros((3, len(flat)), dtype=bool)  # pairs across, pairs down, squares, by first point
    np.logical_and(flat[:-1], flat[1:], out=terms[0, :-1])
    np.logical_and(flat[:-w], flat[w:], out=terms[1, :-w])
    np.logical_and(terms[0, :-w - 1], terms[0, w:-1], out=terms[2, :-w - 1])
    across, down, squares = rowcount(terms.reshape(3 * k, h * w)).reshape(3, k)
    return (count(sets) if sizes is None else sizes) - across - down + squares == 1


def _splits(sets: np.ndarray, sure=None) -> tuple[np.ndarray, np.ndarray]:
    """(layer, flat in-layer index) of every split point of a stack (see ``split_mask``).

    A candidate of a set without holes touches only the one outside background piece, so it
    splits; only sets not ``sure`` to be hole-free get their background labelled.
    """
    k_all, h, w = sets.shape
    flat = np.ascontiguousarray(sets).reshape(-1)
    gain = _gain(flat, w)
    k, p = np.divmod(np.flatnonzero(gain >= 66), h * w)  # set points with n4 - squares - 1 >= 1
    if len(k) == 0:
        return k, p
    doubt = np.ones(len(k), dtype=bool) if sure is None else ~np.asarray(sure, dtype=bool)[k]
    if not doubt.any():
        return k, p
    kd, pd = k[doubt], p[doubt]
    marked = np.bincount(kd, minlength=k_all) > 0
    layers, local = np.flatnonzero(marked), (np.cumsum(marked) - 1)[kd]
    # layers stacked as one tall image: frames of neighbouring layers may merge, which never
    # joins two background pieces of one layer
    background, _ = ndimage.label(~sets[layers].reshape(-1, w), EIGHT)
    around = background.reshape(-1)[(local * (h * w) + pd)[:, None] + _ring(w)]
    around.sort(axis=1)
    # distinct labels in each sorted ring, 0 (the set itself) not counted; a byte sum of the
    # changes is cheaper than count_nonzero(axis=1)
    changes = (around[:, 1:] != around[:, :-1]).view(np.uint8)
    distinct = np.add.reduce(changes, axis=1, dtype=np.intp) + (around[:, 0] != 0)
    keep = np.ones(len(k), dtype=bool)
    keep[doubt] = distinct <= gain[kd * (h * w) + pd] - 65
    return k[keep], p[keep]


def split_mask(sets: np.ndarray) -> np.ndarray:
    """Split points of each set: points whose removal leaves more 4-connected pieces.

    Removing p changes the Euler number (pieces minus holes) by ``n4 - squares - 1`` (n4: its
    neighbours in the set, squares: full 2x2 squares through it) and merges the m distinct
    8-connected background pieces around it (holes or the outside) into one, so the number of
    pieces grows iff ``n4 - squares - 1 >= m``. Only sets with a candidate get the background
    labelled (one ``ndimage.label`` call for all of them).
    """
    out = np.zeros_like(sets)
    if len(sets):
        k, p = _splits(sets)
        out.reshape(len(sets), -1)[k, p] = True
    return out


def split_points(sets: np.ndarray, hole_free=None) -> np.ndarray:
    """Number of split points of each set of a stack (see ``split_mask``). ``hole_free`` (one
    bool per set) marks sets known to have no hole, which spares labelling their background."""
    if len(sets) == 0:
        return np.zeros(0, dtype=np.int64)
    k, _ = _splits(sets, hole_free)
    return np.bincount(k, minlength=len(sets))
