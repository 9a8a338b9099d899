"""Shape measures of many point sets at once: split points (whose removal cuts a set) and
hole-free sets, from Euler numbers over a stack (``features.arrays``)."""

from __future__ import annotations

import numpy as np

from seog.features.arrays import EIGHT, _ring, count, label, rowcount


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
    k, p = divmod((gain >= 66).nonzero()[0], h * w)  # set points with n4 - squares - 1 >= 1
    if len(k) == 0:
        return k, p
    doubt = np.ones(len(k), dtype=bool) if sure is None else ~np.asarray(sure, dtype=bool)[k]
    if not doubt.any():
        return k, p
    kd, pd = k[doubt], p[doubt]
    marked = np.bincount(kd, minlength=k_all) > 0
    layers, local = marked.nonzero()[0], (marked.cumsum() - 1)[kd]
    # layers stacked as one tall image: frames of neighbouring layers may merge, which never
    # joins two background pieces of one layer
    background, _ = label(~sets[layers].reshape(-1, w), EIGHT)
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
    labelled (one ``label`` call for all of them).
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
