"""Every coordinate system seog uses, and the only place that converts between them.

- **row, col**: 0-based, row 0 is the top edge (SGF row ``a``), col 0 the left edge.
- **flat**: an index into a board array padded with a one-point wall on every side,
  ``flat = (row + 1) * stride + (col + 1)`` with ``stride = size + 2``. The padding lets
  neighbour lookups run without bounds checks.
- **index**: ``row * size + col``, a position in the unpadded ``(size, size)`` grid; what the
  topology analyzer, the feature extractor and the scorer use, since they work on whole arrays.
- **SGF**: two lowercase letters, column then row (``"dd"``); ``""`` (and ``"tt"`` on boards
  up to 19) is a pass.
- **sgfmill**: (row counted from the bottom edge, col), the points sgfmill's nodes read and write.
- **GTP**: a column letter without ``I`` and a row number counted from the bottom (``"D4"``);
  ``"pass"`` is a pass.

Colours are small ints so that the other colour is a negation: BLACK = 1, WHITE = -1,
EMPTY = 0; BORDER marks the padding wall.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

BLACK, WHITE, EMPTY, BORDER = 1, -1, 0, 2
MIN_SIZE, MAX_SIZE = 2, 25
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
COLOR_NAMES = {BLACK: "black", WHITE: "white"}


class CoordinateError(ValueError):
    """A vertex or point that does not name a point of the board."""


def check_size(size: int) -> int:
    """Return ``size`` if seog can handle a board of that size, else raise ValueError."""
    if not isinstance(size, (int, np.integer)) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size!r} is not supported (must be {MIN_SIZE}..{MAX_SIZE})")
    return int(size)


def stride(size: int) -> int:
    return size + 2


def to_flat(row: int, col: int, size: int) -> int:
    return (row + 1) * (size + 2) + (col + 1)


def from_flat(point: int, size: int) -> tuple[int, int]:
    r, c = divmod(int(point), size + 2)
    return r - 1, c - 1


def on_board(row: int, col: int, size: int) -> bool:
    return 0 <= row < size and 0 <= col < size


def from_sgf(text: str, size: int) -> int | None:
    """Flat point of an SGF point such as ``"dd"``; None for a pass."""
    if text == "" or (text == "tt" and size <= 19):
        return None
    if len(text) != 2 or not text.isalpha():
        raise CoordinateError(f"bad SGF point {text!r}")
    col, row = ord(text[0].lower()) - 97, ord(text[1].lower()) - 97
    if not on_board(row, col, size):
        raise CoordinateError(f"SGF point {text!r} is off a {size}x{size} board")
    return to_flat(row, col, size)


@cache
def sgf_points(size: int) -> dict[bytes, int]:
    """Every SGF point of the board as written (``b"dd"``) -> its flat point, made once a size: a
    record's moves are looked up, and what is not there (a pass, a bad value) the SGF reader
    reads its own way."""
    return {bytes((97 + col, 97 + row)): to_flat(row, col, size) for row in range(size) for col in range(size)}


def from_sgfmill(rc: tuple[int, int], size: int) -> int:
    """Flat point of sgfmill's (row from the bottom, col)."""
    return to_flat(size - 1 - rc[0], rc[1], size)


def to_sgfmill(point: int, size: int) -> tuple[int, int]:
    """sgfmill's (row from the bottom, col) of a flat point."""
    row, col = from_flat(point, size)
    return size - 1 - row, col


def to_sgf(point: int | None, size: int) -> str:
    if point is None:
        return ""
    row, col = from_flat(point, size)
    return chr(97 + col) + chr(97 + row)


_GTP_VERTEX = re.compile(f"[{GTP_COLUMNS}][0-9]+")


def from_gtp(text: str, size: int) -> int | None:
    """Flat point of a GTP vertex such as ``"D4"``; None for ``pass``."""
    t = text.strip().upper()
    if t == "PASS":
        return None
    if not _GTP_VERTEX.fullmatch(t):  # ASCII digits only: str.isdigit() takes '²' and '٤'
        raise CoordinateError(f"bad GTP vertex {text!r}")
    col, number = GTP_COLUMNS.index(t[0]), int(t[1:])
    row = size - number
    if not on_board(row, col, size):
        raise CoordinateError(f"vertex {text!r} is off a {size}x{size} board")
    return to_flat(row, col, size)


def to_gtp(point: int | None, size: int) -> str:
    if point is None:
        return "pass"
    row, col = from_flat(point, size)
    return f"{GTP_COLUMNS[col]}{size - row}"


def rc_to_gtp(row: int, col: int, size: int) -> str:
    return f"{GTP_COLUMNS[col]}{size - row}"


@cache
def padded_neighbours(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """The four neighbours (up, left, right, down) of every flat point of the padded board, for
    point-by-point walks; the border's own entries may point off the array: no walk starts there."""
    s = size + 2
    return tuple((q - s, q - 1, q + 1, q + s) for q in range(s * s))


@cache
def adjacent(size: int) -> tuple[tuple[int, ...], ...]:
    """The on-board up, down, left and right neighbours of every grid index."""
    out = []
    for index in range(size * size):
        row, col = divmod(index, size)
        out.append(tuple(index + dr * size + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                         if on_board(row + dr, col + dc, size)))
    return tuple(out)


def index_to_flat(index: int, size: int) -> int:
    row, col = divmod(int(index), size)
    return to_flat(row, col, size)


def flat_to_index(point: int, size: int) -> int:
    row, col = from_flat(point, size)
    return row * size + col


def index_to_gtp(index: int, size: int) -> str:
    row, col = divmod(int(index), size)
    return f"{GTP_COLUMNS[col]}{size - row}"


def gtp_to_index(text: str, size: int) -> int | None:
    point = from_gtp(text, size)
    return None if point is None else flat_to_index(point, size)


def index_to_sgf(index: int, size: int) -> str:
    row, col = divmod(int(index), size)
    return chr(97 + col) + chr(97 + row)


def sgf_to_index(text: str, size: int) -> int | None:
    point = from_sgf(text, size)
    return None if point is None else flat_to_index(point, size)
