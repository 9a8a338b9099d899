"""Results in SGF RE form: ``B+3.5``, ``W+0.5``, ``0`` for jigo, ``B+R`` for a resignation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True)
class Result:
    """A parsed RE value: ``winner`` 'B', 'W', '0' (jigo) or '' (void/unknown); ``margin`` in points
    for a counted game (positive: Black ahead), else None; ``how`` 'count', 'resign', 'time',
    'forfeit', 'draw' or 'unknown'."""

    winner: str
    margin: float | None
    how: str

    @property
    def counted(self) -> bool:
        return self.margin is not None


def format_result(margin: float) -> str:
    """RE text for Black's margin: 3.5 -> 'B+3.5', -0.5 -> 'W+0.5', 0 -> '0'; 3.0 -> 'B+3'."""
    if margin == 0:
        return "0"
    value = abs(margin)
    text = str(int(value)) if float(value).is_integer() else f"{value:g}"
    return f"{'B' if margin > 0 else 'W'}+{text}"


def parse_result(text: str) -> Result:
    """Read an RE value as written by servers (``B+6.50``, ``W+Resign``, ``Jigo``, ``Draw``, ``0``)."""
    t = (text or "").strip()
    low = t.lower()
    if low in ("0", "jigo", "draw", "d", "b+0", "w+0"):
        return Result("0", 0.0, "count")
    if len(t) >= 2 and t[0].upper() in "BW" and t[1] == "+":
        winner, rest = t[0].upper(), t[2:].strip().lower()
        if rest in ("r", "resign", "resignation"):
            return Result(winner, None, "resign")
        if rest in ("t", "time", "timeout"):
            return Result(winner, None, "time")
        if rest in ("f", "forfeit"):
            return Result(winner, None, "forfeit")
        try:
            value = float(rest)
        except ValueError:
            return Result(winner, None, "unknown")
        if math.isnan(value):
            return Result(winner, None, "unknown")
        return Result(winner, value if winner == "B" else -value, "count")
    return Result("", None, "unknown")


def decided_otherwise(text: str) -> bool:
    """Was the game decided without a count (resignation, time, forfeit, or void: a game stopped
    before its end)? Its final position is then not a finished one."""
    return parse_result(text).how in ("resign", "time", "forfeit") or (text or "").strip().lower() == "void"


def same_result(a: str, b: str) -> bool:
    """Two RE values name the same counted outcome (``B+6.50`` equals ``B+6.5``)."""
    ra, rb = parse_result(a), parse_result(b)
    return ra.counted and rb.counted and ra.margin == rb.margin


class FitOutcome(StrEnum):
    """What a record's counted result did to the reading (``scoring.fit``); the value is the word
    the answers carry."""

    AGREES = "agrees"  # the blind count equals the record: nothing to fit
    SETTLED = "settled"  # one set of turns fits clearly best: it is the answer
    NO_FIT = "no fit"  # no turn within the bounds reaches the record: the blind reading stands, flagged
    AMBIGUOUS = "ambiguous"  # two turns fit about as well: the blind reading stands, flagged

    @property
    def declined(self) -> bool:
        """The record disagrees with the count and could not settle it: a person should look."""
        return self in (FitOutcome.NO_FIT, FitOutcome.AMBIGUOUS)
