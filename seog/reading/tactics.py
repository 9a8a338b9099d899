"""Tactical reading: can a block be captured with its opponent moving first (``attack``), can its
owner save it moving first (``defend``).

A depth-first search over a few candidate moves, with a transposition table keyed by the board's
Zobrist hash. The attacker's candidates: the block's liberties; the liberties of those liberties
while it has two (nets, geta), and near the start those of the friends it could join; the liberties
of the attacker's own blocks short of liberties beside it, and of the defender's blocks that
threaten them; at the first move, the liberties of every block of up to three liberties beside the
block and beside those. The defender's: captures and ataris of the
attacker's blocks beside it; its liberties; near the start, the liberties of its liberties and of
the friendly blocks it can join. That reads ladders, nets, snapbacks, throw-ins and escapes by
capture. A block with many liberties is safe, the more so the deeper the line (``Limits``). A line
that takes a ko wins at best by ko: each side may take a ko back once in a line, as after a threat
it does not play, and such a win is a ko in which it must find the first threat. A search that
runs out of nodes or depth judges the block by its liberties: taken in atari, safe with two or more.
"""

from __future__ import annotations

from dataclasses import dataclass

from seog.features.coords import EMPTY
from seog.reading.board import Block, SearchBoard
from seog.reading.results import Code, Result
from seog.reading.search import Search


@dataclass(frozen=True)
class Limits:
    """How far a tactical search reads.

    nodes: moves it may play in all (its budget).
    max_depth: the longest line, in moves.
    safe_liberties: a block with this many liberties is not attacked at all.
    four_liberty_depth: how many moves deep a block of four liberties is still attacked.
    three_liberty_depth: how many moves deep a block of three liberties is still attacked.
    wide_depth: how many moves deep the liberties of the liberties are tried.
    counter_depth: how many moves deep a defender short of liberties plays on the liberties of
        an attacker's block of three beside it.
    guard_depth: how many moves deep the attacker plays on the liberties of its own blocks of two
        liberties beside the block (those of one, always).
    cut_depth: how many moves deep the attacker plays on the liberties of the defender's blocks of
        one or two liberties that the block could join through a liberty.
    broad_depth: how many moves deep the attacker also plays on the liberties of every block of up
        to three liberties beside the block, and beside those.
    """

    nodes: int = 3000
    max_depth: int = 80
    safe_liberties: int = 5
    four_liberty_depth: int = 3
    three_liberty_depth: int = 3
    wide_depth: int = 1
    counter_depth: int = 1
    guard_depth: int = 1
    cut_depth: int = 1
    broad_depth: int = 1

    def safe(self, liberties: int, depth: int) -> bool:
        """Is a block of so many liberties out of reach this many moves into a line?"""
        return (liberties >= self.safe_liberties
                or (liberties == 4 and depth >= self.four_liberty_depth)
                or (liberties == 3 and depth >= self.three_liberty_depth))


DEFAULT_LIMITS = Limits()


def attack(board: SearchBoard, point: int, nodes: int | None = None, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Can the block at ``point`` be captured, its opponent moving first? The board is searched in
    place and left as it was."""
    return _Search(board, point, nodes, limits).attack_root()


def defend(board: SearchBoard, point: int, nodes: int | None = None, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Can the owner of the block at ``point`` save it, moving first? A block that cannot be
    captured anyway is saved (WIN) with the move that gives it the most liberties."""
    return _Search(board, point, nodes, limits).defend_root()


class _Search(Search):
    """One search about one block: can it be captured?"""

    def __init__(self, board: SearchBoard, point: int, nodes: int | None, limits: Limits) -> None:
        super().__init__(board, point, limits.nodes if nodes is None else nodes)
        self.limits = limits

    # ---- roots ------------------------------------------------------------------------
    def attack_root(self) -> Result:
        blk = self.board.block[self.anchor]
        if len(blk.libs) >= self.limits.safe_liberties:
            return Result(Code.LOSS)
        return self._attack(False, False)

    def defend_root(self) -> Result:
        blk = self.board.block[self.anchor]
        if len(blk.libs) < self.limits.safe_liberties:
            threat = self._attack(False, False)
            if threat.code != Code.LOSS:
                self.table.clear()
                return self._defend(False, False)
        moves = self._defence_moves(blk)
        return Result(Code.WIN, moves[0] if moves else None)

    # ---- the search ---------------------------------------------------------------------
    def _target(self) -> Block | None:
        """The block being read, or None once it is captured."""
        board = self.board
        return board.block[self.anchor] if board.color[self.anchor] == self.defender else None

    def _out_of_reach(self) -> bool:
        return self.nodes >= self.budget or self.board.depth() - self.start >= self.limits.max_depth

    def _attack(self, attacker_took_back: bool, defender_took_back: bool) -> Result:
        """The attacker to move: can it capture the target?"""
        board, blk = self.board, self._target()
        libs = len(blk.libs)
        fallback = Result(Code.LOSS)  # a capture by ko, while a plain one is looked for
        if libs == 1:
            (last,) = blk.libs
            if board.try_play(self.attacker, last):
                self.nodes += 1
                made_ko = board.ko is not None
                board.undo()
                if not made_ko:
                    return Result(Code.WIN, last)
                fallback = Result(Code.KO_A, last)
            elif last == board.ko and not attacker_took_back:
                fallback = Result(Code.KO_B, last)
        depth = board.depth() - self.start
        if self.limits.safe(libs, depth):
            return fallback
        if self._out_of_reach():
            self.cut += 1
            return fallback

        def reply(took_back: bool) -> Code:
            if self._target() is None:
                return Code.WIN
            return self._defend(attacker_took_back or took_back, defender_took_back).code.reversed()

        return self.tabled((board.key(self.attacker), attacker_took_back, defender_took_back),
                           lambda: self.best_move(self.attacker, self._attack_moves(blk, depth), fallback,
                                                  attacker_took_back, True, reply))

    def _defend(self, attacker_took_back: bool, defender_took_back: bool) -> Result:
        """The defender to move: can it save the target?"""
        board, blk = self.board, self._target()
        libs = len(blk.libs)
        depth = board.depth() - self.start
        if self.limits.safe(libs, depth):
            return Result(Code.WIN)
        if self._out_of_reach():
            self.cut += 1
            return Result(Code.WIN if libs > 1 else Code.LOSS)

        def reply(took_back: bool) -> Code:
            return self._attack(attacker_took_back, defender_took_back or took_back).code.reversed()

        return self.tabled((board.key(self.defender), attacker_took_back, defender_took_back),
                           lambda: self.best_move(self.defender, self._defence_moves(blk, depth), Result(Code.LOSS),
                                                  defender_took_back, True, reply))

    # ---- candidate moves ----------------------------------------------------------------
    def _attack_moves(self, blk: Block, depth: int) -> list[int]:
        """The attacker's tries, the most promising first: the target's liberties, the liberties
        of those liberties while it has two (nets), the liberties of the attacker's blocks short of
        liberties beside it and of the defender's blocks that threaten them (saving them before
        the defender escapes by taking them); at the first move, those of the blocks of up to
        three liberties around."""
        board = self.board
        color, around = board.color, board.neighbours
        moves = list(blk.libs)
        if len(blk.libs) == 2 or depth < self.limits.wide_depth:
            blocks, own = board.block, blk.color
            for lib in blk.libs:
                for q in around[lib]:
                    if color[q] == EMPTY and q not in moves:
                        moves.append(q)
                    elif (color[q] == own and blocks[q] is not blk and len(blocks[q].libs) <= 2
                          and depth < self.limits.cut_depth):  # a block it could join there
                        for far in blocks[q].libs:
                            if far not in moves:
                                moves.append(far)
        for nb in _neighbour_blocks(board, blk):
            if len(nb.libs) == 1 or (len(nb.libs) == 2 and depth < self.limits.guard_depth):
                for lib in nb.libs:
                    if lib not in moves:
                        moves.append(lib)
                for threat in _neighbour_blocks(board, nb):  # shorten those that threaten it
                    if threat is not blk and len(threat.libs) <= len(nb.libs) + 1 and depth < self.limits.guard_depth:
                        for lib in threat.libs:
                            if lib not in moves:
                                moves.append(lib)
        if depth < self.limits.broad_depth:
            for nb in _neighbour_blocks(board, blk):
                if len(nb.libs) <= 3:
                    moves += [q for q in nb.libs if q not in moves]
                for far in _neighbour_blocks(board, nb):
                    if far is not blk and len(far.libs) <= 3:
                        moves += [q for q in far.libs if q not in moves]
        attacker = self.attacker
        libs_of_target = blk.libs

        def order(move: int) -> tuple:
            own = board.liberties_after(attacker, move)
            left = len(libs_of_target) - (move in libs_of_target)
            return (own < 2, left, -own)

        moves.sort(key=order)
        return moves

    def _defence_moves(self, blk: Block, depth: int = 0) -> list[int]:
        """The defender's tries, the most promising first: captures and ataris of the attacker's
        blocks around it, its own liberties, and near the start the liberties of its liberties and
        of the friendly blocks it can join through one."""
        board = self.board
        color, around = board.color, board.neighbours
        moves: list[int] = []
        libs = len(blk.libs)
        for nb in _neighbour_blocks(board, blk):
            if len(nb.libs) <= 2 or (len(nb.libs) == 3 and libs <= 2 and depth < self.limits.counter_depth):
                for lib in nb.libs:
                    if lib not in moves:
                        moves.append(lib)
        for lib in blk.libs:
            if lib not in moves:
                moves.append(lib)
        if depth < self.limits.wide_depth:
            blocks, own = board.block, blk.color
            for lib in list(blk.libs):
                for q in around[lib]:
                    if color[q] == EMPTY and q not in moves:
                        moves.append(q)
                    elif color[q] == own and blocks[q] is not blk:  # a block it can join there
                        for far in blocks[q].libs:
                            if far not in moves:
                                moves.append(far)
        defender = self.defender

        def order(move: int) -> tuple:
            gain = board.liberties_after(defender, move)
            takes = bool(board.captures_of(defender, move))
            return (not takes and gain < 2, -gain)

        moves.sort(key=order)
        return moves


def _neighbour_blocks(board: SearchBoard, blk: Block) -> list[Block]:
    """The opponent's blocks touching ``blk``."""
    out: list[Block] = []
    color, around, blocks = board.color, board.neighbours, board.block
    enemy = -blk.color
    for s in blk.stones:
        for q in around[s]:
            if color[q] == enemy:
                nb = blocks[q]
                if nb not in out:
                    out.append(nb)
    return out
