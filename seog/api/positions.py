"""From a request body (SGF text or a JSON board) to a ``ScoreRequest`` ready to score, with validation.

Every problem with the input becomes one of ``INPUT_ERRORS`` (``RequestError``, ``SgfError``,
``IllegalPosition``, ``IllegalMove``, ``UnknownRules``, ``CoordinateError``, ``DeadNotCounted``,
``NoMarkup``) whose message names it, so that the server answers 4xx with that message instead of
failing inside the scorer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from seog import clip
from seog.api.schemas import RESULT_PATTERN, ROW_CHARACTERS, RULES_PATTERN, VERTEX_PATTERN
from seog.features import coords, sgf
from seog.features.arrays import label_blocks
from seog.features.board import Board, IllegalMove, IllegalPosition
from seog.features.coords import BLACK, WHITE
from seog.scoring.request import SAID_UNFINISHED, NoMarkup, ScoreRequest, from_board, from_game
from seog.scoring.rules import RULES, DeadNotCounted, UnknownRules, get_rules


class RequestError(ValueError):
    """A request that is well-formed JSON but does not describe a position seog can score."""


INPUT_ERRORS = (RequestError, sgf.SgfError, IllegalPosition, IllegalMove, UnknownRules, coords.CoordinateError,
                DeadNotCounted, NoMarkup)
_RULES_NAME, _VERTEX, _RESULT = re.compile(RULES_PATTERN), re.compile(VERTEX_PATTERN), re.compile(RESULT_PATTERN)


def from_request(req) -> ScoreRequest:
    """A ``schemas.ScoreRequest`` body as a scoring request (``req.sgf`` or ``req.board``)."""
    dead = req.overrides.dead if req.overrides else ()
    alive = req.overrides.alive if req.overrides else ()
    if req.sgf is not None:
        return from_sgf(req.sgf, rules=req.rules, komi=req.komi, use_markup=req.use_markup,
                        dead=dead, alive=alive, finished=req.finished, ignore_result=req.ignore_result)
    if req.use_markup:
        raise RequestError("use_markup needs SGF input: a JSON board carries no territory marks")
    prisoners = req.prisoners
    return from_rows(req.board, size=req.size, rules=req.rules, komi=req.komi,
                     handicap=req.handicap or 0,
                     prisoners={BLACK: prisoners.black, WHITE: prisoners.white} if prisoners else None,
                     dead=dead, alive=alive, finished=req.finished,
                     result=None if req.ignore_result else req.result)


def from_sgf(data: bytes | str, *, rules: str | None = None, komi: float | None = None,
             use_markup: bool = False, dead: Iterable[str] = (), alive: Iterable[str] = (),
             finished: bool | None = None, ignore_result: bool = False) -> ScoreRequest:
    """An SGF game as a scoring request: its own rules, komi, handicap and prisoners unless
    overridden (``request.from_game``; an empty rules name is none). ``finished`` False: the
    caller says the game did not end with a count (for a record without RE to say so);
    ``ignore_result``: read blind, the record's counted RE left out."""
    check_rules_name(rules)
    request = from_game(sgf.loads(data), rules=rules or None, komi=komi, use_markup=use_markup,
                        said_unfinished=SAID_UNFINISHED if finished is False else "", ignore_result=ignore_result)
    return replace(request, overrides=parse_overrides(request.board, dead, alive))


def from_rows(rows: list[str], *, size: int | None = None, rules: str | None = None,
              komi: float | None = None, handicap: int = 0, prisoners: dict | None = None,
              dead: Iterable[str] = (), alive: Iterable[str] = (), finished: bool | None = None,
              result: str | None = None) -> ScoreRequest:
    """A JSON board (rows top to bottom) as a scoring request; ``size``, when given, must match the
    rows. Without ``komi``, the rules' even-game komi, or 0.5 with a handicap (``Rules.komi_for``).
    ``finished`` False: the caller says the game did not end with a count (a board has no RE);
    ``result``: the game's counted result, which settles the groups in doubt."""
    check_rules_name(rules)
    if result is not None and not _RESULT.fullmatch(result):
        raise RequestError(f"result {clip(result)!r} is no counted result: give one as B+3.5, W+12 or 0, or none")
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
    return from_board(board, rules=the_rules, komi=komi, handicap=handicap, prisoners=prisoners,
                      overrides=parse_overrides(board, dead, alive),
                      unfinished=SAID_UNFINISHED if finished is False else "",
                      result=None if result is None else result.strip())


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
