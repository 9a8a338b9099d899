"""GNU Go's ``eval_eye V`` in ``seog gtp``: the eye space at V, read by ``reading.eyes``.

The answer is GNU Go's: the least and most eyes the space gives its owner (the attacker moving
first, then the owner), then the attack and defence points when the two differ; ``-1`` when V
is no eye space (open board, or more than ``eye_space.MAX_SPACE`` points); a failure for a space
whose search runs past its budget (``eyes.BUDGET`` positions).
"""

from __future__ import annotations

from seog.features import coords
from seog.reading.eye_space import eye_game_at
from seog.reading.eyes import TooBig, evaluate


def eval_eye(referee, args: list[str]) -> str:
    """The ``eval_eye`` reply for the referee's position (``args``: one vertex)."""
    from seog.gtp.protocol import GtpFailure
    if len(args) != 1:
        raise GtpFailure("syntax error: usage eval_eye VERTEX")
    size = referee.size
    try:
        index = coords.gtp_to_index(args[0], size)
    except coords.CoordinateError as exc:
        raise GtpFailure(f"syntax error: {exc}") from None
    if index is None:
        raise GtpFailure("syntax error: eval_eye needs a point, not a pass")
    game = eye_game_at(referee.board.grid, index, _prisoners(referee))
    if game is None:
        return "-1"
    try:
        value = evaluate(game)
    except TooBig as exc:
        raise GtpFailure(str(exc)) from None
    if value.least == value.most:
        return f"{value.least} {value.most}"
    points = [coords.index_to_gtp(p, size) if p is not None else "PASS" for p in (value.attack, value.defence)]
    return f"{value.least} {value.most} {points[0]} {points[1]}"


def _prisoners(referee) -> frozenset[int]:
    """The stones seog's scoring reads dead in the referee's position (none when it cannot score)."""
    try:
        score = referee.score()
    except ValueError:  # a position the scorer refuses (IllegalPosition is one)
        return frozenset()
    return frozenset(int(p) for block in score.read if not block.alive for p in block.points)
