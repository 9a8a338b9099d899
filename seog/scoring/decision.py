"""The spine's one decision step, ``decide_position``: every block's status, its count, and
whether the position is finished, as one ``Decision``.

A position the request says is not finished (its record's RE, one colour's stones, the caller)
is decided without the eye-shape passes. One that may be finished is decided with them; if its
borders are open once the stones read dead are off, it is not finished after all
(``Finish.OPEN_BORDERS``) and is decided again as one that is not, where that could change
anything. Where no counted result says the game was finished, borders that only the eye-shape
passes close count as open (``closed_by_eye_shape``): those passes assume closed borders, so
they cannot be what closes them. The nets read the position once, and once more only for a
reader told whether the position is finished (``status.reads_finished``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from seog.classifiers.model_file import Model
from seog.classifiers.status import decide, overridden, passes_without_eye_shape, read, reads_finished
from seog.classifiers.vocabulary import EYE_SHAPE_PASSES, BlockStatus, Finish, Source
from seog.features.arrays import label, shrink
from seog.features.coords import index_to_gtp
from seog.features.topology import Topology
from seog.scoring.count import Score, count_blocks, dame_as_read
from seog.scoring.fit import DEFAULT as FIT_DEFAULT
from seog.scoring.fit import Fit, FitSettings, fit_record
from seog.scoring.request import ScoreRequest
from seog.scoring.result import parse_result
from seog.scoring.rulings import bent_four_in_the_corner

OPEN_INTERIOR = 5  # neutral empty points whose neighbours are all neutral and empty: this many, joined, is open board


@dataclass(frozen=True)
class OpenBoard:
    """Open board left to nobody: ``points`` empty points joined around the vertex ``where``."""

    points: int
    where: str


@dataclass(frozen=True)
class Decision:
    """What the spine decided of a position: every block's status (block id order) and their
    count, whether the position is finished (``finish``), the open board the count leaves (None
    when the borders are closed), whether the model decided the statuses (``by_model``: no
    dead stones given, a model in use), and what the counted result the request gives did to
    them (``fit``; None when it gives none or the fit does not apply: ``settle_by_record``)."""

    statuses: list[BlockStatus]
    counted: Score
    finish: Finish
    open_board: OpenBoard | None
    by_model: bool
    fit: Fit | None = None

    def unfinished(self, request: ScoreRequest) -> str:
        """Why the position is not a finished one, the words of ``Score.unfinished`` ('' when it is)."""
        if self.finish is Finish.SAID:
            return request.unfinished
        return Finish.OPEN_BORDERS.value if self.finish is Finish.OPEN_BORDERS else ""


def decide_position(request: ScoreRequest, topology: Topology, model: Model | None) -> Decision:
    """Decide and count ``request``'s position once, as the module docstring says."""
    said = bool(request.unfinished)
    reading = read_blocks(request, topology, model, finished=not said)
    statuses = decide_blocks(request, topology, model, finished=not said, reading=reading)
    counted = count_request(request, topology, statuses)
    opened = open_board(request, counted)
    by_model = request.dead is None and model is not None
    if said:
        return Decision(statuses, counted, Finish.SAID, opened, by_model)
    if opened is None and closed_by_eye_shape(request, statuses):
        without = decide_blocks(request, topology, model, finished=True, eye_shape=False, reading=reading)
        opened = open_board(request, count_request(request, topology, without))
    if opened is None:
        ruled = bent_four_in_the_corner(topology, statuses, request.rules) if by_model else statuses
        counted = counted if ruled is statuses else count_request(request, topology, ruled)
        return Decision(ruled, counted, Finish.FINISHED, None, by_model)
    if decided_by_eye_shape(request, model, statuses):  # not a finished position after all: decide it as one
        unfinished = read_blocks(request, topology, model, finished=False) if reads_finished(model) else reading
        statuses = decide_blocks(request, topology, model, finished=False, reading=unfinished)
        counted = count_request(request, topology, statuses)
        opened = open_board(request, counted) or opened
    return Decision(statuses, counted, Finish.OPEN_BORDERS, opened, by_model)


def settle_by_record(request: ScoreRequest, topology: Topology, decision: Decision,
                     settings: FitSettings = FIT_DEFAULT) -> Decision:
    """The decision with the blocks in doubt fitted to the counted result the request gives
    (``fit.fit_record``), where the model decided the statuses of a finished position and the
    caller overrode none (who says what lives has settled the count); as it was otherwise."""
    if (request.fit_to is None or not decision.by_model or decision.finish is not Finish.FINISHED
            or request.overrides):
        return decision
    fit = fit_record(topology, decision.counted.read, request.fit_to, request.rules, request.komi,
                     request.handicap, dict(request.prisoners), settings, decision.counted.margin)
    counted = count_request(request, topology, fit.statuses) if fit.settled else decision.counted
    return replace(decision, statuses=fit.statuses, counted=replace(counted, record_fit=fit.outcome, turned=fit.turned),
                   fit=fit)


def read_blocks(request: ScoreRequest, topology: Topology, model: Model | None,
                finished: bool) -> dict[int, BlockStatus] | None:
    """What the model's nets read of the position before any pass (``status.read``); None when
    the request gives the dead stones, which nothing reads."""
    return None if request.dead is not None else read(topology, model, finished)


def decide_blocks(request: ScoreRequest, topology: Topology, model: Model | None, finished: bool,
                  eye_shape: bool = True, reading: dict[int, BlockStatus] | None = None) -> list[BlockStatus]:
    """Every block's status, in block id order, with the caller's overrides: from the dead stones
    the request gives (a block with any stone given dead is dead), else decided by the model
    (without the eye-shape passes unless ``eye_shape``; on its nets' ``reading`` of the position
    when given, ``read_blocks`` with the same ``finished``), which flags races after the
    overrides (a race a person has settled is not in doubt)."""
    overrides = override_blocks(request, topology)
    if request.dead is None:
        passes = None if eye_shape else passes_without_eye_shape(model)
        return decide(topology, model, passes=passes, finished=finished, overrides=overrides, reading=reading)
    mask = request.dead
    marked = {b.id: BlockStatus(b.id, b.color, b.points, not mask.flat[b.points].any(), Source.MARKUP)
              for b in topology.blocks}
    return list(overridden(marked, overrides).values())


def override_blocks(request: ScoreRequest, topology: Topology) -> dict[int, bool]:
    """The caller's overrides by block id (grid index of any stone -> alive?)."""
    out = {}
    for index, alive in request.overrides.items():
        label = topology.block_of.flat[index]
        if not label:
            raise ValueError(f"override at {index_to_gtp(int(index), request.size)}: no stone there")
        out[int(label) - 1] = bool(alive)
    return out


def count_request(request: ScoreRequest, topology: Topology, statuses: list[BlockStatus]) -> Score:
    """The count of ``statuses`` (what is read) under the request's rules."""
    return count_blocks(request.board.grid, statuses, request.rules,
                        request.komi, request.handicap, dict(request.prisoners), agreed=request.statuses_given)


def closed_by_eye_shape(request: ScoreRequest, statuses: list[BlockStatus]) -> bool:
    """Should the borders be looked at again without the eye-shape passes: they turned a block,
    and no count in the record says the game was finished? (A game abandoned in the middle, or
    a board posted before its end, can look closed once they have killed every group of one
    side; a counted game is finished whatever its borders look like.)"""
    if request.game is not None and parse_result(request.game.recorded).counted:
        return False
    return any(st.source in EYE_SHAPE_PASSES for st in statuses)


def decided_by_eye_shape(request: ScoreRequest, model: Model | None, statuses: list[BlockStatus]) -> bool:
    """Would deciding again as not finished change anything: statuses the model decided, with
    an eye-shape pass among them or a reader told whether the position is finished."""
    return request.dead is None and (reads_finished(model) or any(st.source in EYE_SHAPE_PASSES for st in statuses))


def open_board(request: ScoreRequest, counted: Score) -> OpenBoard | None:
    """The open board left to nobody once the stones read dead are off (None when the borders
    are closed)."""
    grid = request.board.grid
    return find_open_board(grid, dame_as_read(grid, counted))


def find_open_board(grid: np.ndarray, dame: np.ndarray) -> OpenBoard | None:
    """Open board among the points ``dame`` that belong to nobody: empty points whose neighbours
    belong to nobody either (a line of dame between two walls has none), at least
    ``OPEN_INTERIOR`` of them joined; the borders are then not closed. Its size is the whole
    neutral region's, its vertex the middle of the biggest such interior."""
    if len(dame) < OPEN_INTERIOR + 4:  # five such points need four more around them even in a corner
        return None                    # (most finished games: a few dame, and no labelling)
    neutral = np.zeros(grid.shape, dtype=bool)
    neutral.flat[dame] = True
    neutral &= grid == 0
    interior, n = label(shrink(neutral))
    if not n:
        return None
    sizes = np.bincount(interior.ravel())[1:]
    if sizes.max() < OPEN_INTERIOR:
        return None
    rows, cols = np.nonzero(interior == sizes.argmax() + 1)
    middle = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
    regions = label(neutral)[0]
    points = int((regions == regions[rows[middle], cols[middle]]).sum())
    where = index_to_gtp(int(rows[middle] * grid.shape[0] + cols[middle]), grid.shape[0])
    return OpenBoard(points, where)
