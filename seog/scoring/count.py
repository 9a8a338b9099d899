"""From a position and its dead stones to points: territory, area, seki, dame and ownership.

The steps, each a function of arrays:
1. ``live_grid``: the board with dead stones taken off (Tromp-Taylor keeps them).
2. ``regions``: 4-connected groups of points without a live stone, with the live colours that
   border each; a region bordered by one colour is that colour's territory, else neutral (dame).
3. ``seki_points``: neutral points where neither bordering colour can play without putting its
   own block in atari; the live blocks touching them are in seki.
4. Under territory rules without seki territory (Japanese, Korean) a region bordered by a
   block in seki does not count.
5. ``count``: territory or area, prisoners, compensation and komi into a ``Score``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage

from seog.features.board import Board, IllegalMove
from seog.features.coords import BLACK, EMPTY, WHITE
from seog.features.topology import FOUR, adjacent_pairs, label_blocks
from seog.scoring.result import format_result
from seog.scoring.rules import Rules


@dataclass
class Score:
    """A counted position.

    ``black``/``white``: points for each side (White's include komi and handicap compensation);
    ``margin`` = black - white; ``result``: RE form. ``ownership``: (size, size) int8, 1 where the
    point counts for Black (territory, or a live stone under area rules), -1 for White, 0 neutral.
    Point sets are grid indices: ``territory[colour]``, ``dame``, ``seki`` (stones of blocks in
    seki), ``dead``. ``breakdown[colour]`` itemises the count.
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


def seki_points(live: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Neutral points where a move by either bordering colour would leave its own block in atari."""
    size = live.shape[0]
    board = Board.from_grid(live)
    out = np.zeros(live.shape, dtype=bool)
    for index in np.flatnonzero(neutral & (live == EMPTY)):
        r, c = divmod(int(index), size)
        near = {int(live[rr, cc]) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < size and 0 <= cc < size}
        colors = [col for col in (BLACK, WHITE) if col in near]
        if len(colors) < 2:
            continue
        out.flat[index] = all(_self_atari(board, color, index) for color in colors)
    return out


def _self_atari(board: Board, color: int, index: int) -> bool:
    """Would ``color`` playing at ``index`` leave its own block with at most one liberty?"""
    trial = board.copy()
    trial.ko = None
    size = board.size
    r, c = divmod(index, size)
    point = (r + 1) * (size + 2) + c + 1
    try:
        trial.play(color, point)
    except IllegalMove:
        return True
    grid = trial.grid
    labels, _ = ndimage.label(grid == color, FOUR)
    mine = labels == labels[r, c]
    libs = ndimage.binary_dilation(mine, FOUR) & (grid == EMPTY)
    return int(libs.sum()) <= 1


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

    seki_pts = seki_points(live, neutral) if neutral.any() else np.zeros_like(neutral)
    blocks, _ = label_blocks(live)
    seki_blocks = _touching(blocks, seki_pts)
    seki_stones = np.isin(blocks, seki_blocks) & (blocks > 0)

    territory_mask = in_region & (region_owner != 0)
    if not rules.seki_territory:
        # The eyes of a group in seki do not count.
        void_stones = seki_stones
        void_regions = _touching(labels, void_stones)
        territory_mask &= ~np.isin(labels, void_regions)

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
