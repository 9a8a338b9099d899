"""What the scorer is asked: one position with its rules, komi, handicap, prisoners, dead stones
given, the caller's overrides and what the loader noted (``ScoreRequest``).

Every front end builds one (``from_game`` for an SGF record, ``from_board`` for a board) and hands
it to ``scoring.score.score``. ``from_game`` checks what only the record can tell: its suicides
legal under its rules, its territory marks there when they are to be used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from seog.features.board import Board
from seog.features.coords import BLACK, WHITE
from seog.scoring.result import decided_otherwise, parse_result
from seog.scoring.rules import Rules, check_suicides, get_rules, rules_from_sgf, sgf_rules_note

if TYPE_CHECKING:  # the SGF reader loads with the record, not with a board
    from seog.features.sgf import Game


class NoMarkup(ValueError):
    """Markup asked for, on a record that has no territory marks (TB/TW) to read dead stones from."""


NO_MARKUP = "use_markup: the SGF has no TB/TW territory marks in its last nodes"


@dataclass(frozen=True)
class ScoreRequest:
    """One position to score.

    ``dead``: (size, size) bool mask of the dead stones to use instead of deciding them (the
    record's marks, or a teacher's), None to decide them; ``overrides``: grid index of any stone
    of a block -> alive?, the caller's say after deciding; ``unfinished``: why the record says the
    position is not a finished one ('' when it may be); ``notes``: the loader's notes on the
    input, which the answer's notes start with; ``game``: the record it came from, if any;
    ``fit_to``: Black's margin in the counted result the record gives (or the caller), which the
    blocks in doubt are fitted to (``scoring.fit``), None to read blind; ``dead_agreed``: the dead
    stones given are the players' word (their marks, a caller's), counted by the agreed-position
    convention; False for an engine's reading (a teacher's), counted as seog counts its own.
    """

    board: Board
    rules: Rules
    komi: float
    handicap: int = 0
    prisoners: Mapping[int, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    dead: np.ndarray | None = None
    overrides: Mapping[int, bool] = field(default_factory=dict)
    unfinished: str = ""
    notes: tuple[str, ...] = ()
    game: Game | None = None
    fit_to: float | None = None
    dead_agreed: bool = True

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def statuses_given(self) -> bool:
        """Have the players or the caller said which stones are dead (the dead stones given as
        their word, or the caller's overrides)? Then the count is by the agreed-position
        convention (``scoring.agreed``)."""
        return (self.dead is not None and self.dead_agreed) or bool(self.overrides)

    @property
    def recorded(self) -> str | None:
        """The record's RE for the answer (None for a board, or a record without one)."""
        return (self.game.recorded or None) if self.game is not None else None


def from_board(board: Board, *, rules: Rules | str | None = "japanese", komi: float | None = None,
               handicap: int = 0, prisoners: Mapping | None = None,
               dead: np.ndarray | Iterable[int] | None = None, overrides: Mapping[int, bool] | None = None,
               unfinished: str = "", notes: Iterable[str] = (), game: Game | None = None,
               result: str | None = None, dead_agreed: bool = True) -> ScoreRequest:
    """A request for ``board`` as given. ``komi`` None: the rules' even-game komi, or 0.5 with a
    handicap (``Rules.komi_for``); ``dead``: a bool mask or grid indices of the dead stones;
    ``result``: the game's counted result (``B+3.5``) under these rules and komi, which the blocks in
    doubt are fitted to (a result that is no count, ``B+R``, is not used); ``dead_agreed`` as in
    ``ScoreRequest``."""
    rules = rules if isinstance(rules, Rules) else get_rules(rules)
    return ScoreRequest(board, rules, rules.komi_for(handicap) if komi is None else float(komi), int(handicap),
                        dict(prisoners) if prisoners else {BLACK: 0, WHITE: 0},
                        None if dead is None else as_mask(dead, board.size), dict(overrides or {}),
                        unfinished, tuple(notes), game, parse_result(result or "").margin, dead_agreed)


def from_game(game: Game, *, rules: Rules | str | None = None, komi: float | None = None,
              use_markup: bool = False, overrides: Mapping[int, bool] | None = None,
              said_unfinished: str = "", ignore_result: bool = False) -> ScoreRequest:
    """A request for a loaded SGF record: its own rules, komi, handicap and prisoners unless
    ``rules`` or ``komi`` say otherwise, its marked dead stones when ``use_markup``;
    ``said_unfinished``: the caller's word that the game was not counted, for a record that
    cannot say so (no RE), which the record's own reason goes before; the record's counted
    result settles the blocks in doubt (``record_count``) unless ``ignore_result``. Raises ``SgfError`` for a
    suicide its rules forbid (the given rules, where RU does not say) and ``NoMarkup`` when
    marks are asked for and there are none."""
    check_suicides(game, rules)
    if use_markup and not game.has_markup:
        raise NoMarkup(NO_MARKUP)
    return from_board(game.board, rules=rules_from_sgf(game.rules) if rules is None else rules,
                      komi=game.komi if komi is None else komi, handicap=game.handicap,
                      prisoners=game.board.prisoners, dead=game.marked_dead() if use_markup else None,
                      overrides=overrides, unfinished=unfinished_by_record(game) or said_unfinished,
                      notes=game_notes(game, rules_given=rules is not None, komi_given=komi is not None),
                      game=game, result=None if ignore_result else record_count(game, rules, komi))


def record_count(game: Game, rules: Rules | str | None, komi: float | None) -> str | None:
    """The record's RE when it is a count under the rules and komi the position is counted by: the
    record's own, named by an RU seog knows, or the caller's where they name the same (a count under
    other rules or komi, or under rules seog only comes near, says nothing exact about these)."""
    if not parse_result(game.result).counted or not game.rules or sgf_rules_note(game.rules):
        return None
    own = rules_from_sgf(game.rules)
    if rules is not None and (rules if isinstance(rules, Rules) else get_rules(rules)).name != own.name:
        return None
    return game.result if komi is None or float(komi) == game.komi else None


def game_notes(game: Game, *, rules_given: bool = False, komi_given: bool = False) -> list[str]:
    """The loader's notes on a game and what its RU became, leaving out what the caller overrode."""
    komi_note = "" if komi_given else game.komi_note
    ru_note = None if rules_given else sgf_rules_note(game.rules)
    return [n for n in (game.text_note, komi_note, ru_note) if n]


ONE_COLOUR = "one colour's stones only, no count or two passes to end it"
SAID_UNFINISHED = "finished: false in the request"  # a board's caller knows what the board cannot say
SAID_UNFINISHED_CLI = "--unfinished given"  # and a record's, what a record without RE cannot


def unfinished_by_record(game: Game) -> str:
    """Why the record says its last position is not a finished one ('' when it may be): a game
    decided without a count (resignation, time, forfeit, void), or a board with stones of one
    colour only in a record that neither counts a result nor ends with two passes (handicap
    stones set up, a game stopped after its first move): nothing is walled in yet."""
    if decided_otherwise(game.result):
        return f"RE[{game.result}]"
    colours = set(np.unique(game.board.grid).tolist()) - {0}  # an empty board's borders are open anyway
    if len(colours) == 1 and not parse_result(game.result).counted and not ended_by_passes(game.moves):
        return ONE_COLOUR
    return ""


def ended_by_passes(moves: list) -> bool:
    """Did the main line end with two passes in a row?"""
    return len(moves) >= 2 and moves[-1][1] is None and moves[-2][1] is None


def as_mask(dead: np.ndarray | Iterable[int], size: int) -> np.ndarray:
    """Dead stones given as a bool mask or as grid indices, as a (size, size) bool mask."""
    if isinstance(dead, np.ndarray) and dead.dtype == bool:
        return dead.reshape(size, size)
    mask = np.zeros((size, size), dtype=bool)
    mask.flat[np.fromiter(dead, dtype=np.int64)] = True
    return mask
