"""GNU Go's life-and-death commands over GTP, answered by ``seog.reading.life``: ``owl_attack V``,
``owl_defend V`` (``0``, or the result code and the move: ``1 B2``; ``1 PASS`` when the group
lives as it stands), ``owl_does_attack M V`` / ``owl_does_defend M V`` (the code alone) and
``dragon_status V`` (``alive``, ``critical ATTACK DEFENCE`` or ``dead``).

``LifeCommands(gtp).table()`` gives the handlers, which ``GtpReferee`` registers."""

from __future__ import annotations

from collections.abc import Callable

from seog.features import coords
from seog.gtp.protocol import GtpFailure, stone, vertex
from seog.reading import life, tactics
from seog.reading.board import SearchBoard
from seog.reading.results import Code, Result, Status


class LifeCommands:
    """The life-and-death commands of one GTP front: ``gtp`` is its ``GtpReferee``, whose
    referee's board is read."""

    def __init__(self, gtp) -> None:
        self.gtp = gtp

    def table(self) -> dict[str, Callable[[list[str]], str]]:
        return {
            "owl_attack": self.owl_attack,
            "owl_defend": self.owl_defend,
            "owl_does_attack": self.owl_does_attack,
            "owl_does_defend": self.owl_does_defend,
            "dragon_status": self.dragon_status,
        }

    def owl_attack(self, args: list[str]) -> str:
        board, point = self._group(args, 0, "owl_attack VERTEX")
        return self._answer(life.owl_attack(board, point, self._nodes()))

    def owl_defend(self, args: list[str]) -> str:
        board, point = self._group(args, 0, "owl_defend VERTEX")
        return self._answer(life.owl_defend(board, point, self._nodes()))

    def owl_does_attack(self, args: list[str]) -> str:
        board, point = self._group(args, 1, "owl_does_attack MOVE VERTEX")
        return str(int(life.does_attack(board, self._move(args[0]), point, self._nodes())))

    def owl_does_defend(self, args: list[str]) -> str:
        board, point = self._group(args, 1, "owl_does_defend MOVE VERTEX")
        return str(int(life.does_defend(board, self._move(args[0]), point, self._nodes())))

    def dragon_status(self, args: list[str]) -> str:
        board, point = self._group(args, 0, "dragon_status VERTEX")
        verdict, attack, defence = life.status(board, point, self._nodes())
        if verdict != Status.CRITICAL:
            return verdict.value
        return f"critical {self._vertex(attack.move)} {self._vertex(defence.move)}"

    # ---- helpers ----------------------------------------------------------------------
    def _nodes(self) -> int:
        """The owl budget, doubled and halved with the tactical one (``increase_depths``...)."""
        scale = self.gtp.reading.nodes / tactics.DEFAULT_LIMITS.nodes
        return max(1, round(life.DEFAULT_LIMITS.nodes * scale))

    def _group(self, args: list[str], at: int, usage: str) -> tuple[SearchBoard, int]:
        board = self.gtp.referee.board
        return SearchBoard.from_board(board), stone(args, at, usage, board)

    def _move(self, word: str) -> int:
        point = vertex(word, self.gtp.referee.size)
        if point is None:
            raise GtpFailure("the move must not be pass")
        return point

    def _vertex(self, point: int | None) -> str:
        return "PASS" if point is None else coords.to_gtp(point, self.gtp.referee.size).upper()

    def _answer(self, result: Result) -> str:
        if result.code == Code.LOSS:
            return "0"
        return f"{int(result.code)} {self._vertex(result.move)}"
