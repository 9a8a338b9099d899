"""The feature families: one small function per family, registered with its columns' names and
one-sentence definitions beside it. ``FAMILIES`` lists them in definition order, which is the
column order of the feature table (``features.vector``).

Each function reads the position's ``Measures`` (``features.measures``) and returns its columns
for every block, in the order of its names: arrays of one value per block, or (blocks, k) tables
of k columns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from seog.features.arrays import rowcount
from seog.features.measures import CHAIN_COLUMNS, OPP_CHAIN_COLUMNS, Measures, grow, side_by_side


@dataclass(frozen=True)
class Family:
    """A family of features: its ``name`` (the function's), its ``columns`` as (name, definition)
    pairs in column order, and the ``function`` computing them."""

    name: str
    columns: tuple[tuple[str, str], ...]
    function: Callable[[Measures], list]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.columns]


FAMILIES: list[Family] = []


def family(*columns: tuple[str, str]):
    """Register the decorated function as the family computing ``columns`` ((name, definition)
    pairs), after the families registered before it."""
    def register(function):
        FAMILIES.append(Family(function.__name__, columns, function))
        return function
    return register


# ---- the block -----------------------------------------------------------------------------------

@family(("size", "Number of stones in the block."),
        ("perimeter", "Liberties the block would have standing alone on an infinite board."))
def block_size(m: Measures) -> list:
    return [m.stones.size, m.stones.perim]


@family(("liberties_1", "Liberties of the block."),
        ("liberties_2", "Empty points next to a rank-1 liberty that are not rank-1 liberties."),
        ("liberties_3", "Empty points next to a rank-2 liberty that are not of rank 1 or 2."),
        ("protected_liberties", "Liberties where an opponent stone would have at most one liberty and capture nothing."))
def liberties(m: Measures) -> list:
    """Liberties of three ranks: empty points next to the rank below that are of no lower rank."""
    b, s = m.board, m.stones
    ranks = np.empty((2, b.nb, b.npts), dtype=bool)
    free = b.empty > s.lib
    np.logical_and(grow(s.lib, b.w), free, out=ranks[0])
    free ^= ranks[0]
    np.logical_and(grow(ranks[0], b.w), free, out=ranks[1])
    lib2, lib3 = rowcount(ranks.reshape(2 * b.nb, b.npts)).reshape(2, b.nb)
    return [s.libs, lib2, lib3, s.protected]


@family(("chain_connections", "Liberties of the block shared with another block of its chain."),
        ("opp_blocks_num", "Adjacent opponent blocks."),
        ("local_majority", "Own minus opponent stones within Manhattan distance 2 of the block, the block excluded."))
def contacts(m: Measures) -> list:
    s = m.stones
    # the stones within distance 2 of the block: its colour times its size is the block itself
    majority = s.colors * (grow(s.d1, m.board.w).astype(np.float32) @ m.board.grid.astype(np.float32)) - s.size
    return [m.links.chain_conn, rowcount(m.links.adjacent), majority]


@family(("cm_x", "Distance from the block's centre of mass to the nearest left/right edge."),
        ("cm_y", "Distance from the block's centre of mass to the nearest top/bottom edge."),
        ("bb_square", "Area of the block's bounding box."))
def placement(m: Measures) -> list:
    """Centres of mass from the stones (framed rows and columns, one more than on the board); a block
    is 4-connected, so the rows (columns) it occupies are its height (width)."""
    b, s = m.board, m.stones
    row, col = s.sp // b.w, s.sp % b.w
    cy = np.bincount(s.sk, weights=row - 1, minlength=b.nb) / s.size
    cx = np.bincount(s.sk, weights=col - 1, minlength=b.nb) / s.size
    spans = np.zeros((2, b.nb, b.w), dtype=bool)
    spans[0, s.sk, row] = True
    spans[1, s.sk, col] = True
    height, width = rowcount(spans.reshape(2 * b.nb, b.w)).reshape(2, b.nb)
    return [np.minimum(cx, b.n - 1 - cx), np.minimum(cy, b.n - 1 - cy), height * width]


# ---- the CERs around the block ---------------------------------------------------------------------

@family(("eye_num", "Eyes (stone-free regions enclosed by the block's colour) adjacent to the block."),
        ("eye_sum_size", "Total points of the block's adjacent eyes."),
        ("eye_sum_perimeter", "Total perimeter of the block's adjacent eyes."),
        ("eye_sum_split_points", "Total split points (points whose filling cuts the eye in two) of the adjacent eyes."))
def eyes(m: Measures) -> list:
    return [m.cers.eye_stats]


@family(("pacer_sum_acc_size", "Liberties of the block inside adjacent own-enclosed regions that hold opponent stones."),
        ("pacer_sum_acc_perimeter", "Total perimeter of those accessible points, region by region."),
        ("pacer_sum_int_size", "Points of those regions that are not the block's liberties."),
        ("pacer_sum_int_perimeter", "Total perimeter of those inner points, region by region."),
        ("pacer_sum_int_split_points", "Total split points of those inner point sets."),
        ("pacer_average_power",
         "Mean influence (Zobrist 5/10, for the block's colour) over the empty points of those regions."))
def pacers(m: Measures) -> list:
    """Sums over the block's partially accessible CERs; the power is over all their empty points."""
    c, nb = m.cers, m.board.nb
    sums = [np.bincount(c.pb, v, minlength=nb) for v in
            (c.acc_size, c.acc_perim, c.inner_size, c.inner_perim, c.inner_split)]
    points = np.bincount(c.pb, c.empty[c.pk], minlength=nb)
    return [*sums, np.bincount(c.pb, c.power[c.pk], minlength=nb) / np.maximum(points, 1)]


@family(("opp_cer_size", "Points of the opponent-enclosed region holding the block."),
        ("opp_cer_perimeter", "Perimeter of the opponent-enclosed region holding the block."))
def opponent_region(m: Measures) -> list:
    return [m.cers.size[m.stones.enclosing], m.cers.perim[m.stones.enclosing]]


# ---- the chain ----------------------------------------------------------------------------------------

@family(("chain_blocks_num", "Blocks in the block's chain."),
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
        ("chain_estimated_adj_terr",
         "Empty points of the territory (Zobrist 5/21 map) of the chain's colour touching the chain."),
        ("chain_pacer5_num", "Partially accessible regions of at most 5 points adjacent to the chain."),
        ("chain_pacer5_ave_power",
         "Mean influence (for the chain's colour) over the empty points of those regions of at most 5 points."),
        ("chain_pacer9_num", "Partially accessible regions of at most 9 points adjacent to the chain."),
        ("chain_pacer9_ave_power",
         "Mean influence (for the chain's colour) over the empty points of those regions of at most 9 points."))
def chain(m: Measures) -> list:
    """The block's chain's row of measures (``measures.CHAIN_COLUMNS``: the same for every block of
    the chain, and read for the weakest opponent's chain by ``opponent_chain``)."""
    return [m.chains.rows]


assert FAMILIES[-1].names == [f"chain_{name}" for name in CHAIN_COLUMNS]


# ---- the surroundings (``neighbours``) ---------------------------------------------------------------

_NEIGHBOURS = [
    ("weak1", "the weakest adjacent opponent block", "the block"),
    ("weak2", "the second weakest adjacent opponent block", "the block"),
    ("weak_lib", "the weakest opponent block sharing a liberty with the block's chain", "the block's chain"),
    ("friend", "the strongest friendly neighbour", "the block"),
]
_DESCRIPTOR = [
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


def _none_if_absent(text: str) -> str:
    return text[0].upper() + text[1:] + " (0 if none)."


@family(*[(f"{prefix}_{suffix}", _none_if_absent(text.format(who=who, with_=with_)))
          for prefix, who, with_ in _NEIGHBOURS for suffix, text in _DESCRIPTOR])
def neighbours(m: Measures) -> list:
    """The same 10 descriptors of each neighbour (``neighbours``), neighbour after neighbour;
    all zero for a neighbour the block does not have."""
    s, k, nb, picks = m.stones, m.links, m.board.nb, m.picks
    ids = np.arange(nb)
    # liberties shared with weak1, weak2 and the friend (-1, "none", is masked below) and with the
    # block's chain (weak_lib)
    with_others = np.empty((4, nb))
    with_others[[0, 1, 3]] = k.inside[ids, picks[[0, 1, 3]] + 1]  # block o's column: o + 1
    with_others[2] = k.inside[:, k.columns.chains][np.maximum(picks[2], 0), m.board.chain_of]
    base = np.zeros((nb + 1, len(_DESCRIPTOR)))  # a last row of zeros for "none"
    base[:nb] = side_by_side([s.size, s.perim, s.libs, np.zeros(nb), s.atari, k.chain_conn, m.cers.eye_stats], nb)
    exists = picks >= 0
    rows = base[np.where(exists, picks, nb)]
    rows[..., 3] = np.where(exists, with_others, 0)
    return [rows.transpose(1, 0, 2)]


_OPP_CHAIN = [
    ("size", "stones of the chain of the weakest adjacent opponent block"),
    ("perimeter", "perimeter of that opponent chain's stones"),
    ("eye_num", "eyes adjacent to that opponent chain"),
    ("eye_sum_size", "total points of that opponent chain's eyes"),
    ("eye_sum_perimeter", "total perimeter of that opponent chain's eyes"),
    ("eye_sum_split_points", "total split points of that opponent chain's eyes"),
    ("split_liberties", "liberties shared by two or more blocks of that opponent chain"),
]
assert [name for name, _ in _OPP_CHAIN] == [CHAIN_COLUMNS[i] for i in OPP_CHAIN_COLUMNS]


@family(*[(f"opp_chain_{suffix}", _none_if_absent(text)) for suffix, text in _OPP_CHAIN])
def opponent_chain(m: Measures) -> list:
    """The chain of the weakest adjacent opponent block: its row of ``measures.OPP_CHAIN_COLUMNS``."""
    weak1 = m.picks[0]
    return [np.where((weak1 >= 0)[:, None], m.chains.rows[weak1][:, OPP_CHAIN_COLUMNS], 0.0)]


# ---- territory (Zobrist 5/21) -----------------------------------------------------------------------

@family(("terr_direct_liberties", "Liberties of the block inside its adjacent territory (Zobrist 5/21 map, its colour)."),
        ("terr_all_friend_liberties", "Points of that territory that are liberties of some friendly block."),
        ("terr_all_opp_liberties", "Points of that territory that are liberties of some opponent block."))
def territory(m: Measures) -> list:
    """The territories of the block's colour it touches (its adjacent territory), and the liberties in them."""
    b, k = m.board, m.links
    t_friend, t_opp = (np.bincount(b.terr_of.reshape(-1), v, minlength=b.n_terr + 1)[1:]
                       for v in (k.lib_any.reshape(-1), k.opp_libs))
    return [(k.touch * k.inside[:, k.columns.territories]).sum(axis=1), k.touch @ t_friend, k.touch @ t_opp]
