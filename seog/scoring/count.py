"""From a position and its dead stones to points: territory, area, seki, dame and ownership.

The steps, each a function of arrays:

1. ``live_grid``: the board with dead stones taken off (Tromp-Taylor keeps them).
2. ``regions``: 4-connected groups of points without a live stone, with the live colours that
   border each; a region bordered by one colour is that colour's territory, else neutral (dame).
3. ``seki_points``: neutral points where neither bordering colour can play without leaving its
   own block in atari; the live blocks touching them are in seki.
4. Under territory rules that count no territory in seki (Japanese, Korean):

   - a region bordered by a block in seki is not territory (the eyes of a seki);
   - ``protective_points``: a territory point is not counted when it is the last liberty that a
     group keeps once the opponent has filled the dame around it. The group is the owner's live
     stones joined through neutral points (the owner may connect through a dame); if all of its
     liberties except one are neutral, the opponent can fill them, and the owner must then play
     on that last point: a false eye, a cutting point left open, a block left in atari. Such a
     point becomes neutral and the test repeats, since filling it can leave another group short.
     This is how the KGS server counts Japanese games (398 of the 400 games of
     ``kgs-2017-q1`` reproduce their recorded result; see docs/scoring.md).
5. ``count``: territory or area, prisoners, compensation and komi into a ``Score``.

Where the dead stones are given (``agreed``: the players' marks, the caller's word), steps 2 to 4
under territory rules are the agreed-position convention's (``scoring.agreed``: seki by
elimination, false eyes by shape), followed by the protective points.

``count_blocks`` counts from the blocks' statuses as read: the rules say what becomes of a block
read dead (taken off, or counted as it stands: ``as_counted``), and its ``Score`` keeps both the
blocks as counted and as read.

Every step works on whole arrays (labels and shifts); only the few neutral points where a move
could be a self-atari get a trial move. Boards may be rectangular (the conformance data has some).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from seog.classifiers.vocabulary import BlockStatus, Doubt
from seog.features.arrays import STACK, adjacent_pairs, around, grow, label, label_blocks, nonzero2, rowcount
from seog.features.coords import BLACK, EMPTY, WHITE
from seog.scoring.agreed import agreed_count
from seog.scoring.result import FitOutcome, format_result
from seog.scoring.rules import Rules

FAR_FROM_RECORD = 10.0  # points: a count further from the players' counted result is in doubt


@dataclass(frozen=True)
class Score:
    """A counted position.

    ``black``/``white``: points for each side (White's include komi and handicap compensation);
    ``margin`` = black - white; ``result``: RE form. ``ownership``: (size, size) int8, 1 where the
    point counts for Black (territory, or a live stone under area rules), -1 for White, 0 neutral.
    Point sets are grid indices: ``territory[colour]``, ``dame`` (empty or dead-stone points that
    count for nobody), ``seki`` (stones of blocks in seki), ``dead`` (the stones the count takes
    off: none under rules that count every stone as it stands). ``breakdown[colour]``
    itemises the count. ``blocks``: each block's status as the count uses it; ``read``: as seog
    (or the marks, or the caller) reads it, whatever the rules (``count_blocks``), in the same
    order. ``notes``: how the input was read where it was not plain (Fox komi, rules seog does
    not know), and what the count cannot settle (open borders, stones Tromp-Taylor keeps), for
    the user to check. ``unfinished``: why the position is not a finished one ('' when it is).
    ``record_gap``: Black's margin as counted less the players' counted result, when the record
    holds one for the rules and komi counted by (None otherwise). ``record_fit``: what the counted
    result the request gives did to the reading (``scoring.fit``; None when it gives none), and
    ``turned``: the blocks it turned, as read blind.
    """

    size: int
    rules: Rules
    komi: float
    handicap: int
    black: float
    white: float
    ownership: np.ndarray
    territory: dict
    dame: np.ndarray
    seki: np.ndarray
    dead: np.ndarray
    breakdown: dict = field(default_factory=dict)
    prisoners: dict = field(default_factory=dict)
    blocks: list = field(default_factory=list)
    read: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    unfinished: str = ""
    record_gap: float | None = None
    record_fit: FitOutcome | None = None
    turned: tuple = ()

    @property
    def finished(self) -> bool:
        """Is this a finished position? When not (``unfinished`` says why: the record's RE, or
        open borders), the count is an estimate of the board as it stands."""
        return not self.unfinished

    @property
    def uncertain_blocks(self) -> list:
        """Blocks whose status is in doubt as counted (``BlockStatus.doubt``): none where the rules
        count every stone as it stands, since no decision of the players' could change the count."""
        return [b for b in self.blocks if b.uncertain]

    @property
    def far_from_record(self) -> bool:
        """Is the count more than ``FAR_FROM_RECORD`` points from the players' counted result? A
        group misread, or a result the players agreed otherwise: either way a person should look."""
        return self.record_gap is not None and abs(self.record_gap) > FAR_FROM_RECORD

    @property
    def in_doubt(self) -> bool:
        """Should a person confirm this count: a block in doubt, a count far from the record, or a
        recorded count that no reading in reach gives."""
        return (bool(self.uncertain_blocks) or self.far_from_record
                or (self.record_fit is not None and self.record_fit.declined))

    @property
    def read_dead(self) -> np.ndarray:
        """Grid indices of the stones read as dead, whether or not the rules take them off (with
        Tromp-Taylor they stay); what an evaluation of the reading compares."""
        points = [b.points for b in self.read if not b.alive]
        return np.sort(np.concatenate(points)) if points else np.zeros(0, dtype=np.int64)

    @property
    def margin(self) -> float:
        return self.black - self.white

    @property
    def result(self) -> str:
        return format_result(self.margin)


def live_grid(grid: np.ndarray, dead: np.ndarray) -> np.ndarray:
    """The stones that count: the dead ones taken off (``count`` marks none dead under rules that
    keep every stone)."""
    return np.where(dead, EMPTY, grid).astype(np.int8)


OFF = 9  # the colour of off-board neighbours in ``around(live, OFF)``


def regions(live: np.ndarray, near: np.ndarray | None = None) -> tuple[np.ndarray, int, np.ndarray]:
    """Label regions of non-stone points; return (labels, count, owner per region id: 1, -1 or 0).
    ``near``: the colours around each point (``around(live, OFF)``), when the caller has them."""
    near = around(live, OFF) if near is None else near
    labels, n = label(live == EMPTY)
    flat = labels.reshape(-1)
    # per colour, the regions it touches: label 0 (stones next to stones) dropped
    black, white = (np.bincount(flat, (near == color).any(axis=0), minlength=n + 1)[1:] > 0 for color in (BLACK, WHITE))
    owner = np.zeros(n + 1, dtype=np.int8)
    # Both colours: 1 + -1 = 0 (neutral); none (an empty board): 0.
    owner[1:] = black.view(np.int8) - white.view(np.int8)
    return labels, n, owner


def liberty_counts(live: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """Number of liberties per block label (index 0 unused, 0)."""
    n, size = int(blocks.max()), live.size
    near = around(blocks)
    keep = (near > 0) & (live == EMPTY).reshape(-1)
    hit = np.zeros((n + 1, size), dtype=bool)
    hit.reshape(-1)[near[keep].astype(np.int64) * size + np.broadcast_to(np.arange(size), near.shape)[keep]] = True
    return rowcount(hit)


def seki_points(live: np.ndarray, neutral: np.ndarray, near: np.ndarray | None = None) -> np.ndarray:
    """Neutral points where a move by either bordering colour would leave its own block in atari.

    A move at p can only be a self-atari if p has at most one empty neighbour and every block of
    the mover's colour next to p has at most two liberties (captures only add liberties); those
    few candidates get a trial move. ``near`` as for ``regions``.
    """
    near = around(live, OFF) if near is None else near
    out = np.zeros(live.shape, dtype=bool)
    if not neutral.any():
        return out
    mine = near == BLACK, near == WHITE
    candidate = ((neutral & (live == EMPTY)).reshape(-1) & ((near == EMPTY).sum(axis=0) <= 1)
                 & mine[0].any(axis=0) & mine[1].any(axis=0))
    if not candidate.any():  # spares the liberty counts
        return out
    blocks, _ = label_blocks(live)
    crowded = liberty_counts(live, blocks)[around(blocks)] > 2
    for near_mine in mine:
        candidate &= ~(near_mine & crowded).any(axis=0)
    for r, c in zip(*np.divmod(np.flatnonzero(candidate), live.shape[1])):
        out[r, c] = _self_atari(live, BLACK, (r, c)) and _self_atari(live, WHITE, (r, c))
    return out


def _self_atari(live: np.ndarray, color: int, point: tuple[int, int]) -> bool:
    """Would ``color`` playing at ``point`` leave its own block with at most one liberty (or be suicide)?"""
    trial = live.copy()
    trial[point] = color
    opponent, _ = label(trial == -color)
    empty = trial == EMPTY
    alive = np.unique(opponent[grow(empty) & (opponent > 0)])
    captured = (opponent > 0) & ~np.isin(opponent, alive)
    trial[captured] = EMPTY
    own, _ = label(trial == color)
    block = own == own[point]
    liberties = grow(block) & (trial == EMPTY)
    return int(liberties.sum()) <= 1


def protective_points(live: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Empty points that are the only non-neutral liberty of a group of one colour.

    A group is a colour's live stones joined through neutral points; its non-neutral liberties are
    the empty points next to its stones that are not neutral. With one such liberty left, the
    opponent can fill the dame and the owner has to fill that point.
    """
    out = np.zeros(live.size, dtype=bool)
    inner = ((live == EMPTY) & ~neutral).reshape(-1)
    if not inner.any():
        return out.reshape(live.shape)
    # both colours' groups in one labelling (Black's, then White's)
    stones = np.array([live == BLACK, live == WHITE])
    groups, n = label(stones | neutral, STACK)
    stone_group = np.where(stones[0], groups[0], groups[1] * stones[1])
    near = around(stone_group)[:, inner]  # the groups whose stones touch each inner point
    near.sort(axis=0)
    distinct = near > 0
    distinct[1:] &= near[1:] != near[:-1]
    group = near[distinct]
    lonely = np.bincount(group, minlength=n + 1)[group] == 1
    out[inner.nonzero()[0][nonzero2(distinct)[1][lonely]]] = True
    return out.reshape(live.shape)


def tactical_points(live: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(owner per point, territory mask, stones in seki) of the stones that count, by seki found
    tactically (steps 2 to 4 of the module docstring)."""
    near = around(live, OFF)
    labels, n, owner = regions(live, near)
    region_owner = owner[labels]  # per point; 0 off regions or neutral
    in_region = labels > 0
    neutral = in_region & (region_owner == 0)

    seki_pts = seki_points(live, neutral, near)
    if seki_pts.any():
        blocks, _ = label_blocks(live)
        seki_stones = np.isin(blocks, _touching(blocks, seki_pts)) & (blocks > 0)
    else:
        seki_stones = np.zeros(live.shape, dtype=bool)

    territory_mask = in_region & (region_owner != 0)
    if not rules.seki_territory:
        # The eyes of a group in seki do not count.
        if seki_stones.any():
            territory_mask &= ~np.isin(labels, _touching(labels, seki_stones))
        # Nor do the points a group must fill once the dame around it are filled.
        territory_mask = without_protective_points(live, territory_mask)
    return region_owner, territory_mask, seki_stones


def without_protective_points(live: np.ndarray, territory: np.ndarray) -> np.ndarray:
    """``territory`` less the points a group must fill once the dame around it are filled
    (``protective_points``), repeated: filling one can leave the next group short."""
    territory = territory.copy()
    blocked = (live == EMPTY) & ~territory
    while True:
        more = protective_points(live, blocked) & territory
        if not more.any():
            return territory
        territory &= ~more
        blocked |= more


def count(grid: np.ndarray, dead: np.ndarray, rules: Rules, komi: float, handicap: int = 0,
          prisoners: dict | None = None, agreed: bool = False) -> Score:
    """Score a final position whose dead stones are marked in the bool array ``dead``. ``agreed``:
    the dead stones are given, not read: under rules that count no territory in seki, count by the
    agreed-position convention (``scoring.agreed``)."""
    grid = np.asarray(grid, dtype=np.int8)
    dead = np.asarray(dead, dtype=bool) & (grid != EMPTY) & rules.remove_dead  # Tromp-Taylor: none
    prisoners = prisoners or {BLACK: 0, WHITE: 0}
    live = live_grid(grid, dead)
    in_region = live == EMPTY
    if agreed and not rules.seki_territory:
        settled = agreed_count(grid, dead)
        region_owner = settled.territory
        territory_mask = without_protective_points(live, settled.territory != 0)
        seki_stones = (settled.seki != 0) & ~in_region
    else:
        region_owner, territory_mask, seki_stones = tactical_points(live, rules)

    territory = {c: territory_mask & (region_owner == c) for c in (BLACK, WHITE)}
    dame = in_region & ~territory_mask
    if rules.area:
        ownership = np.where(territory_mask, region_owner, live).astype(np.int8)
    else:
        ownership = np.where(territory_mask, region_owner, 0).astype(np.int8)

    breakdown, points = {}, {}
    for color in (BLACK, WHITE):
        item = {"territory": int(np.count_nonzero(territory[color]))}
        if rules.area:
            item["stones"] = int(np.count_nonzero(live == color))
        else:
            item["prisoners"] = int(prisoners.get(color, 0))
            item["dead_stones"] = int(np.count_nonzero(dead & (grid == -color)))
        if color == WHITE:
            item["komi"] = float(komi)
            if rules.area:
                item["handicap"] = rules.handicap_compensation(handicap)
        points[color] = float(sum(item.values()))
        breakdown[color] = item

    return Score(grid.shape[0], rules, float(komi), int(handicap), points[BLACK], points[WHITE],
                 ownership, {c: _indices(territory[c]) for c in (BLACK, WHITE)},
                 _indices(dame), _indices(seki_stones), _indices(dead), breakdown,
                 {BLACK: int(prisoners.get(BLACK, 0)), WHITE: int(prisoners.get(WHITE, 0))})


def count_blocks(grid: np.ndarray, read: list[BlockStatus], rules: Rules, komi: float, handicap: int = 0,
                 prisoners: dict | None = None, agreed: bool = False) -> Score:
    """Count a position from its blocks' statuses as read (block id order): the stones read dead
    go off where the rules take dead stones off. The ``Score`` holds the blocks as counted
    (``as_counted``) and as ``read``. ``agreed``: the statuses are given (``count``)."""
    score = count(grid, dead_mask(grid, read), rules, komi, handicap, prisoners, agreed)
    return replace(score, blocks=as_counted(read, rules), read=list(read))


def as_counted(read: list[BlockStatus], rules: Rules) -> list[BlockStatus]:
    """The statuses as the count uses them. Rules that count every stone as it stands
    (Tromp-Taylor) count a block read dead alive, and no block is in doubt, since no decision of
    the players' could change that count."""
    if rules.remove_dead:
        return list(read)
    return [replace(st, alive=True, doubt=Doubt.NONE) for st in read]


def dame_as_read(grid: np.ndarray, score: Score) -> np.ndarray:
    """The points that belong to nobody once the stones read dead are off: the count's dame, or
    where the rules counted some of those stones as they stand, the dame of the count that takes
    them off, so that a stone left in a closed area does not read as open board."""
    if all(r.alive == c.alive for r, c in zip(score.read, score.blocks)):
        return score.dame
    return count(grid, dead_mask(grid, score.read), replace(score.rules, remove_dead=True), 0.0).dame


def dead_mask(grid: np.ndarray, read: list[BlockStatus]) -> np.ndarray:
    """The stones of the blocks read dead, as a bool mask of ``grid``'s shape."""
    dead = np.zeros(np.shape(grid), dtype=bool)
    for st in read:
        if not st.alive:
            dead.flat[st.points] = True
    return dead


def _indices(mask: np.ndarray) -> np.ndarray:
    """Grid indices of the true points (``np.flatnonzero`` without its wrapper's overhead)."""
    return mask.reshape(-1).nonzero()[0]


def _touching(labels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Labels (non-zero) of objects that are 4-adjacent to a point of ``mask``."""
    pairs = adjacent_pairs(labels, mask.astype(np.int32))
    return np.unique(pairs[:, 0]) if len(pairs) else np.empty(0, dtype=np.int64)
