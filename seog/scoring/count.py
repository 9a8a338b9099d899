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

Every step works on whole arrays (``scipy.ndimage``); only the few neutral points where a move
could be a self-atari get a trial move. Boards may be rectangular (the conformance data has some).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage

from seog.features.coords import BLACK, EMPTY, WHITE
from seog.features.topology import FOUR, adjacent_pairs, adjacent_points, label_blocks
from seog.scoring.result import format_result
from seog.scoring.rules import Rules


@dataclass
class Score:
    """A counted position.

    ``black``/``white``: points for each side (White's include komi and handicap compensation);
    ``margin`` = black - white; ``result``: RE form. ``ownership``: (size, size) int8, 1 where the
    point counts for Black (territory, or a live stone under area rules), -1 for White, 0 neutral.
    Point sets are grid indices: ``territory[colour]``, ``dame`` (empty or dead-stone points that
    count for nobody), ``seki`` (stones of blocks in seki), ``dead``. ``breakdown[colour]``
    itemises the count.
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

    @property
    def uncertain_blocks(self) -> list:
        """Blocks whose status the model was unsure of (see ``classifiers.status``)."""
        return [b for b in self.blocks if b.uncertain]

    @property
    def margin(self) -> float:
        return self.black - self.white

    @property
    def result(self) -> str:
        return format_result(self.margin)


def live_grid(grid: np.ndarray, dead: np.ndarray, rules: Rules) -> np.ndarray:
    """The stones that count: dead ones taken off unless the rules keep every stone."""
    return np.where(dead, EMPTY, grid).astype(np.int8) if rules.remove_dead else grid.astype(np.int8)


def regions(live: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """Label regions of non-stone points; return (labels, count, owner per region id: 1, -1 or 0)."""
    labels, n = ndimage.label(live == EMPTY, FOUR)
    owner = np.zeros(n + 1, dtype=np.int8)
    for color in (BLACK, WHITE):
        pairs = adjacent_pairs(labels, (live == color).astype(np.int32))
        touched = np.zeros(n + 1, dtype=bool)
        touched[pairs[:, 0]] = True
        owner[touched] += np.int8(color)
    # Both colours: 1 + -1 = 0 (neutral); none (an empty board): 0.
    return labels, n, owner


def _shifts(a: np.ndarray, fill) -> np.ndarray:
    """(4, h, w): the value of each point's up, down, left and right neighbour (``fill`` off the board)."""
    p = np.pad(a, 1, constant_values=fill)
    return np.stack([p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]])


def liberty_counts(live: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """Number of liberties per block label (index 0 unused)."""
    n = int(blocks.max())
    pairs = adjacent_points(blocks, live == EMPTY)
    return np.bincount(pairs[:, 0], minlength=n + 1) if len(pairs) else np.zeros(n + 1, dtype=np.int64)


def seki_points(live: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Neutral points where a move by either bordering colour would leave its own block in atari.

    A move at p can only be a self-atari if p has at most one empty neighbour and every block of
    the mover's colour next to p has at most two liberties (captures only add liberties); those
    few candidates get a trial move.
    """
    out = np.zeros(live.shape, dtype=bool)
    if not neutral.any():
        return out
    blocks, _ = label_blocks(live)
    libs = liberty_counts(live, blocks)
    near_block = _shifts(blocks, 0)
    near_color = _shifts(live, 9)
    empty_near = (near_color == EMPTY).sum(axis=0)
    block_libs = np.where(near_block > 0, libs[near_block], 0)
    candidate = neutral & (live == EMPTY) & (empty_near <= 1)
    for color in (BLACK, WHITE):
        mine = near_color == color
        candidate &= mine.any(axis=0) & ~(mine & (block_libs > 2)).any(axis=0)
    for r, c in zip(*np.nonzero(candidate)):
        out[r, c] = _self_atari(live, BLACK, (r, c)) and _self_atari(live, WHITE, (r, c))
    return out


def _self_atari(live: np.ndarray, color: int, point: tuple[int, int]) -> bool:
    """Would ``color`` playing at ``point`` leave its own block with at most one liberty (or be suicide)?"""
    trial = live.copy()
    trial[point] = color
    opponent, _ = ndimage.label(trial == -color, FOUR)
    empty = trial == EMPTY
    alive = np.unique(opponent[ndimage.binary_dilation(empty, FOUR) & (opponent > 0)])
    captured = (opponent > 0) & ~np.isin(opponent, alive)
    trial[captured] = EMPTY
    own, _ = ndimage.label(trial == color, FOUR)
    block = own == own[point]
    liberties = ndimage.binary_dilation(block, FOUR) & (trial == EMPTY)
    return int(liberties.sum()) <= 1


def protective_points(live: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Empty points that are the only non-neutral liberty of a group of one colour.

    A group is a colour's live stones joined through neutral points; its non-neutral liberties are
    the empty points next to its stones that are not neutral. With one such liberty left, the
    opponent can fill the dame and the owner has to fill that point.
    """
    out = np.zeros(live.shape, dtype=bool)
    inner = (live == EMPTY) & ~neutral
    for color in (BLACK, WHITE):
        group, n = ndimage.label((live == color) | neutral, FOUR)
        if n == 0:
            continue
        pairs = adjacent_points(np.where(live == color, group, 0), inner)
        if len(pairs) == 0:
            continue
        per_group = np.bincount(pairs[:, 0], minlength=n + 1)
        out.flat[pairs[per_group[pairs[:, 0]] == 1, 1]] = True
    return out


def count(grid: np.ndarray, dead: np.ndarray, rules: Rules, komi: float, handicap: int = 0,
          prisoners: dict | None = None) -> Score:
    """Score a final position whose dead stones are marked in the bool array ``dead``."""
    grid = np.asarray(grid, dtype=np.int8)
    dead = np.asarray(dead, dtype=bool) & (grid != EMPTY)
    prisoners = prisoners or {BLACK: 0, WHITE: 0}
    live = live_grid(grid, dead, rules)
    labels, n, owner = regions(live)
    region_owner = owner[labels]  # per point; 0 off regions or neutral
    in_region = labels > 0
    neutral = in_region & (region_owner == 0)

    seki_pts = seki_points(live, neutral)
    blocks, _ = label_blocks(live)
    seki_blocks = _touching(blocks, seki_pts)
    seki_stones = np.isin(blocks, seki_blocks) & (blocks > 0)

    territory_mask = in_region & (region_owner != 0)
    if not rules.seki_territory:
        # The eyes of a group in seki do not count.
        territory_mask &= ~np.isin(labels, _touching(labels, seki_stones))
        # Nor do the points a group must fill once the dame around it are filled.
        blocked = neutral | (in_region & ~territory_mask)
        while True:
            more = protective_points(live, blocked) & territory_mask
            if not more.any():
                break
            territory_mask &= ~more
            blocked |= more

    territory = {c: territory_mask & (region_owner == c) for c in (BLACK, WHITE)}
    dame = in_region & ~territory_mask
    if rules.area:
        ownership = np.where(territory_mask, region_owner, live).astype(np.int8)
    else:
        ownership = np.where(territory_mask, region_owner, 0).astype(np.int8)

    breakdown, points = {}, {}
    for color in (BLACK, WHITE):
        item = {"territory": int(territory[color].sum())}
        if rules.area:
            item["stones"] = int((live == color).sum())
        else:
            item["prisoners"] = int(prisoners.get(color, 0))
            item["dead_stones"] = int((dead & (grid == -color)).sum())
        if color == WHITE:
            item["komi"] = float(komi)
            if rules.area:
                item["handicap"] = rules.handicap_compensation(handicap)
        points[color] = float(sum(item.values()))
        breakdown[color] = item

    return Score(grid.shape[0], rules, float(komi), int(handicap), points[BLACK], points[WHITE],
                 ownership, {c: np.flatnonzero(territory[c]) for c in (BLACK, WHITE)},
                 np.flatnonzero(dame), np.flatnonzero(seki_stones), np.flatnonzero(dead), breakdown,
                 {BLACK: int(prisoners.get(BLACK, 0)), WHITE: int(prisoners.get(WHITE, 0))})


def _touching(labels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Labels (non-zero) of objects that are 4-adjacent to a point of ``mask``."""
    pairs = adjacent_pairs(labels, mask.astype(np.int32))
    return np.unique(pairs[:, 0]) if len(pairs) else np.empty(0, dtype=np.int64)
