"""Where a stone of either colour would be in self-atari or suicide, for every empty point at once.

``move_maps`` marks the empty points where a stone would have at most one liberty (or none) and
capture nothing; the feature families read them at each block's liberties: a *protected liberty*
is one where an opponent stone would be in self-atari, an *atari liberty* one where an opponent
move leaves the block in atari. Points are framed flat indices (row stride ``w``, see
``features.measures``).
"""

from __future__ import annotations

import numpy as np

from seog.features.arrays import nonzero2
from seog.features.coords import BLACK, WHITE

SIGNS = np.array([[BLACK], [WHITE]])  # a sign map compared with these: one plane per colour
NONE = 2 ** 62  # pads a sorted row, and sorts last


def move_maps(empty: np.ndarray, block_lab: np.ndarray, lk: np.ndarray, lp: np.ndarray, libs: np.ndarray,
              colors: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """(2, 2, points) flat bool masks over framed points, indexed [colour (BLACK, WHITE), kind]:
    empty points where a stone of that colour would have <= 1 (kind 0, self-atari) or no (kind 1,
    suicide) liberties without capturing anything. ``lk``, ``lp``: the (block, liberty) pairs;
    ``steps``: the flat offsets of the 4 neighbours."""
    points = empty.nonzero()[0]
    around = points[:, None] + steps
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
    lib_sum = np.bincount(lk + 1, lp, minlength=nb + 1).astype(np.intp)  # by block label
    after = np.empty((len(points), 8), dtype=np.intp)
    after[:, :4] = np.where(nb_kind == _OWN_TWO[ci], lib_sum[nb_lab] - points[:, None], NONE)
    after[:, 4:] = np.where(nb_empty, around, NONE)
    after.sort(axis=1)
    return 1 + (after[:, 1:] != after[:, :-1]).sum(axis=1) - (after[:, -1] == NONE)


def _rules_out() -> np.ndarray:
    """Flat [colour to move (BLACK, WHITE), (neighbour colour + 1) * 4 + min(its liberties, 3)]."""
    col, lib = np.divmod(np.arange(12), 4)
    col -= 1
    return np.concatenate([((col == c) & (lib == 3)) | ((col == -c) & (lib == 1)) for c in (BLACK, WHITE)])


_RULES_OUT, _BY_COLOUR = _rules_out(), np.array([0, 12])[:, None, None]
_OWN_TWO = (SIGNS + 1) * 4 + 2  # per colour, the kind of an own block with 2 liberties
