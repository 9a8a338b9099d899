"""What every search about one stone's group or block shares: the board it plays on, the sides,
the node budget and the table of positions read, and its loop over the side to move's moves.

``tactics._Search`` (can a block be captured) and ``life._Owl`` (can a group be killed) are each a
``Search`` with their own candidate moves and leaves.
"""

from __future__ import annotations

from collections.abc import Callable

from seog.features.coords import BLACK, WHITE
from seog.reading.board import SearchBoard
from seog.reading.results import Code, Result


class Search:
    """The board (played on and undone in place), the stone read (``anchor``) and its owner
    (``defender``), the budget of moves played, the lines cut short (``cut``), the table."""

    def __init__(self, board: SearchBoard, point: int, budget: int) -> None:
        if board.color[point] not in (BLACK, WHITE):
            raise ValueError("there is no stone at that point to read")
        self.board = board
        self.anchor = point
        self.defender = board.color[point]
        self.attacker = -self.defender
        self.budget = budget
        self.nodes = 0
        self.cut = 0  # how often a line was judged short of its end (budget or depth)
        self.table: dict[tuple, Result] = {}
        # what a subclass derives from a position (a group's eyes), by a key of its own: the same
        # position is met again through transpositions
        self.facts: dict[tuple, object] = {}
        self.start = board.depth()

    def tabled(self, key: tuple, read: Callable[[], Result]) -> Result:
        """The result of the position ``key`` from the table, or ``read()``, stored there when no
        line of it was cut short (a cut line's result stands only for the budget it had)."""
        known = self.table.get(key)
        if known is not None:
            return known
        cut_before = self.cut
        best = read()
        if self.cut == cut_before:
            self.table[key] = best
        return best

    def best_move(self, colour: int, moves: list[int | None], best: Result, took_back_before: bool,
                  ko_caps: bool, reply: Callable[[bool], Code]) -> Result:
        """The best of ``moves`` for ``colour`` (None a pass), from ``best`` up: each played (a ko
        taken back at once only where ``colour`` has not yet in this line) and answered by
        ``reply(took_back)``, the code for ``colour``. A win that takes a ko back is a ko's win at
        best (KO_B), and so is one that makes a ko (KO_A) where ``ko_caps``."""
        board = self.board
        for move in moves:
            took_back = False
            if move is None:
                board.try_play(colour, None)
            elif not board.try_play(colour, move):
                if move != board.ko or took_back_before or not board.try_play(colour, move, True):
                    continue
                took_back = True
            self.nodes += 1
            made_ko = move is not None and board.ko is not None
            code = reply(took_back)
            board.undo()
            if took_back:
                code = code.capped(Code.KO_B)
            elif made_ko and ko_caps:
                code = code.capped(Code.KO_A)
            if code.strength > best.code.strength:
                best = Result(code, move)
                if code == Code.WIN:
                    break
        return best
