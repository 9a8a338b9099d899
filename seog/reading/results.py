"""What a search answers: a result code (GNU Go's codes, so that its suites read our answers) and
the move that gets it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum


class Code(IntEnum):
    """The outcome of a search for the side that moves first, as GNU Go's GTP prints it."""

    LOSS = 0  # the side moving first fails
    WIN = 1  # it succeeds outright
    KO_A = 2  # it succeeds by a ko in which it takes first
    KO_B = 3  # it succeeds by a ko in which it must first find a threat

    @property
    def strength(self) -> int:
        """How good the code is for the side that gets it: WIN > KO_A > KO_B > LOSS."""
        return _STRENGTH[self]

    def reversed(self) -> Code:
        """The same outcome told from the other side: its win is our loss, its ko that it takes
        first is a ko in which we must find the first threat."""
        return _REVERSED[self]

    def capped(self, worst: Code) -> Code:
        """This code, made no better than ``worst`` (a line that takes a ko wins at best by ko)."""
        return worst if self.strength > worst.strength else self


_STRENGTH = {Code.LOSS: 0, Code.KO_B: 1, Code.KO_A: 2, Code.WIN: 3}
_REVERSED = {Code.LOSS: Code.WIN, Code.WIN: Code.LOSS, Code.KO_A: Code.KO_B, Code.KO_B: Code.KO_A}


class Status(Enum):
    """A group's status as GNU Go's ``dragon_status`` names it."""

    ALIVE = "alive"  # no kill
    CRITICAL = "critical"  # who moves first decides
    DEAD = "dead"  # no life


@dataclass(frozen=True)
class Result:
    """A search's answer: the code and the move that gets it (None: no move, or none needed)."""

    code: Code
    move: int | None = None

    @property
    def succeeds(self) -> bool:
        return self.code != Code.LOSS
