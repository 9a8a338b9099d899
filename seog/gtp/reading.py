"""GNU Go's reading commands over GTP, answered by ``seog.reading``: ``attack V``, ``defend V``
(``0``, or the result code and the move: ``1 B2``), ``trymove COLOUR V`` / ``popgo`` (a move
tried on a stack, and taken back), ``black V`` / ``white V`` (GNU Go's old play commands),
``increase_depths`` / ``decrease_depths`` (double or halve the node budget).

``ReadingCommands(gtp).table()`` gives the handlers, which ``GtpReferee`` registers."""

from __future__ import annotations

from collections.abc import Callable

from seog.features import coords
from seog.features.board import IllegalMove
from seog.features.coords import BLACK, WHITE
from seog.gtp.protocol import GtpFailure, parse_color, stone, vertex
from seog.reading import tactics
from seog.reading.board import SearchBoard
from seog.reading.results import Code, Result


class ReadingCommands:
    """The reading commands of one GTP front: ``gtp`` is its ``GtpReferee`` (its referee's board
    is read; ``trymove`` and ``popgo`` play and take back moves on it)."""

    def __init__(self, gtp) -> None:
        self.gtp = gtp
        self.nodes = tactics.DEFAULT_LIMITS.nodes
        self.tried = 0  # moves of trymove on the referee, that popgo may take back

    def table(self) -> dict[str, Callable[[list[str]], str]]:
        return {
            "attack": self.attack,
            "defend": self.defend,
            "trymove": self.trymove,
            "popgo": self.popgo,
            "black": lambda a: self._play_as(BLACK, a, "black VERTEX"),
            "white": lambda a: self._play_as(WHITE, a, "white VERTEX"),
            "increase_depths": self.increase_depths,
            "decrease_depths": self.decrease_depths,
        }

    def reset(self) -> None:
        """A new position (loadsgf, clear_board): no tried moves to take back."""
        self.tried = 0

    # ---- tactics ------------------------------------------------------------------------
    def attack(self, args: list[str]) -> str:
        board, point = self._block(args, "attack VERTEX")
        return self._answer(tactics.attack(board, point, nodes=self.nodes))

    def defend(self, args: list[str]) -> str:
        board, point = self._block(args, "defend VERTEX")
        return self._answer(tactics.defend(board, point, nodes=self.nodes))

    def increase_depths(self, args: list[str]) -> str:
        self.nodes *= 2
        return ""

    def decrease_depths(self, args: list[str]) -> str:
        self.nodes = max(self.nodes // 2, 1)
        return ""

    # ---- moves ------------------------------------------------------------------------
    def trymove(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpFailure("syntax error: usage trymove COLOUR VERTEX")
        self._play(parse_color(args[0]), args[1])
        self.tried += 1
        return ""

    def popgo(self, args: list[str]) -> str:
        if not self.tried:
            raise GtpFailure("Stack empty.")
        self.gtp.referee.undo()
        self.tried -= 1
        return ""

    def _play_as(self, color: int, args: list[str], usage: str) -> str:
        if not args:
            raise GtpFailure(f"syntax error: usage {usage}")
        self._play(color, args[0])
        return ""

    def _play(self, color: int, word: str) -> None:
        point = vertex(word, self.gtp.referee.size)
        try:
            self.gtp.referee.play(color, point, superko=False)
        except IllegalMove:
            raise GtpFailure("illegal move") from None

    # ---- helpers ----------------------------------------------------------------------
    def _block(self, args: list[str], usage: str) -> tuple[SearchBoard, int]:
        board = self.gtp.referee.board
        return SearchBoard.from_board(board), stone(args, 0, usage, board)

    def _answer(self, result: Result) -> str:
        if result.code == Code.LOSS:
            return "0"
        return f"{int(result.code)} {coords.to_gtp(result.move, self.gtp.referee.size).upper()}"
