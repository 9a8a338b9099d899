"""A Go board made for search: play and undo in place, blocks with their liberties kept as moves
are played, Zobrist hashing and simple ko.

The points are the flat padded points of ``seog.features.coords`` (a wall around the board), so a
point means the same here as on the analysis board ``seog.features.board.Board``. The board is
plain Python lists, not numpy: one move at a time, a list index is several times faster than an
array's scalar access (``benchmarks/bench_search_board.py``).

A block is a ``Block`` record (colour, stones, liberties). A move joins the largest block beside
it in place, and the stones of the other blocks it joins move into that one; every change (the
stones and liberties it adds, an opponent's block losing a liberty, a block gaining the points of
a capture) is written on the undo stack, so that taking the move back costs what playing it did.
"""

from __future__ import annotations

import random
from functools import cache

from seog.features import coords
from seog.features.board import Board, IllegalMove, IllegalPosition
from seog.features.coords import BLACK, BORDER, EMPTY, WHITE

ZOBRIST_SEED = 47


class Block:
    """A block of stones of one colour: its stones (flat points) and its liberties (a set)."""

    __slots__ = ("color", "stones", "libs")

    def __init__(self, color: int, stones: list[int], libs: set[int]) -> None:
        self.color = color
        self.stones = stones
        self.libs = libs

    def __repr__(self) -> str:
        return f"Block({self.color}, {len(self.stones)} stones, {len(self.libs)} liberties)"


def _size(blk: Block) -> int:
    return len(blk.stones)


@cache
def zobrist_table(size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """64-bit random keys of a black and of a white stone on each flat point, from a fixed seed
    so that hashes are the same in every process."""
    rng = random.Random(ZOBRIST_SEED * 100 + size)
    points = (size + 2) ** 2
    return (tuple(rng.getrandbits(64) for _ in range(points)),
            tuple(rng.getrandbits(64) for _ in range(points)))


class SearchBoard:
    """A position to search: ``play`` and ``undo`` change it in place.

    Public attributes:
      size: board size.
      color: list over the flat padded points: BLACK, WHITE, EMPTY or BORDER.
      block: list over the flat points: the ``Block`` of the stone there, or None.
      hash: Zobrist hash of the stones (the ko point is not in it; see ``key``).
      ko: the point the side to move may not take at once, or None.
      captures: stones captured so far, ``{BLACK: taken by black, WHITE: taken by white}``.
      neighbours: the four neighbours of each flat point (``coords.padded_neighbours``).
      points: the flat points of the board, in order.
    """

    def __init__(self, size: int) -> None:
        self.size = coords.check_size(size)
        stride = size + 2
        self.color = [BORDER] * (stride * stride)
        self.points = tuple(coords.to_flat(r, c, size) for r in range(size) for c in range(size))
        for p in self.points:
            self.color[p] = EMPTY
        self.block: list[Block | None] = [None] * (stride * stride)
        self.neighbours = coords.padded_neighbours(size)
        self._keys = {BLACK: zobrist_table(size)[0], WHITE: zobrist_table(size)[1]}
        self.hash = 0
        self.ko: int | None = None
        self.captures = {BLACK: 0, WHITE: 0}
        self.played = 0  # moves played in all (undone or not): what every search on the board costs
        self._undo: list[tuple] = []

    # ---- construction -------------------------------------------------------------
    @classmethod
    def from_board(cls, board: Board) -> SearchBoard:
        """The search board of an analysis board: its stones and its ko point."""
        out = cls(board.size)
        stones = board.stones.tolist()
        for p in out.points:
            if stones[p] in (BLACK, WHITE):
                out.color[p] = stones[p]
                out.hash ^= out._keys[stones[p]][p]
        for p in out.points:
            if out.color[p] in (BLACK, WHITE) and out.block[p] is None:
                out._label(p)
        out.ko = board.ko
        return out

    @classmethod
    def from_rows(cls, rows: list[str] | str) -> SearchBoard:
        """A board from text rows (``Board.from_rows``: X black, O white, . empty)."""
        return cls.from_board(Board.from_rows(rows))

    def _label(self, start: int) -> None:
        """Make the block of the stone at ``start`` from scratch (when a board is built)."""
        color, around = self.color[start], self.neighbours
        stones, libs, seen, todo = [], set(), {start}, [start]
        while todo:
            p = todo.pop()
            stones.append(p)
            for q in around[p]:
                v = self.color[q]
                if v == EMPTY:
                    libs.add(q)
                elif v == color and q not in seen:
                    seen.add(q)
                    todo.append(q)
        if not libs:
            raise IllegalPosition(f"the block at {coords.to_gtp(start, self.size)} has no liberty")
        blk = Block(color, stones, libs)
        for p in stones:
            self.block[p] = blk

    def to_board(self) -> Board:
        """The analysis board of this position (stones and ko point)."""
        board = Board(self.size)
        for p in self.points:
            if self.color[p] != EMPTY:
                board.stones[p] = self.color[p]
        board.ko = self.ko
        return board

    def to_rows(self) -> list[str]:
        chars = {BLACK: "X", WHITE: "O", EMPTY: "."}
        s = self.size
        return ["".join(chars[self.color[coords.to_flat(r, c, s)]] for c in range(s)) for r in range(s)]

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    # ---- questions ----------------------------------------------------------------
    def key(self, to_move: int) -> int:
        """A transposition key: the stones, the ko point and the side to move."""
        return self.hash ^ (self.ko or 0) * 0x9E3779B97F4A7C15 ^ (to_move & 3)

    def depth(self) -> int:
        """How many moves (passes included) are on the undo stack."""
        return len(self._undo)

    def is_legal(self, color: int, point: int, ignore_ko: bool = False) -> bool:
        """Can ``color`` play at ``point``: empty, not the ko point (unless ``ignore_ko``), not suicide."""
        if self.color[point] != EMPTY or (point == self.ko and not ignore_ko):
            return False
        for q in self.neighbours[point]:
            v = self.color[q]
            if v == EMPTY:
                return True
            if v == BORDER:
                continue
            libs = len(self.block[q].libs)
            if (v == color) == (libs > 1):  # a friend with another liberty, or a capture
                return True
        return False

    def captures_of(self, color: int, point: int) -> list[Block]:
        """The opponent's blocks a move of ``color`` at ``point`` would capture."""
        out: list[Block] = []
        for q in self.neighbours[point]:
            if self.color[q] == -color:
                blk = self.block[q]
                if len(blk.libs) == 1 and blk not in out:
                    out.append(blk)
        return out

    def liberties_after(self, color: int, point: int) -> int:
        """How many liberties the block of a move of ``color`` at ``point`` would have (captures
        counted), without playing it."""
        colors, blocks, around = self.color, self.block, self.neighbours
        opp = -color
        empties: list[int] = []
        joined: list[Block] = []
        taken: list[Block] = []
        for q in around[point]:
            v = colors[q]
            if v == EMPTY:
                empties.append(q)
            elif v == color:
                blk = blocks[q]
                if blk not in joined:
                    joined.append(blk)
            elif v == opp:
                blk = blocks[q]
                if len(blk.libs) == 1 and blk not in taken:
                    taken.append(blk)
        if not joined and not taken:  # a lone stone: its empty neighbours
            return len(empties)
        libs = set(empties)
        for blk in joined:
            libs |= blk.libs
        for blk in taken:  # a captured stone is a liberty where it touches the new block
            for q in blk.stones:
                if point in around[q] or any(blocks[n] in joined for n in around[q]):
                    libs.add(q)
        libs.discard(point)
        return len(libs)

    # ---- play and undo --------------------------------------------------------------
    def play(self, color: int, point: int | None, ignore_ko: bool = False) -> int:
        """Play ``color`` at ``point`` (None passes); return the stones captured. Raises
        IllegalMove (the board unchanged) for an occupied point, suicide or a ko retaken at once
        (``ignore_ko`` allows that: a search takes a ko back after a threat it does not play)."""
        if not self.try_play(color, point, ignore_ko):
            raise IllegalMove(f"{coords.to_gtp(point, self.size)} is not legal for "
                              f"{coords.COLOR_NAMES.get(color, color)}")
        return sum(len(blk.stones) for blk in self._undo[-1][7])

    def try_play(self, color: int, point: int | None, ignore_ko: bool = False) -> bool:
        """Play the move if it is legal and say whether it was played."""
        if point is None:
            self._undo.append((None, color, None, 0, (), (), (), (), (), self.ko, self.hash))
            self.ko = None
            self.played += 1
            return True
        colors, blocks, around = self.color, self.block, self.neighbours
        if colors[point] != EMPTY or (point == self.ko and not ignore_ko):
            return False
        friends: list[Block] = []
        enemies: list[Block] = []
        empties: list[int] = []
        legal = False
        for q in around[point]:
            v = colors[q]
            if v == EMPTY:
                empties.append(q)
                legal = True
            elif v == color:
                blk = blocks[q]
                if blk not in friends:
                    friends.append(blk)
                    legal = legal or len(blk.libs) > 1
            elif v != BORDER:
                blk = blocks[q]
                if blk not in enemies:
                    enemies.append(blk)
                    legal = legal or len(blk.libs) == 1
        if not legal:
            return False
        self.played += 1
        # The move joins the largest friendly block in place; the others' stones move into it.
        added: list[int] = []
        if friends:
            if len(friends) == 1:
                base, merged = friends[0], ()
            else:
                base = max(friends, key=_size)
                merged = [blk for blk in friends if blk is not base]
            before = len(base.stones)
            libs = base.libs
            libs.discard(point)
            base.stones.append(point)
            for blk in merged:
                base.stones += blk.stones
                for q in blk.stones:
                    blocks[q] = base
                for q in blk.libs:
                    if q not in libs and q != point:
                        libs.add(q)
                        added.append(q)
            for q in empties:
                if q not in libs:
                    libs.add(q)
                    added.append(q)
        else:
            base, merged, before = Block(color, [point], set(empties)), [], -1
        blocks[point] = base
        colors[point] = color
        old_hash = self.hash
        keys = self._keys
        self.hash ^= keys[color][point]
        captured: list[Block] = []
        gains: list[tuple[Block, int]] = []
        for blk in enemies:
            blk.libs.discard(point)
            if not blk.libs:
                captured.append(blk)
                other = keys[blk.color]
                for q in blk.stones:
                    colors[q] = EMPTY
                    blocks[q] = None
                    self.hash ^= other[q]
                for q in blk.stones:
                    for n in around[q]:
                        if colors[n] == color:
                            nb = blocks[n]
                            if q not in nb.libs:
                                nb.libs.add(q)
                                gains.append((nb, q))
        old_ko = self.ko
        self.ko = None
        if (before < 0 and len(captured) == 1 and len(captured[0].stones) == 1
                and len(base.libs) == 1):
            self.ko = captured[0].stones[0]
        if captured:
            self.captures[color] += sum(len(b.stones) for b in captured)
        self._undo.append((point, color, base, before, merged, added, enemies, captured, gains,
                           old_ko, old_hash))
        return True

    def undo(self) -> None:
        """Take back the last move (or pass)."""
        (point, color, base, before, merged, added, enemies, captured, gains,
         old_ko, old_hash) = self._undo.pop()
        self.ko, self.hash = old_ko, old_hash
        if point is None:
            return
        colors, blocks = self.color, self.block
        for blk, q in gains:
            blk.libs.discard(q)
        for blk in captured:
            self.captures[color] -= len(blk.stones)
            for q in blk.stones:
                colors[q] = blk.color
                blocks[q] = blk
        for blk in enemies:
            blk.libs.add(point)
        colors[point] = EMPTY
        blocks[point] = None
        if before >= 0:
            del base.stones[before:]
            libs = base.libs
            for q in added:
                libs.discard(q)
            libs.add(point)
            for blk in merged:
                for q in blk.stones:
                    blocks[q] = blk

    def last_captured(self) -> list[int]:
        """The stones the last move took (none after a pass or an empty undo stack)."""
        if not self._undo:
            return []
        return [q for blk in self._undo[-1][7] for q in blk.stones]

    def last_move(self) -> tuple[int, int | None] | None:
        """(colour, point) of the last move on the undo stack, or None."""
        if not self._undo:
            return None
        return self._undo[-1][1], self._undo[-1][0]

