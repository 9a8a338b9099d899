"""The one path from a position to its ``Score``, ``score(request)``, read top to bottom:

    check     the request against its rules (no dead override where every stone counts) and its
              board (no block without liberties)
    analyze   ``features.topology.analyze``: blocks, chains, regions
    decide    ``classifiers.status.decide`` (or the dead stones the request gives), then the
              caller's overrides: every block's status as read
    count     ``scoring.count.count_blocks``: the rules say what becomes of the stones read dead
    settle    ``scoring.fit``: where the request gives a counted result, the blocks in doubt that,
              turned, make the count equal it
    notes     the loader's, then what the count could not settle

A position that is not finished, by its RE or its open borders, is decided without the eye-shape
rules and says so in ``Score.unfinished``; where no counted result says the game was finished,
borders that only the eye-shape rules close count as open (``closed_by_eye_shape``, decided again
on the nets' first reading). The request comes from ``scoring.request`` (``from_game``,
``from_board``); ``score_game`` and ``score_position`` build one and score it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np

from seog.classifiers import model_file
from seog.classifiers.status import decide, overridden, read, rules_without_eye_shape
from seog.classifiers.vocabulary import EYE_SHAPE_RULES, BlockStatus, Source
from seog.features.arrays import label, shrink
from seog.features.board import Board, IllegalPosition
from seog.features.coords import COLOR_NAMES, index_to_gtp
from seog.features.sgf import Game
from seog.features.topology import Topology, analyze
from seog.scoring.count import FAR_FROM_RECORD, Score, count_blocks, dame_as_read
from seog.scoring.fit import DEFAULT as FIT_DEFAULT
from seog.scoring.fit import FitSettings, fit_record
from seog.scoring.report import vertices
from seog.scoring.request import ScoreRequest, from_board, from_game
from seog.scoring.result import parse_result
from seog.scoring.rules import DeadNotCounted, Rules, rules_from_sgf

DEFAULT = "default"
_default_model = None
_default_loaded = False


def default_model():
    """The shipped model, loaded once per process (None while the package ships none)."""
    global _default_model, _default_loaded
    if not _default_loaded:
        _default_model = model_file.load_default()
        _default_loaded = True
    return _default_model


def score(request: ScoreRequest, model=DEFAULT, fit_settings: FitSettings = FIT_DEFAULT) -> Score:
    """Score one position. ``model``: 'default' for the shipped model, None for the static pass
    and heuristic alone; ``fit_settings``: the bounds of the fit to a counted result. Raises ``DeadNotCounted`` for a dead override under rules that count
    every stone, ``IllegalPosition`` for a block without liberties, ValueError for an override
    on an empty point."""
    refuse_dead_overrides(request)
    topology = analyze(request.board.grid)
    check_liberties(topology)
    model = default_model() if model == DEFAULT else model
    reading = read_blocks(request, topology, model, finished=not request.unfinished)
    statuses = decide_blocks(request, topology, model, finished=not request.unfinished, reading=reading)
    counted = count_request(request, topology, statuses)
    unfinished, opened = request.unfinished, open_borders(request, counted)
    if not opened and not unfinished and closed_by_eye_shape(request, statuses):
        # the eye-shape rules assume closed borders: they cannot be what closes them
        without = decide_blocks(request, topology, model, finished=True, eye_shape=False, reading=reading)
        opened = open_borders(request, count_request(request, topology, without))
    if opened and not unfinished:  # not a finished position after all: decide it as one that is not
        unfinished = "open borders"
        if decided_by_eye_shape(request, model, statuses):
            statuses = decide_blocks(request, topology, model, finished=False)
            counted = count_request(request, topology, statuses)
            opened = open_borders(request, counted) or opened
    decided = request.dead is None and model is not None
    counted, settled = settle_by_count(request, topology, counted, decided and not (unfinished or opened),
                                       fit_settings)
    notes = score_notes(request, counted, opened, unfinished, decided=decided) + settled
    gap = record_gap(request, counted)
    if gap is not None and abs(gap) > FAR_FROM_RECORD:
        notes.append(far_note(gap, request.recorded))
    return replace(counted, notes=notes, unfinished=unfinished, record_gap=gap)


def settle_by_count(request: ScoreRequest, topology: Topology, counted: Score, decided: bool,
                    settings: FitSettings = FIT_DEFAULT) -> tuple[Score, list[str]]:
    """The count with the blocks in doubt fitted to the counted result the request gives
    (``fit.fit_record``), when seog decided the statuses of a finished position and the caller
    overrode none (who says what lives has settled the count), else the blind count; with what
    the fit found (``Score.record_fit``) and its note."""
    if request.fit_to is None or not decided or request.overrides:
        return counted, []
    fit = fit_record(topology, counted.read, request.fit_to, request.rules, request.komi, request.handicap,
                     dict(request.prisoners), settings)
    if fit.settled:
        counted = count_request(request, topology, fit.statuses)
    why = fit.why(lambda st: f"{COLOR_NAMES[st.color]} {_vertex(st.points[0], request.size)} "
                             f"({len(st.points)} stone{'s' * (len(st.points) != 1)}, p(alive) {float(st.p_alive):.2f})")
    return replace(counted, record_fit=fit.outcome, turned=fit.turned), [why] if why else []


def record_gap(request: ScoreRequest, counted: Score) -> float | None:
    """Black's margin as counted less the players' counted result; None when the record holds no
    count, or the count is under other rules or komi than the record's (a caller's override)."""
    game = request.game
    if game is None:
        return None
    record = parse_result(game.recorded)
    if not record.counted or rules_from_sgf(game.rules).name != request.rules.name or game.komi != request.komi:
        return None
    return counted.margin - record.margin


def far_note(gap: float, recorded: str) -> str:
    """The note on a count far from the players' (``Score.far_from_record``)."""
    return (f"the count is {abs(gap):g} points from the recorded result {recorded}: a group read wrong, or a "
            "result the players agreed otherwise; check the dead stones")


def refuse_dead_overrides(request: ScoreRequest) -> None:
    """Raise ``DeadNotCounted`` for a dead override under rules that count every stone as it
    stands: it could change nothing, and accepting it would tell the caller it had."""
    rules = request.rules
    dead = [index for index, alive in request.overrides.items() if not alive]
    if dead and not rules.remove_dead:
        where = ", ".join(vertices(dead, request.size))
        raise DeadNotCounted(f"dead-stone override at {where}: {rules.name} rules count every stone on the "
                             "board as it stands, so no stone can be counted dead; capture it before the "
                             "game ends, or score under rules that take dead stones off")


def check_liberties(topology: Topology) -> None:
    """Raise ``IllegalPosition`` for a block without liberties: no game of Go leaves one."""
    for block in topology.blocks:
        if len(block.liberties) == 0:
            raise IllegalPosition(f"the block at {_vertex(block.points[0], topology.size)} has no liberties")


def read_blocks(request: ScoreRequest, topology: Topology, model, finished: bool) -> dict[int, BlockStatus] | None:
    """What the model's nets read of the position before any rule (``status.read``); None when
    the request gives the dead stones, which nothing reads."""
    return None if request.dead is not None else read(topology, model, finished)


def decide_blocks(request: ScoreRequest, topology: Topology, model, finished: bool,
                  eye_shape: bool = True, reading: dict[int, BlockStatus] | None = None) -> list[BlockStatus]:
    """Every block's status, in block id order, with the caller's overrides: from the dead stones
    the request gives (a block with any stone given dead is dead), else decided by the model
    (without the eye-shape rules unless ``eye_shape``; on its nets' ``reading`` of the position
    when given, ``read_blocks`` with the same ``finished``), which flags races after the
    overrides (a race a person has settled is not in doubt)."""
    overrides = override_blocks(request, topology)
    if request.dead is None:
        passes = None if eye_shape else rules_without_eye_shape(model)
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
            raise ValueError(f"override at {_vertex(index, request.size)}: no stone there")
        out[int(label) - 1] = bool(alive)
    return out


def count_request(request: ScoreRequest, topology: Topology, statuses: list[BlockStatus]) -> Score:
    """The count of ``statuses`` (what is read) under the request's rules."""
    return count_blocks(request.board.grid, statuses, request.rules,
                        request.komi, request.handicap, dict(request.prisoners), agreed=request.statuses_given)


def closed_by_eye_shape(request: ScoreRequest, statuses: list[BlockStatus]) -> bool:
    """Should the borders be looked at again without the eye-shape rules: they turned a block,
    and no count in the record says the game was finished? (A game abandoned in the middle, or
    a board posted before its end, can look closed once they have killed every group of one
    side; a counted game is finished whatever its borders look like.)"""
    if request.game is not None and parse_result(request.game.recorded).counted:
        return False
    return any(st.source in EYE_SHAPE_RULES for st in statuses)


def decided_by_eye_shape(request: ScoreRequest, model, statuses: list[BlockStatus]) -> bool:
    """Would deciding again as not finished change anything: statuses the model decided, with
    an eye-shape rule among them or a reader told whether the position is finished."""
    reads = getattr(getattr(model, "refiner", None), "reads_finished", False)
    return request.dead is None and (reads or any(st.source in EYE_SHAPE_RULES for st in statuses))


def open_borders(request: ScoreRequest, counted: Score) -> list[str]:
    """The note on open board left to nobody once the stones read dead are off (none when the
    borders are closed)."""
    grid = request.board.grid
    return open_border_notes(grid, dame_as_read(grid, counted))


NO_EYE_SHAPE_RULES = "; the eye-shape rules did not run, the reader decided the groups alone"


def score_notes(request: ScoreRequest, counted: Score, opened: list[str], unfinished: str,
                decided: bool) -> list[str]:
    """Every note of the answer, in order: the loader's, the stones read dead the rules count as
    they stand, open borders, and a position the record says is not finished."""
    if opened and decided and unfinished == "open borders":  # else the record's note says it
        opened = [opened[0] + NO_EYE_SHAPE_RULES]
    read = "marked dead" if request.dead is not None else "seog reads as dead"
    return (list(request.notes) + kept_notes(counted, read) + opened
            + unfinished_notes("" if unfinished == "open borders" else unfinished, decided))


def unfinished_notes(unfinished: str, decided: bool) -> list[str]:
    """The note on a position the record says is not a finished one: the count is an estimate,
    and (when seog decided the statuses) no eye-shape rule decided them."""
    if not unfinished:
        return []
    rules = NO_EYE_SHAPE_RULES if decided else ""
    return [f"not a finished position ({unfinished}): the count is an estimate of the board as it stands{rules}"]


OPEN_INTERIOR = 5  # neutral empty points whose neighbours are all neutral and empty: this many, joined, is open board


def open_border_notes(grid: np.ndarray, dame: np.ndarray) -> list[str]:
    """A note when the count leaves open board to nobody: empty points belonging to nobody whose
    neighbours belong to nobody either (a line of dame between two walls has none), at least
    ``OPEN_INTERIOR`` of them joined. The borders are then not closed, the position is not a
    finished one, and its count is only the board's as it stands. Training archive: 29 of 8,270
    positions, games left during the count; none of the kgs-2017-q1 or regression games; 3 of
    the OGS set's 9x9 shapes, drawn on an otherwise empty board."""
    if len(dame) < OPEN_INTERIOR + 4:  # five such points need four more around them even in a corner
        return []                      # (most finished games: a few dame, and no labelling)
    neutral = np.zeros(grid.shape, dtype=bool)
    neutral.flat[dame] = True
    neutral &= grid == 0
    interior, n = label(shrink(neutral))
    if not n:
        return []
    sizes = np.bincount(interior.ravel())[1:]
    if sizes.max() < OPEN_INTERIOR:
        return []
    rows, cols = np.nonzero(interior == sizes.argmax() + 1)
    middle = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
    regions = label(neutral)[0]
    points = int((regions == regions[rows[middle], cols[middle]]).sum())
    where = _vertex(int(rows[middle] * grid.shape[0] + cols[middle]), grid.shape[0])
    return [f"the borders are still open: {points} empty points around {where} belong to nobody, "
            "so this is not a finished position and the count is the board's as it stands"]


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


def score_position(board: Board, *, rules: Rules | str = "japanese", komi: float | None = None,
                   handicap: int = 0, prisoners: Mapping | None = None,
                   dead: np.ndarray | Iterable[int] | None = None,
                   overrides: Mapping[int, bool] | None = None, model=DEFAULT, unfinished: str = "",
                   dead_agreed: bool = True) -> Score:
    """``score`` of a board: the arguments as ``request.from_board`` takes them."""
    return score(from_board(board, rules=rules, komi=komi, handicap=handicap, prisoners=prisoners, dead=dead,
                            overrides=overrides, unfinished=unfinished, dead_agreed=dead_agreed), model)


def score_game(game: Game, *, rules: Rules | str | None = None, komi: float | None = None,
               use_markup: bool = False, overrides: Mapping[int, bool] | None = None,
               model=DEFAULT) -> Score:
    """``score`` of a loaded SGF game: the arguments as ``request.from_game`` takes them."""
    return score(from_game(game, rules=rules, komi=komi, use_markup=use_markup, overrides=overrides), model)


def _vertex(index: int, size: int) -> str:
    return index_to_gtp(int(index), size)
