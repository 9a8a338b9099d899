"""The classifiers' shared words: who decided a block (``Source``), why a verdict is in doubt
(``Doubt``), whether a position is finished (``Finish``), and a block's decision
(``BlockStatus``). Every pass imports them from here, so no pass imports the module that runs
them (``classifiers.status``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

ALIVE, DEAD = "alive", "dead"


class Source(StrEnum):
    """Who decided a block; the value is the word the answers (JSON, SGF comments) carry."""

    BENSON = "benson"  # unconditionally alive (static pass): no later pass turns it
    ATARI = "atari"  # in atari and safely capturable (static pass)
    CAPTURERS_DEAD = "capturers-dead"  # called dead, but every capturer is dead
    HEURISTIC = "heuristic"  # no model: eye space and stones nearby
    CASCADE = "model"  # the cascade of MLPs
    READER = "refiner"  # the whole-board reader
    READING = "reading"  # passes after the nets (classifiers.status.PIPELINE)
    BIG_EYE = "big-eye"
    EYESPACE = "eyespace"
    SEKI = "seki"
    EYES = "eyes"
    LIFE = "life"  # a life-and-death search proved it (``classifiers.life``)
    MARKUP = "markup"  # the dead stones marked in the record (TB/TW)
    OVERRIDE = "override"  # the caller's say
    RECORD = "record"  # turned to make the count equal the recorded result (``scoring.fit``)
    RULING = "bent-four"  # dead by the Japanese ruling on bent four in the corner (``scoring.rulings``)

    @property
    def settled(self) -> bool:
        """Decided for good by the static pass: no pass after it may turn the verdict."""
        return self is Source.BENSON

    @property
    def by_nets(self) -> bool:
        """A verdict of the trained nets, which the passes that revive blocks may overturn."""
        return self in BY_NETS

    @property
    def reads_eye_shape(self) -> bool:
        """A pass that reads eye shape: it assumes closed borders, so it does not run on a position
        that is not finished (a resignation, a time loss, open borders)."""
        return self in EYE_SHAPE_PASSES


BY_NETS = frozenset({Source.CASCADE, Source.READER})
EYE_SHAPE_PASSES = frozenset({Source.BIG_EYE, Source.EYESPACE, Source.EYES, Source.LIFE})


class Finish(StrEnum):
    """Whether a position is a finished one, and if not, who says so. A position not finished is
    decided without the eye-shape passes, and its count is an estimate of the board as it stands."""

    FINISHED = "finished"
    SAID = "said"  # the record (its RE, one colour's stones) or the caller: ``ScoreRequest.unfinished`` says why
    OPEN_BORDERS = "open borders"  # open board left to nobody; the value is the word the answers carry


class Doubt(StrEnum):
    """Why a verdict is in doubt ('' when it is not)."""

    NONE = ""
    MODEL = "model"  # the nets' probability is near the decision boundary
    RACE = "race"  # a liberty race its capturer may not win (classifiers.race)
    RULE = "rule"  # a rule turned a verdict the reader was sure of (SURE)
    PARTED = "parted"  # the cascade and the reader lie far apart on it (the model's part margin)
    RECORD = "record"  # the recorded result turned a verdict the nets were sure of (``scoring.fit``)
    UNREAD = "unread"  # a life-and-death search ran out of budget reading otherwise (``classifiers.life``)


# A pass after the nets that turns a block the reader gives p at or beyond this (either way)
# flags it: the two disagree where the reader was sure.
SURE = 0.95


@dataclass
class BlockStatus:
    """The decision for one block: ``alive``, who decided it (``source``), the nets' probability
    that it is alive (None for static decisions), and why the verdict is in doubt (``doubt``;
    ``uncertain`` says whether it is). A pass after the nets changes ``alive`` and ``source`` but
    keeps the nets' probability and flag, so they may disagree with ``alive``. What the rules
    make of a block read dead is the count's business (``scoring.count.count_blocks``)."""

    block: int
    color: int
    points: np.ndarray
    alive: bool
    source: Source
    p_alive: float | None = None
    doubt: Doubt = Doubt.NONE

    @property
    def uncertain(self) -> bool:
        return bool(self.doubt)

    @property
    def status(self) -> str:
        """The verdict as a word: 'alive' or 'dead'."""
        return ALIVE if self.alive else DEAD

    def turned(self, alive: bool, source: Source) -> BlockStatus:
        """The same block decided again by a later pass, keeping the model's probability and flag."""
        return replace(self, alive=alive, source=source)

    @property
    def why_uncertain(self) -> str:
        """Why the verdict is in doubt, for people: the race, a pass against a sure reader, or the
        model's probability."""
        if self.doubt == Doubt.RACE:
            return "in a liberty race that may end in seki, or in a capture the other way"
        if self.doubt == Doubt.RULE:
            return f"the {self.source} rule turned the reader's verdict, p(alive) {float(self.p_alive):.2f}"
        if self.doubt == Doubt.RECORD:
            return f"the recorded result turned a verdict the nets were sure of, p(alive) {float(self.p_alive):.2f}"
        if self.doubt == Doubt.UNREAD:
            return "a life-and-death search, cut short by its budget, reads it otherwise"
        if self.doubt == Doubt.PARTED:
            return f"the cascade and the reader disagree, the reader's p(alive) {float(self.p_alive):.2f}"
        return "" if self.p_alive is None else f"p(alive) {float(self.p_alive):.2f}"

    def doubted(self, doubt: Doubt) -> BlockStatus:
        """The same verdict in doubt for the reason ``doubt`` ('' for none)."""
        return replace(self, doubt=doubt)


def redecide(statuses: dict[int, BlockStatus], turned: dict[int, bool], source: Source) -> dict[int, BlockStatus]:
    """``statuses`` with the blocks in ``turned`` decided again by ``source``: how every pass
    after the static pass writes a verdict (``revive_uncaptured`` and the passes after the nets).
    Blocks that keep their status, and blocks Benson settled, are left as they were."""
    changed = {b: now for b, now in turned.items()
               if statuses[b].alive != now and not Source(statuses[b].source).settled}
    if not changed:
        return statuses
    out = dict(statuses)
    for b, now in changed.items():
        out[b] = out[b].turned(now, source)
    return out
