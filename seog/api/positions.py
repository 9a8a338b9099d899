"""From a request body (SGF text or a JSON board) to a position ready to score, with validation.

Every problem with the input becomes one of ``INPUT_ERRORS`` (``RequestError``, ``SgfError``,
``IllegalPosition``, ``IllegalMove``, ``UnknownRules``, ``CoordinateError``, ``DeadNotCounted``) whose message names
it, so that the server answers 4xx with that message instead of failing inside the scorer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from seog import clip
from seog.api.schemas import ROW_CHARACTERS, RULES_PATTERN, VERTEX_PATTERN
from seog.features import coords, sgf
from seog.features.arrays import label_blocks
from seog.features.board import Board, IllegalMove, IllegalPosition
from seog.features.coords import BLACK, WHITE
from seog.features.sgf import Game
from seog.scoring.rules import (
    RULES,
    DeadNotCounted,
    Rules,
    UnknownRules,
    check_suicides,
    get_rules,
    rules_from_sgf,
)


class RequestError(ValueError):
    """A request that is well-formed JSON but does not describe a position seog can score."""


INPUT_ERRORS = (RequestError, sgf.SgfError, IllegalPosition, IllegalMove, UnknownRules, coords.CoordinateError,
                DeadNotCounted)
_RULES_NAME, _VERTEX = re.compile(RULES_PATTERN), re.compile(VERTEX_PATTERN)


@dataclass
class Position:
    """Everything ``score_position`` needs, plus the game when the input was SGF.

    ``dead`` is the mask of the SGF's marked dead stones (``use_markup``), else None;
    ``overrides`` maps a grid index of each overridden block to alive?.
    """

    board: Board
    rules: Rules
    komi: float
    handicap: int = 0
    prisoners: dict = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    game: Game | None = None
    dead: np.ndarray | None = None
    overrides: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    unfinished: str = ""


def from_request(req) -> Position:
    """A ``schemas.ScoreRequest`` as a position (``req.sgf`` or ``req.board``)."""
    dead = req.overrides.dead if req.overrides else ()
    alive = req.overrides.alive if req.overrides else ()
    if req.sgf is not None:
        return from_sgf(req.sgf, rules=req.rules, komi=req.komi, use_markup=req.use_markup,
                        dead=dead, alive=alive)
    if req.use_markup:
        raise RequestError("use_markup needs SGF input: a JSON board carries no territory marks")
    prisoners = req.prisoners
    return from_rows(req.board, size=req.size, rules=req.rules, komi=req.komi,
                     handicap=req.handicap or 0,
                     prisoners={BLACK: prisoners.black, WHITE: prisoners.white} if prisoners else None,
                     dead=dead, alive=alive)


def from_sgf(data: bytes | str, *, rules: str | None = None, komi: float | None = None,
             use_markup: bool = False, dead: Iterable[str] = (), alive: Iterable[str] = ()) -> Position:
    """An SGF game as a position: its own rules, komi, handicap and prisoners unless overridden."""
    check_rules_name(rules)
    game = check_suicides(sgf.loads(data), rules)  # the given rules, where RU does not say
    if use_markup and not game.has_markup:
        raise RequestError("use_markup: the SGF has no TB/TW territory marks in its last nodes")
    position = Position(game.board, get_rules(rules) if rules else rules_from_sgf(game.rules),
                        game.komi if komi is None else float(komi), game.handicap,
                        dict(game.board.prisoners), game,
                        game.marked_dead() if use_markup else None)
    position.overrides = parse_overrides(game.board, dead, alive)
    from seog.scoring.score import (  # the scorer loads lazily, when a request comes
        game_notes,
        unfinished_by_record,
    )

    position.notes = game_notes(game, rules_given=bool(rules), komi_given=komi is not None)
    position.unfinished = unfinished_by_record(game)
    return position


def from_rows(rows: list[str], *, size: int | None = None, rules: str | None = None,
              komi: float | None = None, handicap: int = 0, prisoners: dict | None = None,
              dead: Iterable[str] = (), alive: Iterable[str] = ()) -> Position:
    """A JSON board (rows top to bottom) as a position; ``size``, when given, must match the rows.
    Without ``komi``, the rules' even-game komi, or 0.5 with a handicap (``Rules.komi_for``)."""
    check_rules_name(rules)
    if not rows:
        raise RequestError("board has no rows")
    if size is not None and len(rows) != size:
        raise RequestError(f"board has {len(rows)} rows but size is {size}")
    for i, row in enumerate(rows):
        if not row.strip():
            raise RequestError(f"board row {i + 1} is empty")
        unknown = next((ch for ch in row if ch not in ROW_CHARACTERS), None)
        if unknown is not None:  # other blanks too: the schema's rows hold spaces and tabs only
            raise IllegalPosition(f"row {i + 1}: unknown board character {unknown!r}")
    try:
        coords.check_size(len(rows))
    except ValueError as exc:  # a plain ValueError there: the API answers 400 only for input errors
        raise RequestError(str(exc)) from None
    board = Board.from_rows(list(rows))
    if handicap > board.size * board.size - 1:
        raise RequestError(f"handicap {handicap} is more stones than a {board.size}x{board.size} board "
                           f"holds with room for a move (at most {board.size * board.size - 1})")
    the_rules = get_rules(rules)
    position = Position(board, the_rules, the_rules.komi_for(handicap) if komi is None else float(komi),
                        int(handicap), dict(prisoners) if prisoners else {BLACK: 0, WHITE: 0})
    position.overrides = parse_overrides(board, dead, alive)
    return position


def check_rules_name(name: str | None) -> None:
    """Refuse (UnknownRules, as ``get_rules`` words it) a rules name the API's schema does not state
    (``schemas.RULES_PATTERN``): ``get_rules`` alone also takes other blanks around a name, and
    letters that lower-case to ASCII (the Kelvin sign for 'k')."""
    if name is not None and not _RULES_NAME.fullmatch(name):
        raise UnknownRules(f"unknown rules {clip(name)!r} (known: {', '.join(RULES)})")


def parse_overrides(board: Board, dead: Iterable[str], alive: Iterable[str]) -> dict[int, bool]:
    """GTP vertices of the caller's dead/alive decisions -> {grid index: alive?}.

    Each vertex must hold a stone; two decisions on one block must agree.
    """
    wanted: dict[int, tuple[bool, str]] = {}
    for vertices, is_alive in ((dead, False), (alive, True)):
        for vertex in vertices:
            if not _VERTEX.fullmatch(vertex) and vertex.strip().lower() != "pass":  # as the schema's pattern
                raise coords.CoordinateError(f"bad GTP vertex {vertex!r}")
            index = coords.gtp_to_index(vertex, board.size)
            if index is None:
                raise RequestError(f"override {vertex!r} is a pass, not a point")
            if board.grid.flat[index] == coords.EMPTY:
                raise RequestError(f"override at {vertex}: no stone there")
            wanted.setdefault(index, (is_alive, vertex))
            if wanted[index][0] != is_alive:
                raise RequestError(f"override at {vertex}: listed both dead and alive")
    if not wanted:
        return {}
    labels, _ = label_blocks(board.grid)
    by_block: dict[int, tuple[bool, str]] = {}
    for index, (is_alive, vertex) in wanted.items():
        block = int(labels.flat[index])
        if block in by_block and by_block[block][0] != is_alive:
            raise RequestError(f"overrides at {by_block[block][1]} and {vertex} disagree: "
                               "they are stones of the same block")
        by_block[block] = (is_alive, vertex)
    return {index: is_alive for index, (is_alive, _) in wanted.items()}
