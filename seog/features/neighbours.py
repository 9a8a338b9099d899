"""The neighbours a block's features describe: its two weakest adjacent opponent blocks, the weakest
opponent block sharing a liberty with its chain, and its strongest friendly neighbour.

*Weakest* = fewest liberties, then fewest stones; *strongest* = most liberties, then most stones.
Ties go to the one sharing more liberties with the block (the one it is in contact with), then by
the rest of what the pick hands on (``rest``: its row of descriptors and its chain's), and only
then by id: a board turned or mirrored numbers its blocks otherwise, and an id decides only between
picks that give the same features. A *friendly neighbour* is another block of the block's colour
that borders one of the same empty regions or touches one of the same opponent blocks (chain
partners included).
"""

from __future__ import annotations

import numpy as np

from seog.features.self_atari import NONE


def pick(libs: np.ndarray, size: np.ndarray, rest: np.ndarray, adjacent: np.ndarray, next_to: np.ndarray,
         chain_shares: np.ndarray, friends: np.ndarray) -> np.ndarray:
    """(4, B) block ids, -1 for none: per block its weakest adjacent opponent #1 and #2, the
    weakest opponent sharing a liberty with its chain, and its strongest friendly neighbour.

    Per block: ``libs``, ``size``, ``rest`` (the rank of the rest of its descriptors); per pair
    (b, o): ``adjacent`` (o an opponent next to b), ``next_to`` (liberties of b next to o),
    ``chain_shares`` (liberties o shares with b's chain), ``friends`` (o a friendly neighbour of b).
    """
    weak, strong = (pair_rank(sign * libs, sign * size) for sign in (1, -1))
    others = np.empty((4, len(libs)), dtype=np.intp)
    others[:2] = lowest(adjacent, pair_key(weak, next_to, rest), 2).T
    others[2] = lowest(chain_shares > 0, pair_key(weak, chain_shares, rest), 1)[:, 0]
    others[3] = lowest(friends, pair_key(strong, next_to, rest), 1)[:, 0]
    return others


def lowest(mask: np.ndarray, key: np.ndarray, k: int) -> np.ndarray:
    """Per row of a (B, B) mask, the ids of the k columns of lowest ``key``, lowest first, -1 when
    fewer. Keys are unique and hold the column's id as their remainder modulo B."""
    b = mask.shape[1]
    keyed = np.where(mask, key, NONE)
    if b < k:
        keyed = np.concatenate([keyed, np.full((len(mask), k - b), NONE)], axis=1)
    if k == 1:
        best = np.minimum.reduce(keyed, axis=1)[:, None]
    else:
        best = np.partition(keyed, k - 1, axis=1)[:, :k]  # the k lowest, in order
    return np.where(best < NONE, best % b, -1)


def row_rank(rows: np.ndarray) -> np.ndarray:
    """Each row's rank in the rows sorted lexicographically, equal rows one rank (np.unique's
    inverse along axis 0, for a fraction of its time on small tables)."""
    order = np.lexsort(rows.T[::-1])
    ordered = rows[order]
    rank = np.empty(len(rows), dtype=np.int64)
    rank[order] = np.concatenate([[0], np.cumsum((ordered[1:] != ordered[:-1]).any(axis=1))])
    return rank


def pair_rank(first: np.ndarray, then: np.ndarray) -> np.ndarray:
    """``row_rank`` of the rows (first, then) of two integer columns, from one integer key."""
    low = then.min(initial=0)
    key = (first - first.min(initial=0)) * (then.max(initial=0) - low + 1) + (then - low)
    order = key.argsort()
    ordered = key[order]
    rank = np.empty(len(key), dtype=np.int64)
    rank[order] = np.concatenate([[0], (ordered[1:] != ordered[:-1]).cumsum()])
    return rank


def pair_key(first: np.ndarray, shared: np.ndarray, then: np.ndarray) -> np.ndarray:
    """``lowest``'s (B, B) keys: column o ranked by ``first[o]``, then by more ``shared[b, o]``, then
    by ``then[o]``, then by id (the remainder modulo B): ``((first * (most + 1) + most - shared) * B
    + then) * B + id``, most the largest ``shared``."""
    b = len(first)
    most = int(shared.max(initial=0))
    column = ((first * (most + 1) + most) * b + then) * b + np.arange(b)
    return column[None, :] - shared * (b * b)
