"""What every GTP command handler shares: the failure a handler raises, and the parsing of a
colour, of a vertex and of a stone to read."""

from __future__ import annotations

from seog.features import coords
from seog.features.coords import BLACK, WHITE


class GtpFailure(ValueError):
    """A command that fails; the message is the text after ``?``."""


def parse_color(text: str) -> int:
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise GtpFailure(f"syntax error: bad colour {text!r}")


def vertex(word: str, size: int) -> int | None:
    """The flat point of a GTP vertex (None for pass), or a GtpFailure naming the problem."""
    try:
        return coords.from_gtp(word, size)
    except coords.CoordinateError as exc:
        raise GtpFailure(f"syntax error: {exc}") from None


def stone(args: list[str], at: int, usage: str, board) -> int:
    """The flat point of the stone named by ``args[at]`` on ``board`` (a ``features.board.Board``):
    a GtpFailure for a missing word, a pass or an empty point, as GNU Go's reading commands answer."""
    if len(args) <= at:
        raise GtpFailure(f"syntax error: usage {usage}")
    point = vertex(args[at], board.size)
    if point is None:
        raise GtpFailure("vertex must not be pass")
    if board.stones[point] not in (BLACK, WHITE):
        raise GtpFailure("vertex must not be empty")
    return point
