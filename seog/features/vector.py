"""The SEOG feature vector: every block of a final position as a row of numbers.

``FEATURES`` is the registry (name, one-sentence definition, sets, family) in column order: the
families of ``features.families``, each a small function registered with its columns' names and
definitions, in the order they are defined there. ``SET_B`` is all of it, ``SET_A`` the 33 most
relevant (chosen on the training archive, see docs/features.md); ``DYNAMIC`` names the 7 statuses
a cascade net after the first also sees.

``compute`` measures the position once (``features.measures``: array operations on stacks of point
sets, for *all* blocks at once) and puts every family's columns side by side. ``table`` is that
table for a topology, computed once per ``Topology`` (which does not change after ``analyze``);
``extract`` returns the rows and columns asked for, so the feature cache and the classifier can ask
for any block, settled or not, at no extra cost. ``related_array`` (and ``related``, its lists) is
built from the same table's picks of neighbours (``features.neighbours``).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from seog.features.families import FAMILIES
from seog.features.measures import measure, side_by_side
from seog.features.scaling import Scaler  # noqa: F401  (re-exported: fitted on SET_A/SET_B rows)
from seog.features.topology import Topology


@dataclass(frozen=True)
class Feature:
    """One input of the classifier: its ``name``, a one-sentence ``definition``, its ``sets`` ("AB"
    or "B") and the ``family`` that computes it (``features.families``)."""

    name: str
    definition: str
    sets: str
    family: str


# The 33 most relevant features on the training archive, best first: mean rank of mutual information and
# random-forest permutation importance over 13,974 unsettled blocks of 400 games (experiments/feature_relevance.py;
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

FEATURES: list[Feature] = [Feature(name, text, "AB" if name in SET_A else "B", family.name)
                           for family in FAMILIES for name, text in family.columns]
SET_B: list[str] = [f.name for f in FEATURES]
INDEX = {name: i for i, name in enumerate(SET_B)}
assert len(SET_B) == len(INDEX), "a feature name registered twice"
assert len(SET_A) == 33 and set(SET_A) <= set(SET_B), "SET_A must be 33 names of the registry"
SET_A = [name for name in SET_B if name in SET_A]  # registry order

# How ties between equal neighbours are broken (``features.neighbours``): "features" (by what the
# pick hands on, then id); a feature cache without this entry picks by "ids" (the lowest block id),
# which a turned board renumbers.
PICKS = "features"
DYNAMIC: list[str] = ["p_self", "p_chain", "p_weak1", "p_weak2", "p_opp_chain", "p_weak_lib", "p_friend"]


class FeatureError(ValueError):
    """A feature name or block id that the extractor does not know."""


# ---- the public calls ----------------------------------------------------------------------

def extract(topology: Topology, block_ids, names=SET_B, power: np.ndarray | None = None) -> np.ndarray:
    """Rows of features (float64, ``len(block_ids) x len(names)``) for the given block ids.

    ``power`` replaces the Zobrist influence map behind the ``*_power`` features (e.g. a
    ``status_influence`` map from an earlier cascade net); without it the rows come from ``table``.
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
    picks = table(topology).picks
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
    """Block ids (any iterable) as an array, checked; an array is not listed first: listing its
    items one by one costs a hundred times more (docs/benchmarks.md, "Small costs")."""
    ids = np.asarray(block_ids if isinstance(block_ids, np.ndarray) else list(block_ids), dtype=np.intp).reshape(-1)
    if len(ids) and (ids.min() < 0 or ids.max() >= len(topology.blocks)):
        raise FeatureError(f"block id out of range 0..{len(topology.blocks) - 1}")
    return ids


@dataclass(frozen=True)
class Table:
    """Every feature of every block of one position (``values``, columns in ``SET_B`` order) and
    what ``related_array`` needs: the blocks of each chain (``chains``) and, per block, ``picks``:
    its chain, weakest adjacent opponents #1 and #2, weakest opponent sharing a liberty with its
    chain and strongest friendly neighbour (-1 when none)."""

    values: np.ndarray
    chains: list
    picks: np.ndarray


_TABLES: weakref.WeakKeyDictionary[Topology, Table] = weakref.WeakKeyDictionary()


def table(topology: Topology) -> Table:
    """``compute(topology)``, once per topology: the table lives as long as the topology does."""
    found = _TABLES.get(topology)
    if found is None:
        found = _TABLES[topology] = compute(topology)
    return found


def _table(topology: Topology, power) -> Table:
    return table(topology) if power is None else compute(topology, power)


def compute(topology: Topology, power: np.ndarray | None = None) -> Table:
    """Every feature of every block (``SET_B`` order: the families' columns side by side) and the
    picks ``related`` needs. ``power`` replaces the Zobrist influence map behind ``*_power``."""
    nb = len(topology.blocks)
    if nb == 0:
        return Table(np.zeros((0, len(SET_B))), [], np.zeros((0, 5), dtype=np.intp))
    m = measure(topology, power)
    values = side_by_side([column for family in FAMILIES for column in family.function(m)], nb)
    assert values.shape[1] == len(SET_B)
    return Table(values, [chain.blocks for chain in topology.chains], np.vstack([m.board.chain_of, m.picks]).T)
