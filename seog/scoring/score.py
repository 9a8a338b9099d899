"""The one entry point from a position to a ``Score``: statuses first, then the count.

``score_position`` decides which blocks are dead (static pass + model, or the dead stones the
caller gives) and counts under the rules; ``score_game`` does the same for a loaded SGF game,
taking its rules, komi, handicap and prisoners. Under rules that count every stone as it stands
(Tromp-Taylor) the statuses are made what the count uses here, once (``as_counted``), so that
every output (JSON, text, SVG, SGF marks, GTP) says no stone is dead; a note names the stones
read as dead, which the players should have captured.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np

from seog.classifiers import model_file
from seog.classifiers.race import flag_races
from seog.classifiers.status import decide
from seog.classifiers.vocabulary import EYE_SHAPE_RULES, BlockStatus, Doubt, Source
from seog.features.arrays import label, shrink
from seog.features.board import Board, IllegalPosition
from seog.features.coords import BLACK, WHITE
from seog.features.sgf import Game
from seog.features.topology import analyze
from seog.scoring.count import Score, count
from seog.scoring.report import vertices
from seog.scoring.result import decided_otherwise
from seog.scoring.rules import DeadNotCounted, Rules, get_rules, rules_from_sgf, sgf_rules_note

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


def score_position(board: Board, *, rules: Rules | str = "japanese", komi: float | None = None,
                   handicap: int = 0, prisoners: Mapping | None = None,
                   dead: np.ndarray | Iterable[int] | None = None,
                   overrides: Mapping[int, bool] | None = None, model=DEFAULT, unfinished: str = "") -> Score:
    """Score a final position.

    ``komi``: None for the rules' even-game komi, or 0.5 with a handicap (``Rules.komi_for``);
    ``dead``: the dead stones (bool mask or grid indices) to use instead of deciding them;
    ``overrides``: grid index of any stone of a block -> alive?, applied after deciding (a dead
    one under rules that count every stone raises ``DeadNotCounted``);
    ``model``: 'default' for the shipped model, None for the static pass and heuristic alone;
    ``unfinished``: why the caller knows the position is not a finished one (the record's RE),
    '' when it may be. An unfinished position, or one whose borders turn out open, is decided
    without the eye-shape rules (``classifiers.status.EYE_SHAPE_RULES``), and its ``Score``
    says why in ``unfinished``.
    """
    rules = get_rules(rules) if isinstance(rules, str) else rules
    komi = rules.komi_for(handicap) if komi is None else float(komi)
    refuse_dead_overrides(overrides or {}, rules, board.size)
    topology = analyze(board.grid)
    for block in topology.blocks:
        if len(block.liberties) == 0:
            raise IllegalPosition(f"the block at {_vertex(block.points[0], board.size)} has no liberties")
    model = default_model() if model == DEFAULT else model
    if dead is not None:
        mask = _as_mask(dead, board.size)
        statuses = [BlockStatus(b.id, b.color, b.points, not mask.flat[b.points].any(), Source.MARKUP)
                    for b in topology.blocks]
    else:
        statuses = decide(topology, model, finished=not unfinished)
    score = _count(board, topology, statuses, rules, komi, handicap, prisoners, dead, overrides)
    opened = open_border_notes(board.grid, _read_dame(board.grid, score))
    if opened and not unfinished:
        unfinished = "open borders"
        reads = getattr(getattr(model, "refiner", None), "reads_finished", False)
        if dead is None and (reads or any(st.source in EYE_SHAPE_RULES for st in statuses)):
            statuses = decide(topology, model, finished=False)
            score = _count(board, topology, statuses, rules, komi, handicap, prisoners, dead, overrides)
            opened = open_border_notes(board.grid, _read_dame(board.grid, score))
    decided = dead is None and model is not None
    if opened and decided and unfinished == "open borders":  # else the record's note says it
        opened = [opened[0] + NO_EYE_SHAPE_RULES]
    notes = (kept_notes(score.blocks, rules, board.size, "marked dead" if dead is not None else "seog reads as dead")
             + opened + unfinished_notes("" if unfinished == "open borders" else unfinished, decided))
    return replace(score, notes=notes, unfinished=unfinished)


NO_EYE_SHAPE_RULES = "; the eye-shape rules did not run, the reader decided the groups alone"


def unfinished_notes(unfinished: str, decided: bool) -> list[str]:
    """The note on a position the record says is not a finished one: the count is an estimate,
    and (when seog decided the statuses) no eye-shape rule decided them."""
    if not unfinished:
        return []
    rules = NO_EYE_SHAPE_RULES if decided else ""
    return [f"not a finished position ({unfinished}): the count is an estimate of the board as it stands{rules}"]


def _count(board: Board, topology, statuses: list[BlockStatus], rules: Rules, komi: float, handicap: int,
           prisoners, dead, overrides) -> Score:
    """The count of ``statuses`` with the caller's overrides applied."""
    statuses = list(statuses)
    for index, alive in (overrides or {}).items():
        label = topology.block_of.flat[index]
        if not label:
            raise ValueError(f"override at {_vertex(index, board.size)}: no stone there")
        st = statuses[label - 1]
        statuses[label - 1] = BlockStatus(st.block, st.color, st.points, bool(alive), Source.OVERRIDE, st.p_alive)
    if overrides and dead is None:  # a race a person has settled is not in doubt
        statuses = list(flag_races(topology, dict(enumerate(statuses))).values())
    statuses = as_counted(statuses, rules)
    dead_mask = np.zeros(board.grid.shape, dtype=bool)
    for st in statuses:
        if not st.alive:
            dead_mask.flat[st.points] = True
    score = count(board.grid, dead_mask, rules, komi, handicap,
                  dict(prisoners) if prisoners else {BLACK: 0, WHITE: 0})
    return replace(score, blocks=statuses)


def _read_dame(grid: np.ndarray, score: Score) -> np.ndarray:
    """The points that belong to nobody once the stones read dead are off: the count's dame, or
    under rules that keep those stones (Tromp-Taylor) an area count's without them, so that a
    stone left in a closed area does not read as open board."""
    if not any(st.kept for st in score.blocks):
        return score.dame
    mask = np.zeros(grid.shape, dtype=bool)
    mask.flat[score.read_dead] = True
    return count(grid, mask, get_rules("chinese"), 0.0, 0, {BLACK: 0, WHITE: 0}).dame


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


def as_counted(statuses: list[BlockStatus], rules: Rules) -> list[BlockStatus]:
    """The statuses as the count uses them. Rules that count every stone as it stands
    (Tromp-Taylor) keep a block read dead: alive, with ``kept`` holding the reading; and no block
    is in doubt, since no decision of the players' could change that count."""
    if rules.remove_dead:
        return statuses
    return [replace(st, alive=True, kept=not st.alive, doubt=Doubt.NONE) for st in statuses]


def kept_notes(statuses: list[BlockStatus], rules: Rules, size: int, read: str = "seog reads as dead") -> list[str]:
    """The note on blocks ``as_counted`` kept (none when it kept none): which stones are read as
    dead yet count as they stand, so that the players know what they should have captured."""
    kept = [st.points for st in statuses if st.kept]
    if not kept:
        return []
    stones = vertices(np.concatenate(kept), size)
    one = len(stones) == 1
    return [f"{rules.name} rules count every stone on the board: {len(stones)} stone{'' if one else 's'} "
            f"{read} ({', '.join(stones)}) count{'s as it stands' if one else ' as they stand'}; "
            f"capture {'it' if one else 'them'} before the game ends to take {'it' if one else 'them'} off"]


def refuse_dead_overrides(overrides: Mapping[int, bool], rules: Rules, size: int) -> None:
    """Raise ``DeadNotCounted`` for a dead override under rules that count every stone as it
    stands: it could change nothing, and accepting it would tell the caller it had."""
    dead = [index for index, alive in overrides.items() if not alive]
    if dead and not rules.remove_dead:
        where = ", ".join(vertices(dead, size))
        raise DeadNotCounted(f"dead-stone override at {where}: {rules.name} rules count every stone on the "
                             "board as it stands, so no stone can be counted dead; capture it before the "
                             "game ends, or score under rules that take dead stones off")


def score_game(game: Game, *, rules: Rules | str | None = None, komi: float | None = None,
               use_markup: bool = False, overrides: Mapping[int, bool] | None = None,
               model=DEFAULT) -> Score:
    """Score a loaded SGF game with its own rules, komi, handicap and prisoners unless overridden."""
    score = score_position(game.board, rules=rules_from_sgf(game.rules) if rules is None else rules,
                           komi=game.komi if komi is None else komi,
                           handicap=game.handicap, prisoners=game.board.prisoners,
                           dead=game.marked_dead() if use_markup else None,
                           overrides=overrides, model=model,
                           unfinished=unfinished_by_record(game))
    return replace(score, notes=game_notes(game, rules_given=rules is not None, komi_given=komi is not None)
                   + score.notes)


def game_notes(game: Game, *, rules_given: bool = False, komi_given: bool = False) -> list[str]:
    """The loader's notes on a game and what its RU became, leaving out what the caller overrode."""
    komi_note = "" if komi_given else game.komi_note
    ru_note = None if rules_given else sgf_rules_note(game.rules)
    return [n for n in (game.text_note, komi_note, ru_note) if n]


def unfinished_by_record(game: Game) -> str:
    """Why the record says its last position is not a finished one ('' when it may be): a game
    decided without a count (resignation, time, forfeit, void)."""
    return f"RE[{game.result}]" if decided_otherwise(game.result) else ""


def _as_mask(dead, size: int) -> np.ndarray:
    if isinstance(dead, np.ndarray) and dead.dtype == bool:
        return dead.reshape(size, size)
    mask = np.zeros((size, size), dtype=bool)
    mask.flat[np.fromiter(dead, dtype=np.int64)] = True
    return mask


def _vertex(index: int, size: int) -> str:
    from seog.features.coords import index_to_gtp
    return index_to_gtp(index, size)
