"""Whether a group is shut in: the area it reaches without crossing the opponent's stones is small.

A group runs out only into board its opponent does not wall in. In a finished game a dead group
lies inside its opponent's territory, and that territory's empty points look like open board to a
count of liberties or of points far from the opponent's stones. The *area* of a group is what it
reaches from its stones across empty points and its own colour's stones (its friends, alive or
dead, go with it), stopped by the opponent's blocks, the *wall*; a block of the opponent in atari,
or read dead beforehand, is a hole in the wall, not the wall. When the area closes within
``most`` points, the group cannot run anywhere while the wall stands: its room must make eyes.
"""

from __future__ import annotations

from dataclasses import dataclass

from seog.features.coords import BLACK, BORDER, WHITE
from seog.reading.board import SearchBoard


@dataclass(frozen=True)
class Enclosure:
    """The points of a closed area, and the first stone of each block of its wall."""

    points: frozenset[int]
    wall: tuple[int, ...]


def shut_in(board: SearchBoard, point: int, captives: frozenset[int], most: int) -> Enclosure | None:
    """The area of the stone at ``point`` (empty points, its colour's stones, the opponent's stones
    it can take) when the opponent's other stones close it within ``most`` points; None when the
    area is larger (the group is in open board). ``captives``: first stones of the opponent's
    blocks read dead beforehand."""
    color, block, around = board.color, board.block, board.neighbours
    own = color[point]
    if own not in (BLACK, WHITE):
        raise ValueError("there is no stone at that point to read")
    area = {point}
    wall: dict[int, None] = {}
    todo = [point]
    while todo:
        p = todo.pop()
        for q in around[p]:
            v = color[q]
            if v == BORDER or q in area:
                continue
            if v == -own:
                blk = block[q]
                if len(blk.libs) > 1 and blk.stones[0] not in captives:
                    wall[blk.stones[0]] = None
                    continue
            area.add(q)
            if len(area) > most:
                return None
            todo.append(q)
    return Enclosure(frozenset(area), tuple(wall))


def stands(board: SearchBoard, enclosure: Enclosure | None) -> bool:
    """Is the group still shut in: an enclosure whose wall has lost no block?"""
    if enclosure is None:
        return False
    color, wall = board.color, enclosure.wall
    owner = color[wall[0]] if wall else None
    return owner is not None and all(color[w] == owner for w in wall)
