"""The notes of an answer, written from the request and the spine's ``Decision``: what the
loader noted, the stones read dead that the rules count as they stand, open borders, a position
not finished, and a count far from the players' result.
"""

from __future__ import annotations

import numpy as np

from seog.classifiers.vocabulary import BlockStatus, Finish, Source
from seog.features.coords import COLOR_NAMES, index_to_gtp
from seog.scoring.count import Score
from seog.scoring.decision import Decision, OpenBoard
from seog.scoring.fit import Fit
from seog.scoring.report import vertices
from seog.scoring.request import ScoreRequest

NO_EYE_SHAPE_NOTE = "; the eye-shape rules did not run, the reader decided the groups alone"


def score_notes(request: ScoreRequest, decision: Decision) -> list[str]:
    """Every note of the answer but the record's gap, in order: the loader's, the stones read
    dead the rules count as they stand, the groups a ruling killed, open borders, a position the record (or the caller)
    says is not finished, and what the recorded result did."""
    read = "marked dead" if request.dead is not None else "seog reads as dead"
    said = request.unfinished if decision.finish is Finish.SAID else ""
    # where the record says why, its note says the passes did not run
    unread = decision.by_model and decision.finish is Finish.OPEN_BORDERS
    return (list(request.notes) + kept_notes(decision.counted, read)
            + ruling_notes(decision.statuses, request.size) + open_border_notes(decision.open_board, unread) + unfinished_notes(said, decision.by_model)
            + record_fit_notes(decision.fit, request.size))


def ruling_notes(statuses: list[BlockStatus], size: int) -> list[str]:
    """The note on the groups the Japanese ruling on bent four in the corner turned dead (none
    when it turned none): their stones, so that the players see what the ruling took."""
    ruled = [st.points for st in statuses if st.source is Source.RULING]
    if not ruled:
        return []
    stones = vertices(np.concatenate(ruled), size)
    return [f"dead by the Japanese ruling on bent four in the corner: {len(stones)} stone"
            f"{'' if len(stones) == 1 else 's'} ({', '.join(stones)}), whose only eye space is that shape"]


def record_fit_notes(fit: Fit | None, size: int) -> list[str]:
    """What the recorded result did (``scoring.fit``): the blocks it turned, each by its colour,
    first stone, size and blind p(alive); or why it could not settle the count."""
    if fit is None:
        return []
    why = fit.why(lambda st: f"{COLOR_NAMES[st.color]} {index_to_gtp(int(st.points[0]), size)} "
                             f"({len(st.points)} stone{'s' * (len(st.points) != 1)}, p(alive) {float(st.p_alive):.2f})")
    return [why] if why else []


def open_border_notes(board: OpenBoard | None, no_eye_shape: bool = False) -> list[str]:
    """The note on open board left to nobody (none when the borders are closed): the position is
    not a finished one and its count only the board's as it stands; ``no_eye_shape``: and the
    eye-shape passes did not decide it."""
    if board is None:
        return []
    return [f"the borders are still open: {board.points} empty points around {board.where} belong to nobody, "
            "so this is not a finished position and the count is the board's as it stands"
            + (NO_EYE_SHAPE_NOTE if no_eye_shape else "")]


def unfinished_notes(unfinished: str, decided: bool) -> list[str]:
    """The note on a position the record says is not a finished one: the count is an estimate,
    and (when seog decided the statuses) no eye-shape pass decided them."""
    if not unfinished:
        return []
    passes = NO_EYE_SHAPE_NOTE if decided else ""
    return [f"not a finished position ({unfinished}): the count is an estimate of the board as it stands{passes}"]


def kept_notes(score: Score, read: str = "seog reads as dead") -> list[str]:
    """The note on blocks read dead that the rules count as they stand (none when there are
    none): which stones, so that the players know what they should have captured."""
    kept = [r.points for r, c in zip(score.read, score.blocks) if not r.alive and c.alive]
    if not kept:
        return []
    stones = vertices(np.concatenate(kept), score.size)
    one = len(stones) == 1
    return [f"{score.rules.name} rules count every stone on the board: {len(stones)} stone{'' if one else 's'} "
            f"{read} ({', '.join(stones)}) count{'s as it stands' if one else ' as they stand'}; "
            f"capture {'it' if one else 'them'} before the game ends to take {'it' if one else 'them'} off"]


def far_note(gap: float, recorded: str) -> str:
    """The note on a count far from the players' (``Score.far_from_record``)."""
    return (f"the count is {abs(gap):g} points from the recorded result {recorded}: a group read wrong, or a "
            "result the players agreed otherwise; check the dead stones")
