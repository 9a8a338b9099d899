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

from functools import lru_cache

import numpy as np

STONE = 128
INFLUENCE = (5, 10)   # (dilations, erosions) for pacer_*_power
TERRITORY = (5, 21)   # Bouzy's 5/21 territory (chain_estimated_adj_terr, terr_*)

# Weight of a stone at Manhattan distance 0, 1, 2, 3 (the status-aware pattern).
PATTERN = (4.0, 3.0, 2.0, 1.0)


# Packed points: ``4 * magnitude + state`` in one flat framed array of ``np.intp`` (the index type
# of ``take``, so no conversion per call). One pass is a handful of whole-array operations: each
# point's packed value picks a code (its state, scaled), the four neighbours' codes are summed and
# the point's own packed value added, and a per-pass table turns that key into the point's next
# packed value.
ZERO, NEG, POS, FRAME = 0, 1, 2, 3
_SIGN = np.array([0, -1, 1, 0], dtype=np.intp)
_DILATE_CODE = np.array([0, 5, 1, 0])    # positive 1, negative 5, frame nothing (sums < 25)
_ERODE_CODE = np.array([0, 5, 1, 25])    # ... and frame 25, to know the degree (sums <= 100)


def _changes() -> tuple[np.ndarray, np.ndarray]:
    """(growth, loss) of the packed value, indexed by (neighbour code sum, own state)."""
    total = np.arange(101)[:, None]
    st = np.arange(4)[None, :]
    frames, pos, neg = total // 25, total % 5, total % 25 // 5
    # dilation: a point no opposing neighbour touches gains its own-sign neighbours
    grow = np.where((st == POS) & (neg == 0), 4 * pos, 0)
    grow = np.where((st == NEG) & (pos == 0), 4 * neg, grow)
    grow = np.where((st == ZERO) & (neg == 0) & (pos > 0), 4 * pos + POS, grow)
    grow = np.where((st == ZERO) & (pos == 0) & (neg > 0), 4 * neg + NEG, grow)
    # erosion: a signed point loses its on-board neighbours not of its sign
    against = np.where(st == POS, 4 - frames - pos, np.where(st == NEG, 4 - frames - neg, 0))
    return grow, 4 * against


@lru_cache(maxsize=8)
def _tables(limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(dilation code, dilation table, erosion code, erosion table) for magnitudes up to ``limit``.

    A key is ``code sum of the four neighbours + own packed value``; codes are scaled by the
    number of packed values so that the two parts never mix.
    """
    span = 4 * (limit + 1)
    own = np.arange(span)
    grow, loss = _changes()
    sums = np.arange(101)[:, None]
    dilated = own[None, :] + grow[sums, own[None, :] & 3]
    eroded = own[None, :] - loss[sums, own[None, :] & 3]
    eroded = np.where(eroded >= 4, eroded, ZERO)  # magnitude used up: the point becomes ZERO
    as_table = lambda t: t.reshape(-1).astype(np.intp)  # noqa: E731
    code = lambda c: (c[own & 3] * span).astype(np.intp)  # noqa: E731
    return code(_DILATE_CODE), as_table(dilated[:25]), code(_ERODE_CODE), as_table(eroded)


def _pack(values: np.ndarray) -> tuple[np.ndarray, int]:
    """A (size, size) int map as packed points framed by FRAME points, and the row stride."""
    n = values.shape[0]
    w = n + 2
    packed = np.full((w, w), 4 + FRAME, dtype=np.intp)
    inner = np.asarray(values, dtype=np.intp)
    packed[1:-1, 1:-1] = 4 * np.abs(inner) + np.where(inner > 0, POS, np.where(inner < 0, NEG, ZERO))
    return packed.ravel(), w


def _unpack(packed: np.ndarray, w: int) -> np.ndarray:
    """The (size, size) int32 map of packed points."""
    grid = packed.reshape(w, w)[1:-1, 1:-1]
    return (_SIGN[grid & 3] * (grid >> 2)).astype(np.int32)


def _steps(packed: np.ndarray, w: int, code: np.ndarray, table: np.ndarray, count: int) -> None:
    """``count`` passes, in place, over the points off the top and bottom frame rows (those never
    change). The keys are all summed before any point changes. Each pass is six array calls on
    views made once, with no temporaries (this runs 26 times a position)."""
    codes = np.empty_like(packed)
    left, right, up, down = codes[w - 1:-w - 1], codes[w + 1:-w + 1], codes[:-2 * w], codes[2 * w:]
    inner = packed[w:-w]
    total = np.empty_like(inner)
    for _ in range(count):
        # the ``take`` method (np.take is a slower wrapper); mode "clip": no range check and no
        # buffered copy (the tables cover every packed value)
        code.take(packed, out=codes, mode="clip")
        np.add(left, right, total)
        np.add(total, up, total)
        np.add(total, down, total)
        np.add(total, inner, total)
        table.take(total, out=inner, mode="clip")


def _passes(values: np.ndarray, dilations: int, erosions: tuple[int, ...]) -> tuple[list[np.ndarray], int]:
    """Packed maps (copies) after the dilations and then each erosion count in ``erosions``
    (ascending), and the row stride."""
    values = np.asarray(values, dtype=np.int32)
    limit = max(1, int(np.abs(values).max(initial=0)) + 4 * dilations)  # 1: room for FRAME points
    dilate_code, grow, erode_code, erode = _tables(limit)
    packed, w = _pack(values)
    _steps(packed, w, dilate_code, grow, dilations)
    maps, done = [], 0
    for stop in erosions:
        _steps(packed, w, erode_code, erode, stop - done)
        done = stop
        maps.append(packed.copy())
    return maps, w


def dilate(values: np.ndarray) -> np.ndarray:
    """One Zobrist dilation: a point with no opposing neighbour (and not itself of the other
    sign) gains one per neighbour of its sign."""
    (packed,), w = _passes(values, 1, (0,))
    return _unpack(packed, w)


def erode(values: np.ndarray) -> np.ndarray:
    """One Zobrist erosion: a non-zero point moves toward zero by the number of on-board
    neighbours not of its sign, stopping at zero."""
    (packed,), w = _passes(values, 0, (1,))
    return _unpack(packed, w)


def zobrist(grid: np.ndarray, dilations: int, erosions: int) -> np.ndarray:
    """The influence map after ``dilations`` dilations then ``erosions`` erosions (int32)."""
    (packed,), w = _passes(np.asarray(grid, dtype=np.int32) * STONE, dilations, (erosions,))
    return _unpack(packed, w)


def framed_influence_and_territory(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``influence`` and ``territory`` maps at once, framed by one point of zero and flattened
    (row stride ``size + 2``, ``np.intp``): both start with the same 5 dilations, and territory
    continues the influence map's erosions."""
    (d1, e1), (d2, e2) = INFLUENCE, TERRITORY
    values = np.asarray(grid, dtype=np.int32) * STONE
    if d1 == d2 and e1 <= e2:
        maps, _ = _passes(values, d1, (e1, e2))
    else:
        maps = [_passes(values, d, (e,))[0][0] for d, e in (INFLUENCE, TERRITORY)]
    # frame points hold state FRAME, whose sign is 0
    return tuple(_SIGN.take(m & 3) * (m >> 2) for m in maps)


def influence_and_territory(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``influence`` and ``territory`` maps (int32, (size, size)) at once."""
    w = np.asarray(grid).shape[0] + 2
    return tuple(m.reshape(w, w)[1:-1, 1:-1].astype(np.int32) for m in framed_influence_and_territory(grid))


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
    kernel = diamond(pattern)
    r = kernel.shape[0] // 2
    h, w = weight.shape
    framed = np.zeros((h + 2 * r, w + 2 * r))
    framed[r:r + h, r:r + w] = weight
    out = np.zeros_like(weight)
    for dy, dx in zip(*np.nonzero(kernel)):  # the kernel is symmetric: a correlation is the convolution
        out += kernel[dy, dx] * framed[dy:dy + h, dx:dx + w]
    return out
