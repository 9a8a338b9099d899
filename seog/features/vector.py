"""The SEOG feature vector: every block of a final position as a row of numbers.

``FEATURES`` is the registry (name, one-sentence definition, sets) in a fixed order; ``SET_B`` is
all of it, ``SET_A`` the 33 most relevant (chosen on the training archive, see docs/features.md);
``DYNAMIC`` names the 7 statuses a cascade net after the first also sees.

``extract`` computes the whole table for *all* blocks at once with array operations on stacks
of point sets (``topology.stack``), caches it on the topology, and returns the rows and
columns asked for; so the feature cache and the classifier can ask for any block, settled or
not, at no extra cost.

Words used below: *weakest* opponent block = fewest liberties, then fewest stones, then lowest
id; *strongest* = most liberties, then most stones, then lowest id. A *friendly neighbour* of
a block is another block of its colour that borders one of the same empty regions or touches
one of the same opponent blocks (chain partners included).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from seog.features.coords import BLACK, WHITE
from seog.features.influence import influence_and_territory
from seog.features.scaling import Scaler  # noqa: F401  (re-exported: fitted on SET_A/SET_B rows)
from seog.features.topology import (
    FOUR,
    Topology,
    count,
    dilate,
    frame,
    hole_free,
    perimeters,
    rowcount,
    split_points,
    stack,
)


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
    the weakest opponent block sharing a liberty with its chain; its strongest friendly neighbour."""
    ids = _ids(topology, block_ids)
    table = _table(topology, None)
    return [table.related[b] for b in ids]


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
    ids = np.asarray(list(block_ids), dtype=np.intp).reshape(-1)
    if len(ids) and (ids.min() < 0 or ids.max() >= len(topology.blocks)):
        raise FeatureError(f"block id out of range 0..{len(topology.blocks) - 1}")
    return ids


@dataclass
class Table:
    """Every feature of every block of one position, and the related block ids."""

    values: np.ndarray
    related: list


def _table(topology: Topology, power) -> Table:
    if power is not None:
        return compute(topology, power)
    table = topology.cache.get("features")
    if table is None:
        table = topology.cache["features"] = compute(topology)
    return table


# 4-connectivity within each plane of a stack of planes, none across them (one label call for both colours)
FOUR_IN_PLANE = np.stack([np.zeros_like(FOUR), FOUR, np.zeros_like(FOUR)])

# ---- the computation -------------------------------------------------------------------------
# Sets of points are rows of framed flat bool arrays (``topology.stack`` reshaped); relations
# between sets and labelled objects are counted with ``overlap`` (bincount over (set, point)
# pairs, taken from the stones and liberties where that spares a scan of a whole stack) rather
# than products with the stacks; only small block-by-block or block-by-region tables are
# multiplied, in float (exact for these counts). Per-call overhead, not data size, dominates.

def _flat(sets: np.ndarray) -> np.ndarray:
    return sets.reshape(len(sets), -1)


def overlap(sets, labels: np.ndarray, m: int) -> np.ndarray:
    """(K, m) counts: how many points of each set carry label 1..m. ``sets`` is a flat bool array
    (one set per row) or a ``Pairs`` of it, when several label maps are checked."""
    if not isinstance(sets, Pairs):
        sets = Pairs(sets)
    # label 0 counted too, in a column then dropped: cheaper than filtering the pairs
    counts = np.bincount(sets.k * (m + 1) + labels[sets.p], minlength=sets.n * (m + 1))
    return counts.reshape(sets.n, m + 1)[:, 1:]


class Pairs:
    """The (row, point) pairs of a flat bool array of sets, found once (or given: ``k``, ``p``,
    where a pair may repeat when only ``overlap(...) > 0`` is asked)."""

    def __init__(self, sets: np.ndarray | None = None, n: int = 0, k=None, p=None):
        if sets is not None:
            # flatnonzero and divmod: several times faster than np.nonzero on a 2-D array
            n, (k, p) = len(sets), np.divmod(np.flatnonzero(sets), sets.shape[1])
        self.n, self.k, self.p = n, k, p


def _stones(block_lab: np.ndarray, nb: int) -> Pairs:
    """(block, point) pairs of every stone, from the framed flat block labels."""
    points = np.flatnonzero(block_lab)
    return Pairs(n=nb, k=block_lab[points] - 1, p=points)


def _touching(stones: Pairs, w: int) -> Pairs:
    """(block, point) pairs of each block's stones and their 4-neighbours, repeats included:
    the points of the dilated blocks, without scanning the whole stack."""
    points = (stones.p[None, :] + np.array([0, -1, 1, -w, w])[:, None]).ravel()
    return Pairs(n=stones.n, k=np.tile(stones.k, 5), p=points)


def _hits(sets: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Points of each set that are in a flat mask."""
    return rowcount(sets & mask[None, :])


def _move_maps(grid, block_of, lib_flat, libs, colors):
    """For each colour c: (self-atari, suicide) flat masks over framed points: empty points
    where a c stone would have <= 1 (resp. 0) liberties without capturing anything."""
    n = grid.shape[0]
    w = n + 2
    empty = frame(grid == 0).ravel()
    labels = frame(block_of).ravel().astype(np.intp)
    points = np.flatnonzero(empty)
    offsets = np.array([-w, -1, 1, w])
    around = points[:, None] + offsets
    nb_lab = labels[around]
    nb_empty = empty[around]
    n_empty = nb_empty.sum(axis=1)
    libs_ext = np.concatenate([[0], libs])
    col_ext = np.concatenate([[0], colors])
    nb_col = col_ext[nb_lab]
    nb_libs = libs_ext[nb_lab]
    lib_ext = np.concatenate([np.zeros((1, lib_flat.shape[1]), dtype=bool), lib_flat])
    # both colours at once: axis 0 is (BLACK, WHITE)
    c = np.array([BLACK, WHITE])[:, None, None]
    own = nb_col == c
    capture = ((nb_col == -c) & (nb_libs == 1)).any(axis=2)
    cand = (n_empty <= 1) & ~capture & (np.where(own, nb_libs, 0).max(axis=2) <= 2)
    ci, k = np.divmod(np.flatnonzero(cand), cand.shape[1])
    atari = np.zeros((2, len(empty)), dtype=bool)
    suicide = np.zeros((2, len(empty)), dtype=bool)
    if len(k):
        rows = lib_ext[np.where(own[ci, k], nb_lab[k], 0)].any(axis=1)
        rows[np.arange(len(k))[:, None], around[k]] |= nb_empty[k]
        rows[np.arange(len(k)), points[k]] = False
        after = rowcount(rows)
        atari[ci[after <= 1], points[k[after <= 1]]] = True
        suicide[ci[after == 0], points[k[after == 0]]] = True
    return {BLACK: (atari[0], suicide[0]), WHITE: (atari[1], suicide[1])}


def _links(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean matrix product as counts (float32, exact at these sizes: one BLAS call)."""
    return a.astype(np.float32) @ b.astype(np.float32)


def _pick(mask: np.ndarray, rank: np.ndarray, order: np.ndarray, k: int) -> np.ndarray:
    """Per row of a (B, B) mask, the ids of the k columns of lowest rank (-1 when fewer)."""
    b = mask.shape[1]
    keyed = np.where(mask, rank[None, :], b)
    if b < k:
        keyed = np.concatenate([keyed, np.full((len(mask), k - b), b)], axis=1)
    # the k smallest keys in order: a minimum or a partition, cheaper than a full sort
    best = keyed.min(axis=1)[:, None] if k == 1 else np.partition(keyed, k - 1, axis=1)[:, :k]
    return np.where(best < b, order[np.minimum(best, b - 1)], -1)


def _side_by_side(columns: list, rows: int) -> np.ndarray:
    """Columns and blocks of columns joined into one float64 table (cheaper than column_stack)."""
    return np.concatenate([c.reshape(rows, -1) for c in columns], axis=1, dtype=np.float64)


def compute(topology: Topology, power: np.ndarray | None = None) -> Table:
    """Every feature of every block (registry order) and the ``related`` lists, by array operations."""
    blocks = topology.blocks
    nb = len(blocks)
    if nb == 0:
        return Table(np.zeros((0, len(SET_B))), [])
    grid = np.asarray(topology.grid, dtype=np.int8)
    n = topology.size
    w = n + 2
    ids = np.arange(nb)
    colors = np.array([b.color for b in blocks], dtype=np.int8)
    chain_of = np.array([b.chain for b in blocks], dtype=np.intp)
    n_chains = len(topology.chains)
    same = colors[:, None] == colors[None, :]
    empty = frame(grid == 0).ravel()
    stones = {BLACK: frame(grid == BLACK).ravel(), WHITE: frame(grid == WHITE).ravel()}
    infl, terr = influence_and_territory(grid)
    if power is not None:
        infl = np.asarray(power, dtype=np.float64)
    block_lab = frame(topology.block_of).ravel()

    # -- the blocks
    S = stack(topology.block_of, nb)
    D1 = dilate(S)
    lib3d = D1 & empty.reshape(w, w)
    lib2 = dilate(lib3d) & empty.reshape(w, w) & ~lib3d
    lib3 = dilate(lib2) & empty.reshape(w, w) & ~lib3d & ~lib2
    S, D1, lib = _flat(S), _flat(D1), _flat(lib3d)
    libs = rowcount(lib)
    size = rowcount(S)
    perim = rowcount(D1 & ~S)
    stone_pairs = _stones(block_lab, nb)
    d1_pairs, lib_pairs = _touching(stone_pairs, w), Pairs(lib)  # d1_pairs: only "> 0" asked
    adjacent = (overlap(d1_pairs, block_lab, nb) > 0) & ~same
    lib_any = {c: np.bincount(lib_pairs.p[colors[lib_pairs.k] == c], minlength=w * w) > 0 for c in (BLACK, WHITE)}
    moves = _move_maps(grid, topology.block_of, lib, libs, colors)
    # per block, its liberties in a map of the opponent's moves: counted over the liberty pairs
    lib_black = colors[lib_pairs.k] == BLACK
    by_opp = lambda k: np.bincount(  # noqa: E731
        lib_pairs.k, np.where(lib_black, moves[WHITE][k][lib_pairs.p], moves[BLACK][k][lib_pairs.p]),
        minlength=nb).astype(np.int64)
    protected = by_opp(0)
    atari_libs = np.where(libs == 2, libs - by_opp(1), 0)
    near = _flat(dilate(D1.reshape(nb, w, w))) & ~S
    black_near, white_near = _hits(near, stones[BLACK]), _hits(near, stones[WHITE])
    majority = np.where(colors == BLACK, black_near - white_near, white_near - black_near)
    # centres of mass from the stones (framed rows and columns, one more than on the board)
    row, col = np.divmod(stone_pairs.p, w)
    cy = np.bincount(stone_pairs.k, weights=row - 1, minlength=nb) / size
    cx = np.bincount(stone_pairs.k, weights=col - 1, minlength=nb) / size
    cm_x, cm_y = np.minimum(cx, n - 1 - cx), np.minimum(cy, n - 1 - cy)
    # rows and columns each block occupies, from its stones (cheaper than scanning the stack)
    any_r = np.bincount(stone_pairs.k * w + row, minlength=nb * w).reshape(nb, w) > 0
    any_c = np.bincount(stone_pairs.k * w + col, minlength=nb * w).reshape(nb, w) > 0
    height = w - np.argmax(any_r[:, ::-1], axis=1) - np.argmax(any_r, axis=1)
    width = w - np.argmax(any_c[:, ::-1], axis=1) - np.argmax(any_c, axis=1)
    bb_square = height * width

    # -- chains
    order = np.argsort(chain_of, kind="stable")
    starts = np.searchsorted(chain_of[order], np.arange(n_chains))
    # per chain and point: how many of its blocks have the point as a liberty; the chain's stones
    chain_lib_count = np.bincount(chain_of[lib_pairs.k] * (w * w) + lib_pairs.p,
                                  minlength=n_chains * w * w).reshape(n_chains, w * w)
    chain_lab = np.concatenate([[0], chain_of + 1])[block_lab]
    chain_stones = chain_lab[None, :] == np.arange(1, n_chains + 1)[:, None]
    chain_lib = chain_lib_count > 0
    chain_conn = np.bincount(lib_pairs.k, chain_lib_count[chain_of[lib_pairs.k], lib_pairs.p] >= 2,
                             minlength=nb).astype(np.int64)
    chain_colors = colors[order[starts]]
    ch_blocks = np.bincount(chain_of, minlength=n_chains)
    ch_size = rowcount(chain_stones)
    ch_perim = perimeters(chain_stones.reshape(n_chains, w, w))
    ch_libs = rowcount(chain_lib)
    ch_split = rowcount(chain_lib_count >= 2)
    ch_ext = np.where(chain_colors == BLACK, _hits(chain_lib, lib_any[WHITE]), _hits(chain_lib, lib_any[BLACK]))

    # -- regions enclosed by a colour (CERs), both colours in one index space (black's first)
    # (a point can lie in a CER of each colour, so each colour keeps its own label map)
    cer_labs = {c: frame(topology.cer_of[c]).ravel() for c in (BLACK, WHITE)}
    k_black, k_white = len(topology.cers[BLACK]), len(topology.cers[WHITE])
    n_cers = k_black + k_white

    def cer_overlap(sets):
        return np.concatenate([overlap(sets, cer_labs[BLACK], k_black),
                               overlap(sets, cer_labs[WHITE], k_white)], axis=1)

    def cer_sum(weights):
        return np.concatenate([np.bincount(cer_labs[c], weights=weights, minlength=k + 1)[1:]
                               for c, k in ((BLACK, k_black), (WHITE, k_white))])

    C = np.concatenate([stack(topology.cer_of[BLACK], k_black), stack(topology.cer_of[WHITE], k_white)])
    c_color = np.concatenate([np.full(k_black, BLACK), np.full(k_white, WHITE)]).astype(np.int8)
    c_size = cer_sum(None).astype(np.int64)
    c_perim = perimeters(C)
    is_eye = cer_sum(stones[BLACK] | stones[WHITE]) == 0
    c_whole = hole_free(C)  # a CER is 4-connected, so its Euler number tells
    c_split = np.zeros(n_cers, dtype=np.int64)
    c_empty = cer_sum(empty).astype(np.int64)
    c_power = cer_sum(frame(infl).ravel() * empty) * c_color  # summed over empty points
    own_cer = (cer_overlap(d1_pairs) > 0) & (colors[:, None] == c_color[None, :])
    lib_in_cer = cer_overlap(lib_pairs)
    eyes = own_cer & is_eye

    pacer = own_cer & ~is_eye & (lib_in_cer > 0)
    pb, pk = np.divmod(np.flatnonzero(pacer), pacer.shape[1])
    # one stack holding the accessible parts (the block's liberties in the region), then the
    # inner parts (the rest), so that one call measures the perimeters of both
    m = len(pb)
    parts = np.empty((2 * m, w, w), dtype=bool)
    region = C[pk]
    acc, inner_pts = parts[:m], parts[m:]
    np.logical_and(lib3d[pb], region, out=acc)
    np.greater(region, acc, out=inner_pts)  # region and not accessible
    part_perim = perimeters(parts)
    acc_size = lib_in_cer[pb, pk]
    pacer_acc_size = np.bincount(pb, acc_size, minlength=nb)
    pacer_acc_perim = np.bincount(pb, part_perim[:m], minlength=nb)
    pacer_int_size = np.bincount(pb, c_size[pk] - acc_size, minlength=nb)
    pacer_int_perim = np.bincount(pb, part_perim[m:], minlength=nb)
    # split points of the eyes and of the inner sets in one call (one background labelling);
    # taking a bordering block's liberties out of a hole-free region leaves it hole-free
    n_eyes = int(is_eye.sum())
    splits = split_points(np.concatenate([C[is_eye], inner_pts]), np.concatenate([c_whole[is_eye], c_whole[pk]]))
    c_split[is_eye] = splits[:n_eyes]
    pacer_int_split = np.bincount(pb, splits[n_eyes:], minlength=nb)
    eye_table = np.column_stack([np.ones(n_cers), c_size, c_perim, c_split])  # count, points, perimeter, splits
    eye_stats = eyes.astype(np.float64) @ eye_table
    pacer_pts = np.bincount(pb, c_empty[pk], minlength=nb)
    pacer_power = np.bincount(pb, c_power[pk], minlength=nb) / np.maximum(pacer_pts, 1)

    enclosing = np.array([b.enclosing_cer for b in blocks])
    enclosing = np.where(colors == BLACK, enclosing + k_black, enclosing)
    opp_cer_size, opp_cer_perim = c_size[enclosing], c_perim[enclosing]

    chain_cer = np.add.reduceat(own_cer[order].astype(np.int16), starts, axis=0) > 0
    chain_eyes = chain_cer & is_eye
    ch_eye_stats = chain_eyes.astype(np.float64) @ eye_table
    chain_lib_pairs = Pairs(n=n_chains, k=chain_of[lib_pairs.k], p=lib_pairs.p)  # repeats: only "> 0" asked
    ch_pacer = chain_cer & ~is_eye & (cer_overlap(chain_lib_pairs) > 0)
    ch_pacer_stats = []
    for limit in (5, 9):
        small = ch_pacer & (c_size <= limit)
        pts = small @ c_empty
        ch_pacer_stats += [small.sum(axis=1), (small @ c_power) / np.maximum(pts, 1)]

    # -- territory (Zobrist 5/21) next to the block and its chain
    # both colours' territories in one labelling of two planes: black's labels come first
    planes, n_terr = ndimage.label(np.stack([terr > 0, terr < 0]), FOUR_IN_PLANE)
    t_black = int(planes[0].max())
    t_white = n_terr - t_black
    terr_lab = frame(planes[0] + planes[1]).ravel()
    t_color = np.concatenate([np.full(t_black, BLACK), np.full(t_white, WHITE)]).astype(np.int8)
    t_empty = np.bincount(terr_lab, weights=empty, minlength=n_terr + 1)[1:]
    t_libs = {c: np.bincount(terr_lab, weights=lib_any[c], minlength=n_terr + 1)[1:] for c in (BLACK, WHITE)}
    t_friend = np.where(t_color == BLACK, t_libs[BLACK], t_libs[WHITE])
    t_opp = np.where(t_color == BLACK, t_libs[WHITE], t_libs[BLACK])
    touch = (overlap(d1_pairs, terr_lab, n_terr) > 0) & (colors[:, None] == t_color[None, :])
    terr_direct = (touch * overlap(lib_pairs, terr_lab, n_terr)).sum(axis=1)
    terr_friend, terr_opp = touch @ t_friend, touch @ t_opp
    chain_d1 = Pairs(n=n_chains, k=chain_of[d1_pairs.k], p=d1_pairs.p)  # the dilated chains, repeats included
    ch_touch = (overlap(chain_d1, terr_lab, n_terr) > 0) & (chain_colors[:, None] == t_color[None, :])
    ch_terr = ch_touch @ t_empty

    # -- surroundings
    weak_order = np.lexsort((ids, size, libs))
    weak_rank = np.empty(nb, dtype=np.intp)
    weak_rank[weak_order] = ids
    strong_order = np.lexsort((ids, -size, -libs))
    strong_rank = np.empty(nb, dtype=np.intp)
    strong_rank[strong_order] = ids
    weak12 = _pick(adjacent, weak_rank, weak_order, 2)
    # liberties of one colour's chains never overlap, so each colour's chain liberties form a label map
    chain_lib_lab = {}
    for c in (BLACK, WHITE):
        mine = colors[lib_pairs.k] == c
        chain_lib_lab[c] = np.zeros(w * w, dtype=np.intp)
        chain_lib_lab[c][lib_pairs.p[mine]] = chain_of[lib_pairs.k[mine]] + 1
    # shares[o, k]: liberties block o shares with chain k (k of the other colour)
    shares = np.where((colors == BLACK)[:, None], overlap(lib_pairs, chain_lib_lab[WHITE], n_chains),
                      overlap(lib_pairs, chain_lib_lab[BLACK], n_chains))
    weak_lib = _pick(shares[:, chain_of].T > 0, weak_rank, weak_order, 1)[:, 0]
    region_lab = frame(topology.region_of).ravel()
    region_adj = overlap(d1_pairs, region_lab, len(topology.regions)) > 0
    friends = (_links(region_adj, region_adj.T) > 0) | (_links(adjacent, adjacent) > 0)
    friends &= same
    np.fill_diagonal(friends, False)
    friend = _pick(friends, strong_rank, strong_order, 1)[:, 0]

    base = np.column_stack([size, perim, libs, np.zeros(nb), atari_libs, chain_conn, eye_stats])
    base = np.vstack([base, np.zeros(base.shape[1])])

    def describe(other, shared_with):
        rows = base[np.where(other >= 0, other, nb)]
        rows[:, 3] = np.where(other >= 0, shared_with, 0)
        return rows

    def shared_libs(other):  # counted over the block's liberty pairs, not the whole stack
        k, p = lib_pairs.k, lib_pairs.p
        return np.bincount(k, weights=lib.ravel()[np.maximum(other, 0)[k] * (w * w) + p], minlength=nb)

    neighbours = [
        describe(weak12[:, 0], shared_libs(weak12[:, 0])),
        describe(weak12[:, 1], shared_libs(weak12[:, 1])),
        describe(weak_lib, shares[np.maximum(weak_lib, 0), chain_of]),
        describe(friend, shared_libs(friend)),
    ]
    chain_table = np.column_stack([ch_size, ch_perim, ch_eye_stats, ch_split])
    chain_table = np.vstack([chain_table, np.zeros(chain_table.shape[1])])
    opp_chain = chain_table[np.where(weak12[:, 0] >= 0, chain_of[np.maximum(weak12[:, 0], 0)], n_chains)]

    c = chain_of
    values = _side_by_side([
        size, perim, libs, count(lib2), count(lib3), protected, chain_conn, adjacent.sum(axis=1),
        majority, cm_x, cm_y, bb_square,
        eye_stats,
        pacer_acc_size, pacer_acc_perim, pacer_int_size, pacer_int_perim, pacer_int_split, pacer_power,
        opp_cer_size, opp_cer_perim,
        ch_blocks[c], ch_size[c], ch_perim[c], ch_libs[c], chain_cer.sum(axis=1)[c], ch_eye_stats[c],
        ch_ext[c], ch_split[c], ch_terr[c], *(s[c] for s in ch_pacer_stats),
        *neighbours, opp_chain,
        terr_direct, terr_friend, terr_opp,
    ], nb)
    assert values.shape[1] == len(SET_B)

    members = [topology.chains[k].blocks for k in range(n_chains)]
    rel = []
    for b in range(nb):
        w1, w2 = int(weak12[b, 0]), int(weak12[b, 1])
        rel.append([
            [b],
            [m for m in members[chain_of[b]] if m != b],
            [w1] if w1 >= 0 else [],
            [w2] if w2 >= 0 else [],
            list(members[chain_of[w1]]) if w1 >= 0 else [],
            [int(weak_lib[b])] if weak_lib[b] >= 0 else [],
            [int(friend[b])] if friend[b] >= 0 else [],
        ])
    return Table(values, rel)
