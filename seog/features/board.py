"""A Go board as one flat, padded int8 array, and the rules for playing a move on it.

The array holds BLACK, WHITE, EMPTY and a BORDER wall around the board (see ``coords``),
so that the four neighbours of any board point are ``p + offset`` with no bounds checks.
``Board.grid`` is the unpadded 2-D view that array code (labels, shifts) works on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from seog.features import coords
from seog.features.coords import BLACK, BORDER, EMPTY, WHITE


class IllegalMove(ValueError):
    """A move the rules forbid: an occupied point, suicide (where the rules forbid it), or
    retaking a ko at once."""


class IllegalPosition(ValueError):
    """A position that cannot arise in a game, e.g. a block with no liberties."""


@dataclass
class Board:
    """The stones of a position, with the ko point and the prisoners taken so far.

    Public attributes:
      size: board size (2..25).
      stones: flat padded int8 array of colours (``coords`` layout).
      ko: flat point that the side to move may not play at once, or None.
      prisoners: stones captured so far, ``{BLACK: taken by black, WHITE: taken by white}``.
    """

    size: int
    stones: np.ndarray = field(default=None, repr=False)
    ko: int | None = None
    prisoners: dict = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    _view: memoryview | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        coords.check_size(self.size)
        if self.stones is None:
            s = self.size + 2
            grid = np.full((s, s), BORDER, dtype=np.int8)
            grid[1:-1, 1:-1] = EMPTY
            self.stones = grid.ravel()

    # ---- construction -------------------------------------------------------------
    @classmethod
    def from_grid(cls, grid: np.ndarray) -> Board:
        """A board whose stones are the given (size, size) array of colours."""
        grid = np.asarray(grid)
        if grid.ndim != 2 or grid.shape[0] != grid.shape[1]:
            raise IllegalPosition(f"a board must be square, got shape {grid.shape}")
        board = cls(grid.shape[0])
        if not np.isin(grid, (BLACK, WHITE, EMPTY)).all():
            raise IllegalPosition("board values must be 1 (black), -1 (white) or 0 (empty)")
        board.grid[:] = grid
        return board

    @classmethod
    def from_rows(cls, rows: list[str] | str) -> Board:
        """A board from text rows, top row first: ``X``/``B`` black, ``O``/``W`` white, ``.``/``+`` empty.

        Whitespace between points is ignored, so both ``"X.O"`` and ``"X . O"`` read the same.
        """
        if isinstance(rows, str):
            rows = [r for r in rows.strip().splitlines() if r.strip()]
        table = {"X": BLACK, "B": BLACK, "x": BLACK, "O": WHITE, "W": WHITE, "o": WHITE,
                 ".": EMPTY, "+": EMPTY, "-": EMPTY}
        parsed = []
        for i, row in enumerate(rows):
            chars = [ch for ch in row if not ch.isspace()]
            bad = [ch for ch in chars if ch not in table]
            if bad:
                raise IllegalPosition(f"row {i + 1}: unknown board character {bad[0]!r}")
            parsed.append([table[ch] for ch in chars])
        size = len(parsed)
        coords.check_size(size)
        for i, row in enumerate(parsed):
            if len(row) != size:
                raise IllegalPosition(f"row {i + 1} has {len(row)} points, expected {size}")
        return cls.from_grid(np.array(parsed, dtype=np.int8))

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_view": None}  # a memoryview does not pickle

    def copy(self) -> Board:
        return Board(self.size, self.stones.copy(), self.ko, dict(self.prisoners))

    # ---- views ------------------------------------------------------------------------
    @property
    def grid(self) -> np.ndarray:
        """(size, size) view of the stones, row 0 at the top; writing to it writes the board."""
        s = self.size + 2
        return self.stones.reshape(s, s)[1:-1, 1:-1]

    def to_rows(self) -> list[str]:
        chars = {BLACK: "X", WHITE: "O", EMPTY: "."}
        return ["".join(chars[int(v)] for v in row) for row in self.grid]

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    # ---- play -------------------------------------------------------------------------
    def _block_and_liberty(self, stones, start: int) -> tuple[list[int], bool]:
        """The block at ``start`` and whether it has at least one liberty (stops early)."""
        color, around = stones[start], coords.padded_neighbours(self.size)
        found, seen, stack = [], {start}, [start]
        while stack:
            p = stack.pop()
            found.append(p)
            for q in around[p]:
                v = stones[q]
                if v == EMPTY:
                    return found, True
                if v == color and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return found, False

    def view(self) -> memoryview:
        """The stones as a memoryview, which reads and writes them as plain ints, several times
        faster than numpy's scalar indexing in point-by-point loops; made again only when
        ``stones`` is another array."""
        view = self._view
        if view is None or view.obj is not self.stones:
            self.stones = np.ascontiguousarray(self.stones)
            view = self._view = memoryview(self.stones)
        return view

    def play(self, color: int, point: int | None, suicide: bool = False) -> int:
        """Play ``color`` at flat ``point`` (None passes); return the number of stones captured.

        With ``suicide`` (New Zealand and Tromp-Taylor rules) a move that leaves its own block
        without a liberty takes that block off, as the opponent's prisoners; without it such a move
        raises IllegalMove, as do an occupied point and an immediate ko recapture.
        """
        if point is None:
            self.ko = None
            return 0
        stones = self.view()
        if stones[point] != EMPTY:
            raise IllegalMove("the point is occupied")
        if point == self.ko:
            raise IllegalMove("it retakes a ko at once")
        stones[point] = color
        captured: list[int] = []
        around = coords.padded_neighbours(self.size)
        near = around[point]
        for q in near:
            if stones[q] == -color and q not in captured:
                a, b, c, d = around[q]
                if not (stones[a] and stones[b] and stones[c] and stones[d]):
                    continue  # a liberty next to the stone itself: most neighbours, no walk
                block, free = self._block_and_liberty(stones, q)
                if not free:
                    captured.extend(block)  # without a liberty the walk covered the whole block
        if captured:
            self.stones[captured] = EMPTY
            self.prisoners[color] += len(captured)
        elif stones[near[0]] and stones[near[1]] and stones[near[2]] and stones[near[3]]:
            block, free = self._block_and_liberty(stones, point)
            if not free:
                if not suicide:
                    stones[point] = EMPTY
                    raise IllegalMove("it is suicide")
                self.stones[block] = EMPTY  # without a liberty the walk covered the whole block
                self.prisoners[-color] += len(block)
                self.ko = None
                return 0
        # A single stone that captured exactly one stone and now has one liberty makes a ko.
        self.ko = None
        if len(captured) == 1:
            if all(stones[q] in (-color, BORDER) or q == captured[0] for q in near):
                self.ko = captured[0]
        return len(captured)

    def place(self, color: int, point: int) -> None:
        """Put a setup stone (SGF AB/AW/AE) without captures or ko."""
        self.stones[point] = color
        self.ko = None
