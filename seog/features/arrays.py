"""The house's numpy toolbox for boards: labelling, the values around each point, and
*stacks* of point sets.

A *stack* is a (K, size + 2, size + 2) bool array: K point sets on the board, framed by a
one-point border that is never in a set, so shifts need no bounds checks and the frame can
stand for the virtual points just off the board.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from seog.features.compiled import extension
from seog.features.coords import BLACK, WHITE

FOUR = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
EIGHT = np.ones((3, 3), dtype=bool)


_LABEL = extension("ndimage", "_ni_label")._label


def label(mask: np.ndarray, structure: np.ndarray = FOUR) -> tuple[np.ndarray, int]:
    """Connected components of ``mask`` (int32 labels from 1 in raster order, and their number):
    ``scipy.ndimage.label``'s result, from its compiled core without the package around it."""
    mask = np.asarray(mask)
    out = np.empty(mask.shape, dtype=np.int32)
    return out, int(_LABEL(mask, np.asarray(structure, dtype=bool), out))


def grow(mask: np.ndarray, steps: int = 1) -> np.ndarray:
    """``mask`` with every point within ``steps`` 4-steps of it (a 2-D bool array, the board's
    edge a wall): ``scipy.ndimage.binary_dilation`` with the cross, by shifts."""
    out = np.asarray(mask, dtype=bool).copy()
    for _ in range(steps):
        step = out.copy()
        step[1:] |= out[:-1]
        step[:-1] |= out[1:]
        step[:, 1:] |= out[:, :-1]
        step[:, :-1] |= out[:, 1:]
        out = step
    return out


def shrink(mask: np.ndarray) -> np.ndarray:
    """The points of ``mask`` whose four neighbours are all in it, off the board counting as in:
    ``scipy.ndimage.binary_erosion`` with the cross and ``border_value=1``."""
    mask = np.asarray(mask, dtype=bool)
    out = mask.copy()
    out[1:] &= mask[:-1]
    out[:-1] &= mask[1:]
    out[:, 1:] &= mask[:, :-1]
    out[:, :-1] &= mask[:, 1:]
    return out


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


def label_blocks(grid: np.ndarray) -> tuple[np.ndarray, int]:
    """Label 4-connected blocks of both colours in one array (black ids first)."""
    black, nb = label(grid == BLACK)
    white, nw = label(grid == WHITE)
    labels = black + np.where(white > 0, white + nb, 0)
    return labels.astype(np.int32), nb + nw


# One ``label`` call labels a (k, h, w) stack of boards whose slices never connect,
# numbered slice after slice (each in raster order, as if labelled alone).
STACK = np.zeros((3, 3, 3), dtype=bool)
STACK[1] = FOUR

@cache
def neighbours(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices into an (h + 2, w + 2) framed board: of the board points (row-major) and of
    their up, down, left and right neighbours, (4, h * w) (the frame stands for off the board)."""
    stride = w + 2
    inner = ((np.arange(h)[:, None] + 1) * stride + np.arange(1, w + 1)).ravel()
    index = np.stack([inner - stride, inner + stride, inner - 1, inner + 1])
    inner.flags.writeable = index.flags.writeable = False
    return inner, index


def around(values: np.ndarray, fill=0) -> np.ndarray:
    """(4, h * w): the value at each point's up, down, left and right neighbour, ``fill`` off the board."""
    h, w = values.shape
    inner, index = neighbours(h, w)
    framed = np.full((h + 2) * (w + 2), fill, dtype=values.dtype)
    framed[inner] = values.reshape(-1)
    return framed[index]


# A *stack* is a (K, size + 2, size + 2) bool array: K point sets on the board, framed by a
# one-point border that is never in a set, so shifts need no bounds checks and the frame can
# stand for the virtual points just off the board.

@cache
def _ring(w: int) -> np.ndarray:
    """Flat offsets of the 8 neighbours of a point, row stride ``w``."""
    return np.array([dr * w + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc])


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


def nonzero2(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the true values of a 2-D array, as ``mask.nonzero()`` but from a flat
    nonzero and a division, which is faster on arrays of thousands of points."""
    return divmod(mask.reshape(-1).nonzero()[0], mask.shape[1])


def rowcount(rows: np.ndarray) -> np.ndarray:
    """True values in each row of a 2-D bool array (int64): a uint16 sum of the bytes, about
    twice as fast as ``count_nonzero(axis=1)`` at these sizes (rows hold fewer than 65,536)."""
    return np.add.reduce(rows.view(np.uint8), axis=1, dtype=np.uint16).astype(np.int64)
