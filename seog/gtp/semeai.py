"""GNU Go's ``analyze_semeai A B`` in ``seog gtp``: the race between the groups at A and B, read
by ``reading.semeai``.

The answer is GNU Go's: the result of defending A, the result of attacking B (A's owner moving
first), and the move (``PASS`` when none is needed): ``1 1 M`` A wins the race, ``1 0 M`` both
stand (seki, or both alive), ``0 0 PASS`` A loses it, 2 and 3 for a race that hangs on a ko.
"""

from __future__ import annotations

from seog.features import coords
from seog.features.coords import BLACK, WHITE
from seog.gtp.protocol import GtpFailure, vertex
from seog.reading.board import SearchBoard
from seog.reading.semeai import DEFAULT_NODES, analyze_semeai


def analyze_semeai_reply(referee, args: list[str], nodes: int = DEFAULT_NODES) -> str:
    """The ``analyze_semeai`` reply for the referee's position (``args``: two vertices)."""
    if len(args) != 2:
        raise GtpFailure("syntax error: usage analyze_semeai VERTEX VERTEX")
    size = referee.size
    a, b = (vertex(word, size) for word in args)
    if a is None or b is None:
        raise GtpFailure("vertex must not be pass")
    stones = referee.board.stones
    if stones[a] not in (BLACK, WHITE) or stones[b] not in (BLACK, WHITE):
        raise GtpFailure("vertex must not be empty")
    if stones[a] == stones[b]:
        raise GtpFailure("the two groups must be of opposite colours")
    result = analyze_semeai(SearchBoard.from_board(referee.board), a, b, nodes=nodes)
    move = coords.to_gtp(result.move, size).upper() if result.move is not None else "PASS"
    return f"{int(result.defend)} {int(result.attack)} {move}"
