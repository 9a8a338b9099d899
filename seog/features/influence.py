"""Influence maps: how strongly each colour holds each point.

Two functions, both returning an int/float (size, size) map, positive where Black holds sway:

- ``zobrist(grid, dilations, erosions)``: the morphological operators of Zobrist's influence
  model as used by Bouzy. Stones start at +/-128; a *dilation* grows every point that no
  opposing value touches by the number of same-sign neighbours; an *erosion* shrinks every
  non-zero point towards zero by the number of neighbours that are not of its sign (never
  crossing zero). ``influence`` (5 dilations, 10 erosions) measures pressure; ``territory``
  (5 dilations, 21 erosions, Bouzy's 5/21) keeps only well-enclosed areas.
- ``status_influence(grid, block_of, p_alive)``: each stone spreads a fixed diamond pattern,
  weighted by its block's predicted status (an alive stone pushes for its colour, a dead one
  for the opponent), for the cascade after its first net.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

STONE = 128
INFLUENCE = (5, 10)   # (dilations, erosions) for pacer_*_power
TERRITORY = (5, 21)   # Bouzy's 5/21 territory (chain_estimated_adj_terr, terr_*)

# Weight of a stone at Manhattan distance 0, 1, 2, 3 (the status-aware pattern).
PATTERN = (4.0, 3.0, 2.0, 1.0)


def _framed(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Flat int32 values framed by a zero border, the on-board mask, the on-board degree, the row stride."""
    n = grid.shape[0]
    w = n + 2
    values = np.zeros((w, w), dtype=np.int32)
    values[1:-1, 1:-1] = grid
    board = np.zeros((w, w), dtype=bool)
    board[1:-1, 1:-1] = True
    degree = np.zeros((w, w), dtype=np.int32)
    degree[1:-1, 1:-1] = 4
    degree[1, 1:-1] -= 1
    degree[-2, 1:-1] -= 1
    degree[1:-1, 1] -= 1
    degree[1:-1, -2] -= 1
    return values.ravel() * STONE, board.ravel(), degree.ravel(), w


_CODE = np.array([16, 0, 1], dtype=np.int32)  # sign -1, 0, +1 -> packed (negative << 4) | positive


def _counts(sign: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Positive and negative 4-neighbours of every framed point (frame points count as zero)."""
    code = _CODE[sign + 1]
    total = np.zeros_like(code)
    total[w:-w] = code[w - 1:-w - 1] + code[w + 1:-w + 1] + code[:-2 * w] + code[2 * w:]
    return total & 15, total >> 4


def _dilate(values, board, w):
    sign = np.sign(values)
    npos, nneg = _counts(sign, w)
    grow = (sign >= 0) & (nneg == 0) & board
    shrink = (sign <= 0) & (npos == 0) & board
    return values + npos * grow - nneg * shrink


def _erode(values, degree, w):
    sign = np.sign(values)
    npos, nneg = _counts(sign, w)
    against = degree - np.where(sign > 0, npos, nneg)
    return sign * np.maximum(np.abs(values) - against, 0)


def _unframe(values: np.ndarray, w: int) -> np.ndarray:
    return values.reshape(w, w)[1:-1, 1:-1].copy()


def dilate(values: np.ndarray) -> np.ndarray:
    """One Zobrist dilation: a point with no opposing neighbour (and not itself of the other
    sign) gains one per neighbour of its sign."""
    framed, board, _, w = _framed(np.asarray(values))
    framed //= STONE  # _framed scales stones; undo for arbitrary values
    return _unframe(_dilate(framed, board, w), w)


def erode(values: np.ndarray) -> np.ndarray:
    """One Zobrist erosion: a non-zero point moves toward zero by the number of on-board
    neighbours not of its sign, stopping at zero."""
    framed, _, degree, w = _framed(np.asarray(values))
    framed //= STONE
    return _unframe(_erode(framed, degree, w), w)


def zobrist(grid: np.ndarray, dilations: int, erosions: int) -> np.ndarray:
    """The influence map after ``dilations`` dilations then ``erosions`` erosions (int32)."""
    values, board, degree, w = _framed(np.asarray(grid))
    for _ in range(dilations):
        values = _dilate(values, board, w)
    for _ in range(erosions):
        values = _erode(values, degree, w)
    return _unframe(values, w)


def influence_and_territory(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``influence`` and ``territory`` maps at once: both start with the same 5 dilations, and
    territory continues the influence map's erosions."""
    (d1, e1), (d2, e2) = INFLUENCE, TERRITORY
    if d1 != d2 or e2 < e1:
        return zobrist(grid, *INFLUENCE), zobrist(grid, *TERRITORY)
    values, board, degree, w = _framed(np.asarray(grid))
    for _ in range(d1):
        values = _dilate(values, board, w)
    for _ in range(e1):
        values = _erode(values, degree, w)
    terr = values
    for _ in range(e2 - e1):
        terr = _erode(terr, degree, w)
    return _unframe(values, w), _unframe(terr, w)


def influence(grid: np.ndarray) -> np.ndarray:
    """Pressure map (5 dilations, 10 erosions): > 0 black, < 0 white."""
    return zobrist(grid, *INFLUENCE)


def territory(grid: np.ndarray) -> np.ndarray:
    """Territory map (Bouzy's 5 dilations, 21 erosions): > 0 black, < 0 white."""
    return zobrist(grid, *TERRITORY)


def diamond(pattern=PATTERN) -> np.ndarray:
    """The (2r+1, 2r+1) kernel giving ``pattern[d]`` at Manhattan distance d from the centre."""
    r = len(pattern) - 1
    y, x = np.mgrid[-r:r + 1, -r:r + 1]
    d = np.abs(y) + np.abs(x)
    w = np.asarray(pattern, dtype=np.float64)
    return np.where(d <= r, w[np.minimum(d, r)], 0.0)


def status_influence(grid: np.ndarray, block_of: np.ndarray, p_alive, pattern=PATTERN) -> np.ndarray:
    """Influence spread by each stone with weight ``colour * (2 * p_alive - 1)`` of its block.

    ``block_of`` labels blocks (id + 1, 0 on empty points, as ``Topology.block_of``); ``p_alive``
    gives each block id's probability of being alive. A sure-alive stone pushes for its colour
    with the full pattern, a sure-dead one for the opponent, an undecided one (0.5) not at all.
    """
    grid = np.asarray(grid)
    p = np.concatenate([[0.5], np.asarray(p_alive, dtype=np.float64)])
    weight = grid * (2.0 * p[block_of] - 1.0)
    return ndimage.convolve(weight, diamond(pattern), mode="constant", cval=0.0)
