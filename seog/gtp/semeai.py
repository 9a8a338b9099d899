"""GNU Go's ``analyze_semeai A B`` in ``seog gtp``: the race between the groups at A and B, read
by ``reading.semeai``.

The answer is GNU Go's: the result of defending A, the result of attacking B (A's owner moving
first), and the move (``PASS`` when none is needed): ``1 1 M`` A wins the race, ``1 0 M`` both
stand (seki, or both alive), ``0 0 PASS`` A loses it, 2 and 3 for a race that hangs on a ko.
"""

from __future__ import annotations

from seog.features import coords
from seog.gtp.protocol import GtpFailure, stone
from seog.reading.board import SearchBoard
from seog.reading.semeai import DEFAULT_NODES, analyze_semeai


def analyze_semeai_reply(referee, args: list[str], nodes: int = DEFAULT_NODES) -> str:
    """The ``analyze_semeai`` reply for the referee's position (``args``: two vertices)."""
    if len(args) != 2:
        raise GtpFailure("syntax error: usage analyze_semeai VERTEX VERTEX")
    size, usage = referee.size, "analyze_semeai VERTEX VERTEX"
    a, b = (stone(args, at, usage, referee.board) for at in (0, 1))
    if referee.board.stones[a] == referee.board.stones[b]:
        raise GtpFailure("the two groups must be of opposite colours")
    result = analyze_semeai(SearchBoard.from_board(referee.board), a, b, nodes=nodes)
    move = coords.to_gtp(result.move, size).upper() if result.move is not None else "PASS"
    return f"{int(result.defend)} {int(result.attack)} {move}"
