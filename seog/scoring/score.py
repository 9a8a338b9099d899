"""The one path from a position to its ``Score``, ``score(request)``, read top to bottom:

    check     the request against its rules (no dead override where every stone counts) and its
              board (no block without liberties)
    analyze   ``features.topology.analyze``: blocks, chains, regions
    decide    ``scoring.decision.decide_position``: every block's status as read (the model's,
              or the dead stones the request gives, then the caller's overrides), their count
              (``scoring.count.count_blocks``), and whether the position is finished
    settle    ``scoring.decision.settle_by_record``: where the request gives a counted result,
              the blocks in doubt that, turned, make the count equal it (``scoring.fit``)
    notes     ``scoring.notes.score_notes``: the loader's, then what the count could not settle,
              what the recorded result did, and a count far from the players' (``record_gap``)

The request comes from ``scoring.request`` (``from_game``, ``from_board``); ``score_game`` and
``score_position`` build one and score it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np

from seog.classifiers import model_file
from seog.classifiers.model_file import Model
from seog.features.board import Board, IllegalPosition
from seog.features.coords import index_to_gtp
from seog.features.sgf import Game
from seog.features.topology import Topology, analyze
from seog.scoring.count import FAR_FROM_RECORD, Score
from seog.scoring.decision import decide_position, settle_by_record
from seog.scoring.fit import DEFAULT as FIT_DEFAULT
from seog.scoring.fit import FitSettings
from seog.scoring.notes import far_note, score_notes
from seog.scoring.report import vertices
from seog.scoring.request import ScoreRequest, from_board, from_game
from seog.scoring.result import parse_result
from seog.scoring.rules import DeadNotCounted, Rules, rules_from_sgf

DEFAULT = "default"
_default_model = None
_default_loaded = False


def default_model() -> Model | None:
    """The shipped model, loaded once per process (None while the package ships none)."""
    global _default_model, _default_loaded
    if not _default_loaded:
        _default_model = model_file.load_default()
        _default_loaded = True
    return _default_model


def score(request: ScoreRequest, model: Model | str | None = DEFAULT,
          fit_settings: FitSettings = FIT_DEFAULT) -> Score:
    """Score one position. ``model``: 'default' for the shipped model, None for the static pass
    and heuristic alone; ``fit_settings``: the bounds of the fit to a counted result. Raises
    ``DeadNotCounted`` for a dead override under rules that count every stone,
    ``IllegalPosition`` for a block without liberties, ValueError for an override on an empty
    point."""
    refuse_dead_overrides(request)
    topology = analyze(request.board.grid)
    check_liberties(topology)
    decision = decide_position(request, topology, default_model() if model == DEFAULT else model)
    decision = settle_by_record(request, topology, decision, fit_settings)
    notes = score_notes(request, decision)
    gap = record_gap(request, decision.counted)
    if gap is not None and abs(gap) > FAR_FROM_RECORD:
        notes.append(far_note(gap, request.recorded))
    return replace(decision.counted, notes=notes, unfinished=decision.unfinished(request), record_gap=gap)


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


def score_position(board: Board, *, rules: Rules | str = "japanese", komi: float | None = None,
                   handicap: int = 0, prisoners: Mapping | None = None,
                   dead: np.ndarray | Iterable[int] | None = None,
                   overrides: Mapping[int, bool] | None = None, model: Model | str | None = DEFAULT,
                   unfinished: str = "", dead_agreed: bool = True) -> Score:
    """``score`` of a board: the arguments as ``request.from_board`` takes them."""
    return score(from_board(board, rules=rules, komi=komi, handicap=handicap, prisoners=prisoners, dead=dead,
                            overrides=overrides, unfinished=unfinished, dead_agreed=dead_agreed), model)


def score_game(game: Game, *, rules: Rules | str | None = None, komi: float | None = None,
               use_markup: bool = False, overrides: Mapping[int, bool] | None = None,
               model: Model | str | None = DEFAULT) -> Score:
    """``score`` of a loaded SGF game: the arguments as ``request.from_game`` takes them."""
    return score(from_game(game, rules=rules, komi=komi, use_markup=use_markup, overrides=overrides), model)


def _vertex(index: int, size: int) -> str:
    return index_to_gtp(int(index), size)
