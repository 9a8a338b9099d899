"""The SEOG feature vector: every block of a final position as a row of numbers.

``FEATURES`` is the registry (name, one-sentence definition, sets) in a fixed order; ``SET_B`` is
all of it, ``SET_A`` the 33 most relevant (chosen on the training archive, see docs/features.md);
``DYNAMIC`` names the 7 statuses a cascade net after the first also sees.

``extract`` computes the whole table for *all* blocks at once with array operations on stacks
of point sets (one framed board per set, flattened), caches it on the topology, and returns the rows
and columns asked for; so the feature cache and the classifier can ask for any block, settled or
not, at no extra cost. ``related_array`` (and ``related``, its lists) is built from the same table.

Words used below: *weakest* opponent block = fewest liberties, then fewest stones; *strongest* =
most liberties, then most stones; equal ones go by more liberties shared with the block, then by
the rest of what the pick hands on, and by id only when all of that is equal (so that a turned
board, numbering its blocks otherwise, gets the same features). A *friendly neighbour* of
a block is another block of its colour that borders one of the same empty regions or touches
one of the same opponent blocks (chain partners included).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from seog.features.arrays import FOUR, dilate, frame, label, nonzero2, rowcount
from seog.features.coords import BLACK, WHITE
from seog.features.influence import framed_influence_and_territory
from seog.features.scaling import Scaler  # noqa: F401  (re-exported: fitted on SET_A/SET_B rows)
from seog.features.shapes import hole_free, split_points
from seog.features.topology import Topology


@dataclass(frozen=True)
class Feature:
    """One input of the classifier: its ``name``, a one-sentence ``definition`` and its ``sets`` ("AB" or "B")."""

    name: str
    definition: str
    sets: str


_NEIGHBOUR = [
    ("size", "stones of {who}"),
    ("perimeter", "perimeter of {who} (its liberties alone on an infinite board)"),
    ("liberties", "liberties of {who}"),
    ("shared_liberties", "liberties {who} shares with {with_}"),
    ("atari_liberties", "liberties of {who} where a legal opponent move leaves it in atari"),
    ("chain_connections", "liberties of {who} shared with another block of its own chain"),
    ("eye_num", "eyes adjacent to {who}"),
    ("eye_sum_size", "total points of the eyes adjacent to {who}"),
    ("eye_sum_perimeter", "total perimeter of the eyes adjacent to {who}"),
    ("eye_sum_split_points", "total split points of the eyes adjacent to {who}"),
]

_NEIGHBOURS = [
    ("weak1", "the weakest adjacent opponent block", "the block"),
    ("weak2", "the second weakest adjacent opponent block", "the block"),
    ("weak_lib", "the weakest opponent block sharing a liberty with the block's chain", "the block's chain"),
    ("friend", "the strongest friendly neighbour", "the block"),
]

_OPP_CHAIN = [
    ("size", "stones of the chain of the weakest adjacent opponent block"),
    ("perimeter", "perimeter of that opponent chain's stones"),
    ("eye_num", "eyes adjacent to that opponent chain"),
    ("eye_sum_size", "total points of that opponent chain's eyes"),
    ("eye_sum_perimeter", "total perimeter of that opponent chain's eyes"),
    ("eye_sum_split_points", "total split points of that opponent chain's eyes"),
    ("split_liberties", "liberties shared by two or more blocks of that opponent chain"),
]

_STATIC = [
    # the block
    ("size", "Number of stones in the block."),
    ("perimeter", "Liberties the block would have standing alone on an infinite board."),
    ("liberties_1", "Liberties of the block."),
    ("liberties_2", "Empty points next to a rank-1 liberty that are not rank-1 liberties."),
    ("liberties_3", "Empty points next to a rank-2 liberty that are not of rank 1 or 2."),
    ("protected_liberties", "Liberties where an opponent stone would have at most one liberty and capture nothing."),
    ("chain_connections", "Liberties of the block shared with another block of its chain."),
    ("opp_blocks_num", "Adjacent opponent blocks."),
    ("local_majority", "Own minus opponent stones within Manhattan distance 2 of the block, the block excluded."),
    ("cm_x", "Distance from the block's centre of mass to the nearest left/right edge."),
    ("cm_y", "Distance from the block's centre of mass to the nearest top/bottom edge."),
    ("bb_square", "Area of the block's bounding box."),
    # adjacent eyes
    ("eye_num", "Eyes (stone-free regions enclosed by the block's colour) adjacent to the block."),
    ("eye_sum_size", "Total points of the block's adjacent eyes."),
    ("eye_sum_perimeter", "Total perimeter of the block's adjacent eyes."),
    ("eye_sum_split_points", "Total split points (points whose filling cuts the eye in two) of the adjacent eyes."),
    # partially accessible CERs
    ("pacer_sum_acc_size", "Liberties of the block inside adjacent own-enclosed regions that hold opponent stones."),
    ("pacer_sum_acc_perimeter", "Total perimeter of those accessible points, region by region."),
    ("pacer_sum_int_size", "Points of those regions that are not the block's liberties."),
    ("pacer_sum_int_perimeter", "Total perimeter of those inner points, region by region."),
    ("pacer_sum_int_split_points", "Total split points of those inner point sets."),
    ("pacer_average_power", "Mean influence (Zobrist 5/10, for the block's colour) over the empty points of those regions."),
    # the region the block sits in
    ("opp_cer_size", "Points of the opponent-enclosed region holding the block."),
    ("opp_cer_perimeter", "Perimeter of the opponent-enclosed region holding the block."),
    # the chain
    ("chain_blocks_num", "Blocks in the block's chain."),
    ("chain_size", "Stones of the chain."),
    ("chain_perimeter", "Perimeter of the chain's stones."),
    ("chain_liberties", "Liberties of the chain (shared ones counted once)."),
    ("chain_adj_cer_num", "Regions enclosed by the chain's colour adjacent to the chain."),
    ("chain_eye_num", "Eyes adjacent to the chain."),
    ("chain_eye_sum_size", "Total points of the chain's eyes."),
    ("chain_eye_sum_perimeter", "Total perimeter of the chain's eyes."),
    ("chain_eye_sum_split_points", "Total split points of the chain's eyes."),
    ("chain_ext_opp_liberties", "Chain liberties that are also liberties of an opponent block."),
    ("chain_split_liberties", "Chain liberties shared by two or more of its blocks."),
    ("chain_estimated_adj_terr", "Empty points of the territory (Zobrist 5/21 map) of the chain's colour touching the chain."),
    ("chain_pacer5_num", "Partially accessible regions of at most 5 points adjacent to the chain."),
    ("chain_pacer5_ave_power", "Mean influence (for the chain's colour) over the empty points of those regions of at most 5 points."),
    ("chain_pacer9_num", "Partially accessible regions of at most 9 points adjacent to the chain."),
    ("chain_pacer9_ave_power", "Mean influence (for the chain's colour) over the empty points of those regions of at most 9 points."),
]

_TERR = [
    ("terr_direct_liberties", "Liberties of the block inside its adjacent territory (Zobrist 5/21 map, its colour)."),
    ("terr_all_friend_liberties", "Points of that territory that are liberties of some friendly block."),
    ("terr_all_opp_liberties", "Points of that territory that are liberties of some opponent block."),
]


def _registry() -> list[tuple[str, str]]:
    rows = list(_STATIC)
    for prefix, who, with_ in _NEIGHBOURS:
        for suffix, text in _NEIGHBOUR:
            sentence = text.format(who=who, with_=with_)
            rows.append((f"{prefix}_{suffix}", sentence[0].upper() + sentence[1:] + " (0 if none)."))
    for suffix, text in _OPP_CHAIN:
        rows.append((f"opp_chain_{suffix}", text[0].upper() + text[1:] + " (0 if none)."))
    rows.extend(_TERR)
    return rows


# The 33 most relevant features on the training archive, best first: mean rank of mutual information and
# random-forest permutation importance over 13,974 unsettled blocks of 400 games (tools/feature_relevance.py;
# the table is in docs/features.md). SET_A below is re-sorted into registry order.
SET_A: list[str] = [
    "chain_estimated_adj_terr", "chain_adj_cer_num", "pacer_average_power", "chain_size",
    "terr_all_friend_liberties", "chain_perimeter", "chain_eye_sum_perimeter",
    "terr_direct_liberties", "chain_eye_sum_size", "chain_liberties", "chain_eye_num",
    "opp_cer_size", "chain_eye_sum_split_points", "pacer_sum_int_size", "opp_cer_perimeter",
    "chain_blocks_num", "pacer_sum_int_split_points", "pacer_sum_int_perimeter",
    "weak_lib_chain_connections", "protected_liberties", "eye_sum_perimeter",
    "opp_chain_perimeter", "opp_chain_size", "chain_split_liberties", "eye_sum_split_points",
    "weak1_liberties", "bb_square", "chain_ext_opp_liberties", "weak_lib_eye_sum_size",
    "liberties_1", "weak_lib_eye_num", "perimeter", "weak1_eye_sum_perimeter",
]

FEATURES: list[Feature] = [Feature(name, text, "AB" if name in SET_A else "B") for name, text in _registry()]
SET_B: list[str] = [f.name for f in FEATURES]
INDEX = {name: i for i, name in enumerate(SET_B)}
assert len(SET_A) == 33 and set(SET_A) <= set(SET_B), "SET_A must be 33 names of the registry"
SET_A = [name for name in SET_B if name in SET_A]  # registry order

# How ties between equal neighbours are broken (``compute``): "features" (by what the pick hands
# on, then id); a feature cache without this entry picks by "ids" (the lowest block id), which a
# turned board renumbers.
PICKS = "features"
DYNAMIC: list[str] = ["p_self", "p_chain", "p_weak1", "p_weak2", "p_opp_chain", "p_weak_lib", "p_friend"]


class FeatureError(ValueError):
    """A feature name or block id that the extractor does not know."""


# ---- the public calls ----------------------------------------------------------------------

def extract(topology: Topology, block_ids, names=SET_B, power: np.ndarray | None = None) -> np.ndarray:
    """Rows of features (float64, ``len(block_ids) x len(names)``) for the given block ids.

    ``power`` replaces the Zobrist influence map behind the ``*_power`` features (e.g. a
    ``status_influence`` map from an earlier cascade net); the default table is cached.
    """
    cols = _columns(names)
    ids = _ids(topology, block_ids)
    return _table(topology, power).values[np.ix_(ids, cols)]


def related(topology: Topology, block_ids) -> list[list[list[int]]]:
    """For each block, 7 lists of block ids whose statuses feed the dynamic features (``DYNAMIC`` order):
    itself; the other blocks of its chain; weakest adjacent opponent #1; #2; the opponent chain of #1;
    the weakest opponent block sharing a liberty with its chain; its strongest friendly neighbour.
    (``related_array`` without its padding: one source for the cascade and the feature cache.)"""
    return [[[b for b in slot if b >= 0] for slot in slots] for slots in related_array(topology, block_ids).tolist()]


def related_array(topology: Topology, block_ids) -> np.ndarray:
    """``related`` as one ``(n, 7, K)`` int64 array padded with -1, K the longest list (at least 1),
    built with array operations: what the cascade's later nets read."""
    ids = _ids(topology, block_ids)
    if len(ids) == 0:
        return np.full((0, len(DYNAMIC), 1), -1, dtype=np.int64)
    picks = _table(topology, None).picks
    chain_of = picks[:, 0]
    nb = len(chain_of)
    # every chain's blocks in id order, padded with -1 (a column more than the longest)
    sizes = np.bincount(chain_of)
    order = chain_of.argsort(kind="stable")
    place = np.empty(nb, dtype=np.intp)  # each block's place in its chain
    place[order] = np.arange(nb) - (sizes.cumsum() - sizes)[chain_of[order]]
    members = np.full((len(sizes), sizes.max() + 1), -1, dtype=np.int64)
    members[chain_of, place] = np.arange(nb)
    w1 = picks[ids, 1]
    own_chain, opp_chain = chain_of[ids], chain_of[w1]
    has_opp = w1 >= 0
    k = max(1, int(sizes[own_chain].max()) - 1, int(sizes[opp_chain[has_opp]].max(initial=0)))
    # the other blocks of its chain: its chain's row with the block taken out
    own = members[own_chain]
    others = np.where(np.arange(own.shape[1] - 1) < place[ids, None], own[:, :-1], own[:, 1:])
    opp = members[opp_chain]
    opp[~has_opp] = -1
    out = np.full((len(ids), len(DYNAMIC), k), -1, dtype=np.int64)
    out[:, 0, 0] = ids
    out[:, 1] = others[:, :k]
    out[:, [2, 3, 5, 6], 0] = picks[ids, 1:]  # -1 (none) reads as padding
    out[:, 4] = opp[:, :k]
    return out


def dynamic(p_alive, related_lists) -> np.ndarray:
    """(n, 7) mean predicted p_alive over each slot of ``related`` (0.5 for an empty slot).

    ``p_alive`` holds one probability per block id of the position (settled blocks included).
    """
    p = np.asarray(p_alive, dtype=np.float64)
    out = np.full((len(related_lists), len(DYNAMIC)), 0.5)
    for i, slots in enumerate(related_lists):
        for j, members in enumerate(slots):
            if len(members):
                out[i, j] = p[members].mean()
    return out


def _columns(names) -> np.ndarray:
    try:
        return np.fromiter((INDEX[n] for n in names), dtype=np.intp)
    except KeyError as err:
        raise FeatureError(f"unknown feature {err.args[0]!r}") from None


def _ids(topology: Topology, block_ids) -> np.ndarray:
    """Block ids (any iterable) as an array, checked; an array is not listed first (its items
    one by one cost 10 us for the cascade's few dozen)."""
    ids = np.asarray(block_ids if isinstance(block_ids, np.ndarray) else list(block_ids), dtype=np.intp).reshape(-1)
    if len(ids) and (ids.min() < 0 or ids.max() >= len(topology.blocks)):
        raise FeatureError(f"block id out of range 0..{len(topology.blocks) - 1}")
    return ids


@dataclass
class Table:
    """Every feature of every block of one position (``values``) and what ``related_array``
    needs: the blocks of each chain (``chains``) and, per block, ``picks``: its chain, weakest
    adjacent opponents #1 and #2, weakest opponent sharing a liberty with its chain and strongest
    friendly neighbour (-1 when none)."""

    values: np.ndarray
    chains: list
    picks: np.ndarray


def _table(topology: Topology, power) -> Table:
    if power is not None:
        return compute(topology, power)
    table = topology.cache.get("features")
    if table is None:
        table = topology.cache["features"] = compute(topology)
    return table


# 4-connectivity within each plane of a stack of planes, none across them (one label call for both colours)
FOUR_IN_PLANE = np.stack([np.zeros_like(FOUR), FOUR, np.zeros_like(FOUR)])
SIGNS = np.array([[BLACK], [WHITE]])  # a sign map compared with these: one plane per colour

# ---- the computation -------------------------------------------------------------------------
# Points are framed flat indices (row stride size + 2, the board with a one-point frame); sets of
# points are rows of bool arrays. Relations between blocks and labelled objects are counted by one
# bincount over (block, point) pairs read through a stack of label maps, each map with its own
# range of columns (its label 0 a column of its own, ignored); the maps a block reads may depend on
# its colour (the regions enclosed by its colour, its colour's territories). Only small tables are
# multiplied, in float (exact for these counts). Per-call overhead, not data size, dominates: the
# code aims at few array operations.


@cache
def _layout(w: int) -> tuple[np.ndarray, np.ndarray]:
    """For a row stride ``w``: flat offsets of a point and its 4 neighbours, and the on-board mask."""
    on_board = np.zeros((w, w), dtype=bool)
    on_board[1:-1, 1:-1] = True
    return np.array([0, -1, 1, -w, w]), on_board.ravel()


def _grow(sets: np.ndarray, w: int) -> np.ndarray:
    """``dilate`` for rows of flat framed sets."""
    return dilate(sets.reshape(len(sets), w, w)).reshape(len(sets), -1)


def _move_maps(empty: np.ndarray, block_lab: np.ndarray, lk: np.ndarray, lp: np.ndarray, libs: np.ndarray,
               colors: np.ndarray, w: int) -> np.ndarray:
    """(2, 2, points) flat bool masks over framed points, indexed [colour (BLACK, WHITE), kind]:
    empty points where a stone of that colour would have <= 1 (kind 0, self-atari) or no (kind 1,
    suicide) liberties without capturing anything. ``lk``, ``lp``: the (block, liberty) pairs."""
    points = empty.nonzero()[0]
    around = points[:, None] + _layout(w)[0][1:]
    nb_lab = block_lab[around]  # (E, 4); 0: empty or frame
    nb_empty = empty[around]
    # a neighbour rules a move out if it is an own block of 3+ liberties (2 are left) or an opponent
    # block in atari (a capture): looked up by (colour, min(liberties, 3)), label 0 never does
    kind = np.concatenate([[4], (colors + 1) * 4 + np.minimum(libs, 3)])
    nb_kind = kind[nb_lab]
    rules_out = _RULES_OUT[nb_kind + _BY_COLOUR]  # (2, E, 4) bytes, so 4 neighbours read as one uint32
    # at most one empty neighbour: the 4 bytes as a uint32 have at most one bit set
    one = nb_empty.view(np.uint32)[:, 0]
    cand = (rules_out.view(np.uint32)[..., 0] == 0) & ((one & (one - 1)) == 0)[None, :]
    ci, e = nonzero2(cand)
    n_after = _liberties_after(points[e], ci, nb_kind[e], nb_lab[e], nb_empty[e], around[e], lk, lp, len(libs))
    maps = np.zeros((2, 2, len(empty)), dtype=bool)
    maps[ci, 0, points[e]] = n_after <= 1
    maps[ci, 1, points[e]] = n_after == 0
    return maps


def _liberties_after(points, ci, nb_kind, nb_lab, nb_empty, around, lk, lp, nb) -> np.ndarray:
    """Liberties of a stone of colour ``SIGNS[ci]`` put on each point (no capture): its empty
    neighbours and, of each own neighbour with 2 liberties, the other one (the sum of its two minus
    this point; one with 1 liberty has none left), each counted once."""
    none = _NONE  # pads, and sorts last
    lib_sum = np.bincount(lk + 1, lp, minlength=nb + 1).astype(np.intp)  # by block label
    after = np.empty((len(points), 8), dtype=np.intp)
    after[:, :4] = np.where(nb_kind == _OWN_TWO[ci], lib_sum[nb_lab] - points[:, None], none)
    after[:, 4:] = np.where(nb_empty, around, none)
    after.sort(axis=1)
    return 1 + (after[:, 1:] != after[:, :-1]).sum(axis=1) - (after[:, -1] == none)


def _rules_out() -> np.ndarray:
    """Flat [colour to move (BLACK, WHITE), (neighbour colour + 1) * 4 + min(its liberties, 3)]."""
    col, lib = np.divmod(np.arange(12), 4)
    col -= 1
    return np.concatenate([((col == c) & (lib == 3)) | ((col == -c) & (lib == 1)) for c in (BLACK, WHITE)])


_RULES_OUT, _BY_COLOUR = _rules_out(), np.array([0, 12])[:, None, None]
_OWN_TWO = (SIGNS + 1) * 4 + 2  # per colour, the kind of an own block with 2 liberties
_NONE = 2 ** 62  # above every ranking key


def _pick(mask: np.ndarray, key: np.ndarray, k: int) -> np.ndarray:
    """Per row of a (B, B) mask, the ids of the k columns of lowest ``key``, lowest first, -1 when
    fewer. Keys are unique and hold the column's id as their remainder modulo B."""
    b = mask.shape[1]
    keyed = np.where(mask, key, _NONE)
    if b < k:
        keyed = np.concatenate([keyed, np.full((len(mask), k - b), _NONE)], axis=1)
    if k == 1:
        best = np.minimum.reduce(keyed, axis=1)[:, None]
    else:
        keyed.sort(axis=1)
        best = keyed[:, :k]
    return np.where(best < _NONE, best % b, -1)


def _row_rank(rows: np.ndarray) -> np.ndarray:
    """Each row's rank in the rows sorted lexicographically, equal rows one rank (np.unique's
    inverse along axis 0, for a fraction of its time on small tables)."""
    order = np.lexsort(rows.T[::-1])
    ordered = rows[order]
    rank = np.empty(len(rows), dtype=np.int64)
    rank[order] = np.concatenate([[0], np.cumsum((ordered[1:] != ordered[:-1]).any(axis=1))])
    return rank


def _pair_key(first: np.ndarray, shared: np.ndarray, then: np.ndarray) -> np.ndarray:
    """``_pick``'s (B, B) keys: column o ranked by ``first[o]``, then by more ``shared[b, o]``, then
    by ``then[o]``, then by id (the remainder modulo B)."""
    b = len(first)
    most = int(shared.max(initial=0))
    return (((first[None, :] * (most + 1) + most - shared) * b + then[None, :]) * b + np.arange(b)).astype(np.int64)


def _side_by_side(columns: list, rows: int) -> np.ndarray:
    """Columns and blocks of columns joined into one float64 table (cheaper than column_stack)."""
    return np.concatenate([c.reshape(rows, -1) for c in columns], axis=1, dtype=np.float64)


# columns of the chain table (see ``compute``) that describe the weakest opponent's chain
_OPP_CHAIN_COLUMNS = [1, 2, 5, 6, 7, 8, 10]
# the label planes (see ``compute``) read from a block's dilation and from its liberties
_AROUND, _INSIDE = np.arange(4)[:, None, None], np.arange(2, 5)[:, None]
_PACER_LIMITS = np.array([5, 9])[:, None, None]


def compute(topology: Topology, power: np.ndarray | None = None) -> Table:
    """Every feature of every block (registry order) and what ``related`` needs, by array operations."""
    blocks = topology.blocks
    nb = len(blocks)
    if nb == 0:
        return Table(np.zeros((0, len(SET_B))), [], np.zeros((0, 5), dtype=np.intp))
    n = topology.size
    w = n + 2
    npts = w * w
    offsets, on_board = _layout(w)
    chain_of = np.array([b.chain for b in blocks])
    ids = np.arange(nb)
    n_chains, n_regions = len(topology.chains), len(topology.regions)
    k_black = len(topology.cers[BLACK])
    n_cers = k_black + len(topology.cers[WHITE])
    grid = frame(np.asarray(topology.grid, dtype=np.int8)).ravel()
    empty = (grid == 0) & on_board
    block_lab = frame(topology.block_of).ravel()
    infl, terr = framed_influence_and_territory(topology.grid)  # framed and flat, like the stacks' rows
    if power is not None:
        infl = frame(np.asarray(power, dtype=np.float64)).ravel()
    # both colours' territories in one labelling of two planes: black's labels come first
    terr_of, n_terr = label((np.sign(terr) == SIGNS).reshape(2, w, w), FOUR_IN_PLANE)
    terr_of = terr_of.reshape(2, npts)
    # regions enclosed by a colour (CERs), both colours in one index space (black's first); a point
    # can lie in a CER of each colour, so each colour has its own label plane
    cer = np.zeros((2, w, w), dtype=np.intp)
    cer[0, 1:-1, 1:-1] = topology.cer_of[BLACK]
    cer[1, 1:-1, 1:-1] = topology.cer_of[WHITE]
    cer = cer.reshape(2, npts)
    cer[1] += k_black * (cer[1] > 0)

    # -- the blocks: stones, blocks dilated once (d1), liberties as (block, point) pairs
    sp = block_lab.nonzero()[0]
    sk = block_lab[sp] - 1
    sc = grid[sp]  # stone colours
    colors = np.empty(nb, dtype=np.intp)
    colors[sk] = sc
    is_white = colors == WHITE
    enclosing = np.empty(nb, dtype=np.intp)
    enclosing[sk] = cer[(sc == BLACK).view(np.int8), sp] - 1  # the other colour's CER holding the block
    around = sp + offsets[:, None]  # (5, stones): each stone and its 4 neighbours
    d1 = np.zeros((nb, npts), dtype=bool)
    d1.reshape(-1)[sk * npts + around] = True
    lib = d1 & empty
    lk, lp = nonzero2(lib)
    size = np.bincount(sk, minlength=nb)
    libs = np.bincount(lk, minlength=nb)
    perim = rowcount(d1) - size  # the stones are in d1
    # liberties of rank 2 and 3: empty points next to the rank below that are of no lower rank
    ranks = np.empty((2, nb, npts), dtype=bool)
    free = empty > lib
    np.logical_and(_grow(lib, w), free, out=ranks[0])
    free ^= ranks[0]
    np.logical_and(_grow(ranks[0], w), free, out=ranks[1])
    lib2, lib3 = rowcount(ranks.reshape(2 * nb, npts)).reshape(2, nb)
    moves = _move_maps(empty, block_lab, lk, lp, libs, colors, w)
    # per block, its liberties in the maps of the opponent's moves (index 1 for white): over the liberty pairs
    lib_white = is_white[lk]
    by_opp = moves[~lib_white * 1, :, lp]
    protected = np.bincount(lk, by_opp[:, 0], minlength=nb)
    atari_libs = np.where(libs == 2, libs - np.bincount(lk, by_opp[:, 1], minlength=nb), 0)
    # own minus opponent stones within distance 2 but off the block: the block adds its colour times its size
    majority = colors * (_grow(d1, w).astype(np.float32) @ grid.astype(np.float32)) - size
    # centres of mass from the stones (framed rows and columns, one more than on the board)
    row, col = sp // w, sp % w
    cy = np.bincount(sk, weights=row - 1, minlength=nb) / size
    cx = np.bincount(sk, weights=col - 1, minlength=nb) / size
    cm_x, cm_y = np.minimum(cx, n - 1 - cx), np.minimum(cy, n - 1 - cy)
    # a block is 4-connected, so the rows (columns) it occupies are its height (width)
    spans = np.zeros((2, nb, w), dtype=bool)
    spans[0, sk, row] = True
    spans[1, sk, col] = True
    height, width = rowcount(spans.reshape(2 * nb, w)).reshape(2, nb)

    # -- chains; blocks sharing a liberty are one chain, so per colour and point, the blocks having
    # it as a liberty are of one chain, and each colour's chain liberties form a label map
    at = lib_white * npts + lp
    lib_count = np.bincount(at, minlength=2 * npts)
    lib_any = (lib_count > 0).reshape(2, npts)
    opp_libs = lib_any[::-1].reshape(-1)  # the other colour's liberties, plane by plane
    shared = lib_count >= 2
    chain_libs = np.zeros(2 * npts, dtype=np.intp)
    chain_libs[at] = chain_of[lk] + 1
    chain_conn = np.bincount(lk, shared[at], minlength=nb)
    members = np.zeros((n_chains, nb), dtype=np.float32)  # chains x blocks, to OR block rows into chain rows
    members[chain_of, ids] = 1
    ch_blocks = np.bincount(chain_of, minlength=n_chains)
    ch_size = np.bincount(chain_of, size, minlength=n_chains)
    ch_d1 = np.zeros((n_chains, npts), dtype=bool)
    ch_d1.reshape(-1)[chain_of[sk] * npts + around] = True
    ch_perim = rowcount(ch_d1) - ch_size
    ch_libs, ch_split, ch_ext = (np.bincount(chain_libs, weights, minlength=n_chains + 1)[1:]
                                 for weights in (None, shared, opp_libs))

    # -- per CER: opponent stones and empty points (its label times 2 plus "empty"), power
    kinds = np.bincount((cer * 2 + empty).reshape(-1), minlength=2 * n_cers + 2)[2:].reshape(n_cers, 2)
    c_empty = kinds[:, 1]
    c_size = kinds[:, 0] + c_empty
    is_eye = kinds[:, 0] == 0  # no stones: only empty points
    c_color = np.ones(n_cers, dtype=np.intp)
    c_color[k_black:] = WHITE
    weights = infl * empty
    c_power = np.bincount(cer.reshape(-1), np.concatenate([weights, weights]), minlength=n_cers + 1)[1:] * c_color

    # -- what each block touches (d1) and where its liberties are, with label planes by the block's
    # colour: blocks, empty regions, CERs of its colour, territories of its colour, the other colour's
    # chain liberties; each plane's labels (its 0 too) get their own columns of the counts
    col0 = [0]
    for k in (nb, n_regions, n_cers, n_terr, n_chains):
        col0.append(col0[-1] + k + 1)
    n_cols = col0.pop()
    planes = np.empty((2, 5, npts), dtype=np.intp)
    planes[:, 0] = block_lab
    planes[:, 1] = frame(topology.region_of).ravel()
    planes[:, 2] = cer
    planes[:, 3] = terr_of
    planes[:, 4] = chain_libs.reshape(2, npts)[::-1]
    planes += np.array(col0)[:, None]
    plane_of = is_white * (5 * npts)  # per block, where its colour's planes start
    near = planes.take(plane_of[sk] + around + _AROUND * npts) + sk * n_cols
    near = np.bincount(near.ravel(), minlength=nb * n_cols).reshape(nb, n_cols)
    near[:, col0] = 0  # label 0: no object
    # ... and, for the liberties, the blocks next to them, each once (a sorted row, repeats dropped)
    lib_nbrs = block_lab[lp[:, None] + offsets[1:]]
    lib_nbrs.sort(axis=1)
    lib_nbrs[:, 1:] *= lib_nbrs[:, 1:] != lib_nbrs[:, :-1]
    row_of = lk * n_cols
    inside = np.concatenate([(planes.take(plane_of[lk] + lp + _INSIDE * npts) + row_of).ravel(),
                             (lib_nbrs + row_of[:, None]).ravel()])
    inside = np.bincount(inside, minlength=nb * n_cols).reshape(nb, n_cols)
    cers, terrs, opp_chains = (slice(c + 1, c + 1 + k) for c, k in zip(col0[2:], (n_cers, n_terr, n_chains)))
    adjacent = near[:, 1:nb + 1] > 0
    adjacent[ids, ids] = False
    own_cer = near[:, cers] > 0
    lib_in_cer = inside[:, cers]
    touch = near[:, terrs] > 0

    # -- CERs: eyes, partially accessible CERs (pacers: not eyes, holding liberties of the block)
    eyes = own_cer & is_eye
    pacer = own_cer & ~is_eye & (lib_in_cer > 0)
    pb, pk = nonzero2(pacer)
    # one stack: the CERs, then per pacer its inner part (the points that are not the block's
    # liberties), then its accessible part (the block's liberties in it); one call measures the
    # perimeters of all (points next to a set, off it: its dilation minus its points)
    m = len(pb)
    sets = np.zeros((n_cers + 2 * m, npts), dtype=bool)
    c_pts = cer.reshape(-1).nonzero()[0]
    sets[cer.reshape(-1)[c_pts] - 1, c_pts % npts] = True
    region = sets[pk]
    inner, acc = sets[n_cers:n_cers + m], sets[n_cers + m:]
    np.logical_and(lib[pb], region, out=acc)
    np.greater(region, acc, out=inner)  # region and not accessible
    acc_size = lib_in_cer[pb, pk]
    inner_size = c_size[pk] - acc_size
    perims = rowcount(_grow(sets, w)) - np.concatenate([c_size, inner_size, acc_size])
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
    eye_table = _side_by_side([np.ones(n_cers), c_size, c_perim, c_split], n_cers)  # count, points, perimeter, splits
    eye_stats = eyes.astype(np.float64) @ eye_table
    pacer_stats = [np.bincount(pb, v, minlength=nb) for v in
                   (acc_size, acc_perim, inner_size, inner_perim, inner_split)]
    pacer_pts = np.bincount(pb, c_empty[pk], minlength=nb)
    pacer_power = np.bincount(pb, c_power[pk], minlength=nb) / np.maximum(pacer_pts, 1)

    # per chain, what its blocks touch; a block's liberty in a CER makes the block touch it, so the
    # chain's pacers are its blocks' pacers
    ch_any = members @ np.concatenate([own_cer, pacer, touch], axis=1, dtype=np.float32) > 0
    chain_cer, ch_pacer, ch_touch = ch_any[:, :n_cers], ch_any[:, n_cers:2 * n_cers], ch_any[:, 2 * n_cers:]
    ch_eye_stats = (chain_cer & is_eye).astype(np.float64) @ eye_table
    # the chain's pacers of at most 5 and 9 points: how many, and the mean power over their empty points
    small = ch_pacer & (c_size <= _PACER_LIMITS)
    small_num, small_pts = rowcount(small.reshape(2 * n_chains, n_cers)).reshape(2, n_chains), np.maximum(small @ c_empty, 1)
    small_power = [(small[j] @ c_power) / small_pts[j] for j in (0, 1)]

    # -- territory (Zobrist 5/21) next to the block and its chain
    t_empty = np.bincount(terr_of[0] + terr_of[1], weights=empty, minlength=n_terr + 1)[1:]
    t_friend, t_opp = (np.bincount(terr_of.reshape(-1), v, minlength=n_terr + 1)[1:]
                       for v in (lib_any.reshape(-1), opp_libs))
    terr_direct = (touch * inside[:, terrs]).sum(axis=1)
    terr_friend, terr_opp = touch @ t_friend, touch @ t_opp
    ch_terr = ch_touch @ t_empty

    # -- surroundings: weakest = fewest liberties, then fewest stones; strongest = most liberties,
    # then most stones. Ties go to the one sharing more liberties with the block (the one it is in
    # contact with), then by the rest of what the pick hands on (the base row and the chain below),
    # and only then by id: a board turned or mirrored numbers its blocks otherwise, and an id
    # decides only between picks that give the same features
    chain_table = _side_by_side([ch_blocks, ch_size, ch_perim, ch_libs, rowcount(chain_cer), ch_eye_stats,
                                 ch_ext, ch_split, ch_terr, small_num[0], small_power[0], small_num[1],
                                 small_power[1]], n_chains)
    rest = _row_rank(_side_by_side([perim, atari_libs, chain_conn, eye_stats,
                                    chain_table[chain_of][:, _OPP_CHAIN_COLUMNS]], nb))
    weak, strong = (_row_rank(np.column_stack([sign * libs, sign * size])) for sign in (1, -1))
    shares = inside[:, opp_chains]  # shares[o, k]: liberties block o shares with chain k (k of the other colour)
    next_to = inside[:, 1:nb + 1]  # next_to[b, o]: liberties of b next to block o
    others = np.empty((4, nb), dtype=np.intp)  # weak1, weak2, weak_lib, friend
    others[:2] = _pick(adjacent, _pair_key(weak, next_to, rest), 2).T
    others[2] = _pick(shares[:, chain_of].T > 0, _pair_key(weak, shares[:, chain_of].T, rest), 1)[:, 0]
    # friendly neighbours: of one colour, touching a common block (an opponent; itself too, which only
    # links it to itself or an opponent) or a common empty region
    links = (near[:, :col0[2]] > 0).astype(np.float32)
    friends = (links @ links.T > 0) & (colors[:, None] == colors)
    friends[ids, ids] = False
    others[3] = _pick(friends, _pair_key(strong, next_to, rest), 1)[:, 0]

    # liberties shared with weak1, weak2 and the friend (-1, "none", is masked below) and with the
    # block's chain (weak_lib)
    with_others = np.empty((4, nb))
    with_others[[0, 1, 3]] = inside[ids, others[[0, 1, 3]] + 1]
    with_others[2] = shares[np.maximum(others[2], 0), chain_of]
    base = np.zeros((nb + 1, 10))  # a last row of zeros for "none"
    base[:nb] = _side_by_side([size, perim, libs, np.zeros(nb), atari_libs, chain_conn, eye_stats], nb)
    exists = others >= 0
    neighbours = base[np.where(exists, others, nb)]
    neighbours[..., 3] = np.where(exists, with_others, 0)
    opp_chain = np.where(exists[0][:, None], chain_table[chain_of[others[0]]][:, _OPP_CHAIN_COLUMNS], 0.0)

    values = _side_by_side([
        size, perim, libs, lib2, lib3, protected, chain_conn, rowcount(adjacent),
        majority, cm_x, cm_y, height * width,
        eye_stats, *pacer_stats, pacer_power,
        c_size[enclosing], c_perim[enclosing],
        chain_table[chain_of],
        neighbours.transpose(1, 0, 2), opp_chain,
        terr_direct, terr_friend, terr_opp,
    ], nb)
    assert values.shape[1] == len(SET_B)
    return Table(values, [chain.blocks for chain in topology.chains], np.vstack([chain_of, others]).T)
