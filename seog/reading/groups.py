"""The group of a block and its eye regions on a search board, for the searches that read whole
groups (life and death, capturing races).

A *group* is the block and the blocks of its colour that the opponent cannot cut off in one move:
two blocks belong together when they share two liberties (a diagonal with both crossing points
empty, a bamboo joint) or one liberty where an opponent's stone would be taken at once (it has no
other liberty and captures nothing). An *eye region* of a group is a connected set of points that
are empty or hold the opponent's stones, next to the group, reached without crossing the group's
colour and at most ``MAX_REGION`` points; it is *walled* when every stone of the group's colour
around it belongs to the group.
"""

from __future__ import annotations

from dataclasses import dataclass

from seog.features import coords
from seog.features.coords import BORDER, EMPTY
from seog.reading.board import Block, SearchBoard

MAX_REGION = 12
MAX_TERRITORY = 60
CAPTIVE_LIBERTIES = 2


@dataclass(frozen=True)
class Region:
    """An eye region: its points, the opponent's stones among them, whether the group alone walls
    it in, and whether stones of the group's colour alone do (the group's and its friends')."""

    points: tuple[int, ...]
    stones: tuple[int, ...]
    walled: bool
    enclosed: bool = False


def group_of(board: SearchBoard, point: int) -> list[Block]:
    """The blocks of the group of the stone at ``point``, its own block first."""
    color, blocks = board.color, board.block
    own = color[point]
    if own not in (1, -1):
        raise ValueError("there is no stone at that point to make a group of")
    first = blocks[point]
    group, todo = [first], [first]
    while todo:
        blk = todo.pop()
        for lib in blk.libs:
            for q in board.neighbours[lib]:
                if color[q] != own:
                    continue
                other = blocks[q]
                if other in group:
                    continue
                if len(blk.libs & other.libs) >= 2 or _uncuttable(board, lib, -own):
                    group.append(other)
                    todo.append(other)
    return group


def _uncuttable(board: SearchBoard, point: int, cutter: int) -> bool:
    """Would a stone of ``cutter`` at ``point`` be illegal, or taken at once without capturing?"""
    if not board.is_legal(cutter, point):
        return True
    return not board.captures_of(cutter, point) and board.liberties_after(cutter, point) <= 1


def stones_of(group: list[Block]) -> set[int]:
    return {p for blk in group for p in blk.stones}


def liberties_of(group: list[Block]) -> set[int]:
    return set().union(*(blk.libs for blk in group))


def eye_regions(board: SearchBoard, group: list[Block],
                captives: frozenset[int] = frozenset()) -> tuple[list[Region], set[int]]:
    """The group's eye regions, and its liberties that lie in open board (no region). An opponent's
    block is a captive inside a region when it has at most two liberties or its first stone is in
    ``captives`` (blocks read dead beforehand, whatever their liberties). A region past
    ``MAX_REGION`` points is kept (``enclosed``: a territory) when only the group's colour walls it
    and it holds no opponent stones but ``captives``, up to ``MAX_TERRITORY`` points."""
    color, around, block = board.color, board.neighbours, board.block
    own = group[0].color
    opp = -own
    stones: set[int] = set()
    starts: set[int] = set()
    for blk in group:
        stones.update(blk.stones)
        starts |= blk.libs
    for p in stones:
        for q in around[p]:
            if color[q] == opp and q not in starts:
                blk = block[q]
                if len(blk.libs) <= CAPTIVE_LIBERTIES or blk.stones[0] in captives:
                    starts.add(q)
    seen: set[int] = set()
    # the points of floods that met a wall of the opponent's: a flood that reaches one is in the
    # same open area, and open too, whatever else it would meet
    doomed: set[int] = set()

    regions: list[Region] = []
    open_libs: set[int] = set()
    for start in sorted(starts):
        if start in seen:
            continue
        todo, walled, enclosed, limit, met = [start], True, True, MAX_TERRITORY, False
        inside = {start}
        while todo and len(inside) <= limit and not met:
            p = todo.pop()
            for q in around[p]:
                if q in inside:
                    continue
                if q in doomed:
                    met = True
                    break
                v = color[q]
                if v == own:
                    if walled and q not in stones:
                        walled = False
                    continue
                if v == opp:
                    blk = block[q]
                    if len(blk.libs) > CAPTIVE_LIBERTIES and blk.stones[0] not in captives:
                        walled = enclosed = False
                        limit = MAX_REGION
                        continue
                elif v == BORDER:
                    continue
                inside.add(q)
                todo.append(q)
        seen |= inside
        size = len(inside)
        if met or todo or (size > MAX_REGION and not (enclosed and _bare(board, inside, captives))):
            open_libs |= inside & starts
            if met or not enclosed:
                doomed |= inside
            continue
        points = tuple(sorted(inside))
        regions.append(Region(points, tuple(p for p in points if color[p] != EMPTY),
                              walled and size <= MAX_REGION, enclosed))
    return regions, open_libs


def _bare(board: SearchBoard, points, captives: frozenset[int]) -> bool:
    """Do the points hold no opponent stones but blocks read dead beforehand?"""
    color, block = board.color, board.block
    return all(color[p] == EMPTY or block[p].stones[0] in captives for p in points)


def cells_and_sides(points, size: int) -> tuple[frozenset[tuple[int, int]], str]:
    """Board points as (row, col) cells, and the board edges next to their bounding box (the
    placed shape of ``seog.reading.eye_shapes``)."""
    cells = frozenset(coords.from_flat(p, size) for p in points)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    sides = ("N" if min(rows) == 0 else "") + ("E" if max(cols) == size - 1 else "") + \
        ("S" if max(rows) == size - 1 else "") + ("W" if min(cols) == 0 else "")
    return cells, sides
