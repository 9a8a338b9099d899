"""What the feature families (``features.families``) read: one position's maps and the measures of
its blocks, CERs and chains, computed once for all blocks by array operations.

``measure(topology, power)`` runs the steps ``board -> stones -> links -> cers -> chains ->
picks``, each a function with data in (the records of the steps before) and data out (its record):

- ``board``: the position as framed flat maps: colours, block and region labels, the CERs of each
  colour, the influence map behind the ``*_power`` features and the territories (``influence``);
- ``stones``: per block its stones, its dilation, its liberties, size, perimeter, and the
  protected and atari liberties (``self_atari``);
- ``links``: which liberties blocks share (per colour, the chains' liberties as a label map), and
  per block what it touches and what its liberties touch: blocks, empty regions, CERs of its
  colour, territories of its colour, the other colour's chains;
- ``cers``: per CER its size, perimeter, split points and power; per block its eyes and its
  partially accessible CERs (pacers) with their accessible and inner parts;
- ``chains``: one row of measures per chain (``CHAIN_COLUMNS``), for the block's chain and for
  the chain of its weakest opponent;
- ``picks``: the neighbours the surroundings features describe (``neighbours``).

Points are framed flat indices (row stride size + 2, the board with a one-point frame); sets of
points are rows of bool arrays. Relations between blocks and labelled objects are counted by one
bincount over (block, point) pairs read through a stack of label maps, each map with its own
range of columns (its label 0 a column of its own, ignored); the maps a block reads may depend on
its colour (the regions enclosed by its colour, its colour's territories). Only small tables are
multiplied, in float (exact for these counts). Per-call overhead, not data size, dominates: the
code aims at few array operations.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from seog.features.arrays import FOUR, dilate, frame, label, nonzero2, rowcount
from seog.features.coords import BLACK, WHITE
from seog.features.influence import framed_influence_and_territory
from seog.features.neighbours import pick, row_rank
from seog.features.self_atari import SIGNS, move_maps
from seog.features.shapes import hole_free, split_points
from seog.features.topology import Topology

# 4-connectivity within each plane of a stack of planes, none across them (one label call for both colours)
FOUR_IN_PLANE = np.stack([np.zeros_like(FOUR), FOUR, np.zeros_like(FOUR)])
# the columns of a chain's row of measures (``Chains.table``)
CHAIN_COLUMNS = ["blocks_num", "size", "perimeter", "liberties", "adj_cer_num", "eye_num", "eye_sum_size",
                 "eye_sum_perimeter", "eye_sum_split_points", "ext_opp_liberties", "split_liberties",
                 "estimated_adj_terr", "pacer5_num", "pacer5_ave_power", "pacer9_num", "pacer9_ave_power"]
# the label planes (see ``links``) read from a block's dilation and from its liberties
_AROUND, _INSIDE = np.arange(4)[:, None, None], np.arange(2, 5)[:, None]
_PACER_LIMITS = np.array([5, 9])[:, None, None]


class Board(NamedTuple):
    """The position as framed flat maps (row stride ``w``, ``npts`` points; ``offsets``: a point
    and its 4 neighbours): ``grid`` (colours), ``empty`` (empty points on the board), ``block_lab``
    and ``region_lab`` (id + 1), ``power`` (the influence map behind the ``*_power`` features),
    ``terr_of`` (2, points) (territory labels, Black's plane then White's, Black's labels first),
    ``cer`` (2, points) (CER labels, the CERs enclosed by Black then by White: index + 1, Black's
    ``k_black`` first); and the counts, and ``chain_of`` per block."""

    n: int
    w: int
    npts: int
    offsets: np.ndarray
    grid: np.ndarray
    empty: np.ndarray
    block_lab: np.ndarray
    region_lab: np.ndarray
    power: np.ndarray
    terr_of: np.ndarray
    n_terr: int
    cer: np.ndarray
    k_black: int
    n_cers: int
    nb: int
    chain_of: np.ndarray
    n_chains: int
    n_regions: int


class Stones(NamedTuple):
    """Per block: ``colors``, ``is_white``, ``enclosing`` (the other colour's CER holding it),
    ``size``, ``libs``, ``perim`` (its liberties alone on an infinite board), ``protected`` and
    ``atari`` (its protected and atari liberties); its stones as (``sk`` block, ``sp`` point)
    pairs and ``around`` (5, stones) (each stone and its neighbours); ``d1`` (blocks, points) (each
    block dilated once), ``lib`` (its liberties) and their (``lk`` block, ``lp`` point) pairs, with
    ``lib_white`` (the block is white)."""

    colors: np.ndarray
    is_white: np.ndarray
    enclosing: np.ndarray
    size: np.ndarray
    libs: np.ndarray
    perim: np.ndarray
    protected: np.ndarray
    atari: np.ndarray
    sk: np.ndarray
    sp: np.ndarray
    around: np.ndarray
    d1: np.ndarray
    lib: np.ndarray
    lk: np.ndarray
    lp: np.ndarray
    lib_white: np.ndarray


class Columns(NamedTuple):
    """Where each label plane's labels 1.. lie among the columns of ``Links.near`` / ``inside``:
    block ids + 1 (so block id b is column b + 1), empty regions, CERs, territories, chains."""

    blocks: slice
    regions: slice
    cers: slice
    territories: slice
    chains: slice


class Links(NamedTuple):
    """Shared liberties and contacts. Per colour and point (2 * points, Black's plane first):
    ``at`` (the place of each liberty pair there), ``lib_any`` (a liberty of some block of that
    colour), ``opp_libs`` (of the other colour), ``shared`` (of two blocks or more), ``chain_libs``
    (its chain + 1). Per block: ``chain_conn`` (liberties shared within its chain). ``near`` and
    ``inside`` (blocks, columns): how often each block's dilation, and its liberties with the
    blocks next to them, meet each label of the planes ``blocks | regions | CERs | territories |
    other chains`` (``columns``: the slice of each). Read off them: ``adjacent`` (blocks, blocks),
    ``own_cer``, ``lib_in_cer`` (blocks, CERs), ``touch`` (blocks, territories) and ``friends``
    (blocks, blocks)."""

    at: np.ndarray
    lib_any: np.ndarray
    opp_libs: np.ndarray
    shared: np.ndarray
    chain_libs: np.ndarray
    chain_conn: np.ndarray
    near: np.ndarray
    inside: np.ndarray
    columns: Columns
    adjacent: np.ndarray
    own_cer: np.ndarray
    lib_in_cer: np.ndarray
    touch: np.ndarray
    friends: np.ndarray


class Cers(NamedTuple):
    """Per CER: ``size``, ``empty`` (its empty points), ``is_eye`` (no stones), ``power`` (the sum
    of the power over its empty points, for its colour), ``perim``; ``eye_table`` (CERs, 4): count,
    points, perimeter and split points of each as an eye. Per block: ``eyes`` and ``pacer``
    (blocks, CERs) and ``eye_stats`` (blocks, 4), the sums of ``eye_table`` over its eyes. Per
    (``pb`` block, ``pk`` CER) pacer pair: ``acc_size``, ``acc_perim`` (the block's liberties in
    it), ``inner_size``, ``inner_perim``, ``inner_split`` (its other points)."""

    size: np.ndarray
    empty: np.ndarray
    is_eye: np.ndarray
    power: np.ndarray
    perim: np.ndarray
    eye_table: np.ndarray
    eyes: np.ndarray
    pacer: np.ndarray
    eye_stats: np.ndarray
    pb: np.ndarray
    pk: np.ndarray
    acc_size: np.ndarray
    acc_perim: np.ndarray
    inner_size: np.ndarray
    inner_perim: np.ndarray
    inner_split: np.ndarray


class Chains(NamedTuple):
    """``table`` (chains, ``CHAIN_COLUMNS``) float64, and ``rows``, its row for each block's chain."""

    table: np.ndarray
    rows: np.ndarray


class Measures(NamedTuple):
    """Everything the families read: the steps' records and ``picks`` (4, blocks): per block its
    weakest adjacent opponents #1 and #2, the weakest opponent sharing a liberty with its chain and
    its strongest friendly neighbour (-1 when none)."""

    board: Board
    stones: Stones
    links: Links
    cers: Cers
    chains: Chains
    picks: np.ndarray


def measure(topology: Topology, power: np.ndarray | None = None) -> Measures:
    """The measures of a position with at least one block; ``power`` replaces the Zobrist influence map."""
    b = board(topology, power)
    s = stones(b)
    k = links(b, s)
    c = cers(b, s, k)
    ch = chains(b, s, k, c)
    return Measures(b, s, k, c, ch, picks(b, s, k, c, ch))


def board(topology: Topology, power: np.ndarray | None) -> Board:
    """The framed maps of the position and the counts of its objects."""
    n = topology.size
    w = n + 2
    npts = w * w
    offsets, on_board = _layout(w)
    grid = frame(np.asarray(topology.grid, dtype=np.int8)).ravel()
    infl, terr = framed_influence_and_territory(topology.grid)  # framed and flat, like the stacks' rows
    if power is not None:
        infl = frame(np.asarray(power, dtype=np.float64)).ravel()
    # both colours' territories in one labelling of two planes: black's labels come first
    terr_of, n_terr = label((np.sign(terr) == SIGNS).reshape(2, w, w), FOUR_IN_PLANE)
    # regions enclosed by a colour (CERs), both colours in one index space (black's first); a point
    # can lie in a CER of each colour, so each colour has its own label plane
    k_black = len(topology.cers[BLACK])
    cer = np.zeros((2, w, w), dtype=np.intp)
    cer[0, 1:-1, 1:-1] = topology.cer_of[BLACK]
    cer[1, 1:-1, 1:-1] = topology.cer_of[WHITE]
    cer = cer.reshape(2, npts)
    cer[1] += k_black * (cer[1] > 0)
    return Board(n, w, npts, offsets, grid, (grid == 0) & on_board, frame(topology.block_of).ravel(),
                 frame(topology.region_of).ravel(), infl, terr_of.reshape(2, npts), n_terr, cer, k_black,
                 k_black + len(topology.cers[WHITE]), len(topology.blocks),
                 np.array([block.chain for block in topology.blocks]), len(topology.chains), len(topology.regions))


def stones(b: Board) -> Stones:
    """Each block's stones, dilation and liberties, and its protected and atari liberties."""
    nb, npts, grid = b.nb, b.npts, b.grid
    sp = b.block_lab.nonzero()[0]
    sk = b.block_lab[sp] - 1
    sc = grid[sp]  # stone colours
    colors = np.empty(nb, dtype=np.intp)
    colors[sk] = sc
    is_white = colors == WHITE
    enclosing = np.empty(nb, dtype=np.intp)
    enclosing[sk] = b.cer[(sc == BLACK).view(np.int8), sp] - 1  # the other colour's CER holding the block
    around = sp + b.offsets[:, None]  # (5, stones): each stone and its 4 neighbours
    d1 = np.zeros((nb, npts), dtype=bool)
    d1.reshape(-1)[sk * npts + around] = True
    lib = d1 & b.empty
    lk, lp = nonzero2(lib)
    size = np.bincount(sk, minlength=nb)
    libs = np.bincount(lk, minlength=nb)
    perim = rowcount(d1) - size  # the stones are in d1
    moves = move_maps(b.empty, b.block_lab, lk, lp, libs, colors, b.offsets[1:])
    # per block, its liberties in the maps of the opponent's moves (index 1 for white): over the liberty pairs
    lib_white = is_white[lk]
    by_opp = moves[~lib_white * 1, :, lp]
    protected = np.bincount(lk, by_opp[:, 0], minlength=nb)
    atari = np.where(libs == 2, libs - np.bincount(lk, by_opp[:, 1], minlength=nb), 0)
    return Stones(colors, is_white, enclosing, size, libs, perim, protected, atari, sk, sp, around, d1, lib, lk, lp,
                  lib_white)


def links(b: Board, s: Stones) -> Links:
    """Shared liberties, and what each block and its liberties touch.

    Blocks sharing a liberty are one chain, so per colour and point, the blocks having it as a
    liberty are of one chain, and each colour's chain liberties form a label map.
    """
    nb, npts, lk, lp = b.nb, b.npts, s.lk, s.lp
    at = s.lib_white * npts + lp
    lib_count = np.bincount(at, minlength=2 * npts)
    lib_any = (lib_count > 0).reshape(2, npts)
    opp_libs = lib_any[::-1].reshape(-1)  # the other colour's liberties, plane by plane
    shared = lib_count >= 2
    chain_libs = np.zeros(2 * npts, dtype=np.intp)
    chain_libs[at] = b.chain_of[lk] + 1
    chain_conn = np.bincount(lk, shared[at], minlength=nb)
    # label planes by the block's colour: blocks, empty regions, CERs of its colour, territories of
    # its colour, the other colour's chain liberties; each plane's labels (its 0 too) get their own
    # columns of the counts
    col0 = [0]
    for k in (nb, b.n_regions, b.n_cers, b.n_terr, b.n_chains):
        col0.append(col0[-1] + k + 1)
    n_cols = col0.pop()
    planes = np.empty((2, 5, npts), dtype=np.intp)
    planes[:, 0] = b.block_lab
    planes[:, 1] = b.region_lab
    planes[:, 2] = b.cer
    planes[:, 3] = b.terr_of
    planes[:, 4] = chain_libs.reshape(2, npts)[::-1]
    planes += np.array(col0)[:, None]
    plane_of = s.is_white * (5 * npts)  # per block, where its colour's planes start
    near = planes.take(plane_of[s.sk] + s.around + _AROUND * npts) + s.sk * n_cols
    near = np.bincount(near.ravel(), minlength=nb * n_cols).reshape(nb, n_cols)
    near[:, col0] = 0  # label 0: no object
    # ... and, for the liberties, the blocks next to them, each once (a sorted row, repeats dropped)
    lib_nbrs = b.block_lab[lp[:, None] + b.offsets[1:]]
    lib_nbrs.sort(axis=1)
    lib_nbrs[:, 1:] *= lib_nbrs[:, 1:] != lib_nbrs[:, :-1]
    row_of = lk * n_cols
    inside = np.concatenate([(planes.take(plane_of[lk] + lp + _INSIDE * npts) + row_of).ravel(),
                             (lib_nbrs + row_of[:, None]).ravel()])
    inside = np.bincount(inside, minlength=nb * n_cols).reshape(nb, n_cols)
    columns = Columns(*(slice(c + 1, c + 1 + k) for c, k in zip(col0, (nb, b.n_regions, b.n_cers, b.n_terr,
                                                                          b.n_chains))))
    ids = np.arange(nb)
    adjacent = near[:, 1:nb + 1] > 0
    adjacent[ids, ids] = False
    # friendly neighbours: of one colour, touching a common block (an opponent; itself too, which only
    # links it to itself or an opponent) or a common empty region
    touching = (near[:, :col0[2]] > 0).astype(np.float32)
    friends = (touching @ touching.T > 0) & (s.colors[:, None] == s.colors)
    friends[ids, ids] = False
    return Links(at, lib_any, opp_libs, shared, chain_libs, chain_conn, near, inside, columns, adjacent,
                 near[:, columns.cers] > 0, inside[:, columns.cers], near[:, columns.territories] > 0, friends)


def cers(b: Board, s: Stones, k: Links) -> Cers:
    """The CERs' sizes, perimeters, split points and power; each block's eyes and pacers.

    The CERs, then per pacer its inner part (the points that are not the block's liberties), then
    its accessible part (the block's liberties in it), are one stack: one call measures the
    perimeters of all (points next to a set, off it: its dilation minus its points), one the split
    points of the eyes and the inner parts.
    """
    n_cers, npts, w, cer, empty = b.n_cers, b.npts, b.w, b.cer, b.empty
    # opponent stones and empty points per CER (its label times 2 plus "empty"), power
    kinds = np.bincount((cer * 2 + empty).reshape(-1), minlength=2 * n_cers + 2)[2:].reshape(n_cers, 2)
    c_empty = kinds[:, 1]
    c_size = kinds[:, 0] + c_empty
    is_eye = kinds[:, 0] == 0  # no stones: only empty points
    c_color = np.ones(n_cers, dtype=np.intp)
    c_color[b.k_black:] = WHITE
    weights = b.power * empty
    c_power = np.bincount(cer.reshape(-1), np.concatenate([weights, weights]), minlength=n_cers + 1)[1:] * c_color
    # eyes, and partially accessible CERs (pacers: not eyes, holding liberties of the block)
    eyes = k.own_cer & is_eye
    pacer = k.own_cer & ~is_eye & (k.lib_in_cer > 0)
    pb, pk = nonzero2(pacer)
    m = len(pb)
    sets = np.zeros((n_cers + 2 * m, npts), dtype=bool)
    c_pts = cer.reshape(-1).nonzero()[0]
    sets[cer.reshape(-1)[c_pts] - 1, c_pts % npts] = True
    region = sets[pk]
    inner, acc = sets[n_cers:n_cers + m], sets[n_cers + m:]
    np.logical_and(s.lib[pb], region, out=acc)
    np.greater(region, acc, out=inner)  # region and not accessible
    acc_size = k.lib_in_cer[pb, pk]
    inner_size = c_size[pk] - acc_size
    perims = rowcount(grow(sets, w)) - np.concatenate([c_size, inner_size, acc_size])
    c_perim, inner_perim, acc_perim = perims[:n_cers], perims[n_cers:n_cers + m], perims[n_cers + m:]
    # split points of the eyes and of the inner sets in one call (one background labelling; sets of
    # fewer than 3 points have none and are left out); a CER is 4-connected, so its Euler number tells
    # whether it has holes, and taking a bordering block's liberties out of a hole-free region leaves
    # it hole-free
    c_whole = hole_free(sets[:n_cers].reshape(n_cers, w, w), c_size)
    eye_ids, inner_ids = (is_eye & (c_size >= 3)).nonzero()[0], (inner_size >= 3).nonzero()[0]
    splits = split_points(np.concatenate([sets[eye_ids], inner[inner_ids]]).reshape(-1, w, w),
                          np.concatenate([c_whole[eye_ids], c_whole[pk[inner_ids]]]))
    c_split = np.zeros(n_cers, dtype=np.int64)
    c_split[eye_ids] = splits[:len(eye_ids)]
    inner_split = np.zeros(m, dtype=np.int64)
    inner_split[inner_ids] = splits[len(eye_ids):]
    eye_table = side_by_side([np.ones(n_cers), c_size, c_perim, c_split], n_cers)  # count, points, perimeter, splits
    return Cers(c_size, c_empty, is_eye, c_power, c_perim, eye_table, eyes, pacer, eyes.astype(np.float64) @ eye_table,
                pb, pk, acc_size, acc_perim, inner_size, inner_perim, inner_split)


def chains(b: Board, s: Stones, k: Links, c: Cers) -> Chains:
    """One row of ``CHAIN_COLUMNS`` per chain. A block's liberty in a CER makes the block touch it,
    so a chain's pacers are its blocks' pacers; its territory (Zobrist 5/21) is the territories
    its blocks touch."""
    n_chains, chain_of, npts = b.n_chains, b.chain_of, b.npts
    members = np.zeros((n_chains, b.nb), dtype=np.float32)  # chains x blocks, to OR block rows into chain rows
    members[chain_of, np.arange(b.nb)] = 1
    ch_blocks = np.bincount(chain_of, minlength=n_chains)
    ch_size = np.bincount(chain_of, s.size, minlength=n_chains)
    ch_d1 = np.zeros((n_chains, npts), dtype=bool)
    ch_d1.reshape(-1)[chain_of[s.sk] * npts + s.around] = True
    ch_perim = rowcount(ch_d1) - ch_size
    ch_libs, ch_split, ch_ext = (np.bincount(k.chain_libs, weights, minlength=n_chains + 1)[1:]
                                 for weights in (None, k.shared, k.opp_libs))
    n_cers = b.n_cers
    ch_any = members @ np.concatenate([k.own_cer, c.pacer, k.touch], axis=1, dtype=np.float32) > 0
    chain_cer, ch_pacer, ch_touch = ch_any[:, :n_cers], ch_any[:, n_cers:2 * n_cers], ch_any[:, 2 * n_cers:]
    ch_eye_stats = (chain_cer & c.is_eye).astype(np.float64) @ c.eye_table
    # the chain's pacers of at most 5 and 9 points: how many, and the mean power over their empty points
    small = ch_pacer & (c.size <= _PACER_LIMITS)
    small_num = rowcount(small.reshape(2 * n_chains, n_cers)).reshape(2, n_chains)
    small_pts = np.maximum(small @ c.empty, 1)
    small_power = [(small[j] @ c.power) / small_pts[j] for j in (0, 1)]
    t_empty = np.bincount(b.terr_of[0] + b.terr_of[1], weights=b.empty, minlength=b.n_terr + 1)[1:]
    table = side_by_side([ch_blocks, ch_size, ch_perim, ch_libs, rowcount(chain_cer), ch_eye_stats, ch_ext, ch_split,
                          ch_touch @ t_empty, small_num[0], small_power[0], small_num[1], small_power[1]], n_chains)
    return Chains(table, table[chain_of])


# columns of a chain's row that describe the weakest opponent's chain (``opp_chain_*``)
OPP_CHAIN_COLUMNS = [CHAIN_COLUMNS.index(name) for name in ("size", "perimeter", "eye_num", "eye_sum_size",
                                                            "eye_sum_perimeter", "eye_sum_split_points",
                                                            "split_liberties")]


def picks(b: Board, s: Stones, k: Links, c: Cers, ch: Chains) -> np.ndarray:
    """The neighbours each block's surroundings features describe (``neighbours.pick``); ties
    after liberties, size and contact go by the rest of what the pick hands on: its perimeter,
    atari liberties, chain connections, eyes and its chain's row."""
    rest = row_rank(side_by_side([s.perim, s.atari, k.chain_conn, c.eye_stats, ch.rows[:, OPP_CHAIN_COLUMNS]], b.nb))
    chain_shares = k.inside[:, k.columns.chains][:, b.chain_of].T  # [b, o]: liberties o shares with b's chain
    return pick(s.libs, s.size, rest, k.adjacent, k.inside[:, k.columns.blocks], chain_shares, k.friends)


@cache
def _layout(w: int) -> tuple[np.ndarray, np.ndarray]:
    """For a row stride ``w``: flat offsets of a point and its 4 neighbours, and the on-board mask."""
    on_board = np.zeros((w, w), dtype=bool)
    on_board[1:-1, 1:-1] = True
    return np.array([0, -1, 1, -w, w]), on_board.ravel()


def grow(sets: np.ndarray, w: int) -> np.ndarray:
    """``dilate`` for rows of flat framed sets (row stride ``w``)."""
    return dilate(sets.reshape(len(sets), w, w)).reshape(len(sets), -1)


def side_by_side(columns: list, rows: int) -> np.ndarray:
    """Columns and blocks of columns joined into one float64 table (cheaper than column_stack)."""
    return np.concatenate([c.reshape(rows, -1) for c in columns], axis=1, dtype=np.float64)
