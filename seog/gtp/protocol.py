"""What every GTP command handler shares: the failure a handler raises, and the parsing of a
colour and of a vertex."""

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
