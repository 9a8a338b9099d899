"""The eye space at a point of a real board, as an ``EyeGame`` to read (``eyes.evaluate``).

Delimitation, from the Go: the *owner* of a space is the colour whose stones wall it in (for a
stone, its opponent; for an empty point, the colour with more stones next to it and then next to
its empty region). The *space* is what the owner walls in alone: the points reached from the
point without crossing the owner's stones, empty or holding the other side's stones, when they
are ``MAX_SPACE`` points or fewer. Where that leaks into open board (an opponent's stone beside
the space lives outside), the space is the point's empty region alone, and the opponent's stones
beside it stay outside and uncapturable: a point of the space next to them is a *margin*, where
the opponent plays safely. The owner's blocks next to the space are its *wall*; those with
liberties outside are the main group, whose capture loses (the others can be cut off and taken:
false eyes); empty points next to two blocks of the wall and beside the space are played too,
since the wall is cut or joined there. The wall's liberties outside are left out of the game:
the space alone must keep it alive.
"""

from __future__ import annotations

import numpy as np

from seog.features.coords import adjacent
from seog.reading.eyes import ATTACKER, DEFENDER, EMPTY, EyeGame

MAX_SPACE = 7  # the largest space read (empty points and the opponent's stones inside)
OUTSIDE_NODES = 2  # a wall block's liberties outside, as many as this, are left for the attacker to fill


def owner_at(grid: np.ndarray, index: int) -> int:
    """The colour whose eye space holds ``index`` (0 when neither side walls it in): for a stone,
    its opponent; for an empty point, the colour that walls it in within fewer points with a wall
    that is not all in atari (stones in atari are prisoners, not a wall), and on a tie the colour
    with more stones next to it, then next to its empty region."""
    flat = grid.ravel()
    if flat[index]:
        return -int(flat[index])
    nbrs = adjacent(grid.shape[0])
    sizes = {}
    for c in (1, -1):
        space = _flood(flat, nbrs, index, lambda p, c=c: flat[p] != c, MAX_SPACE + 1)
        walls = _blocks_next_to(flat, nbrs, set(space), c) if len(space) <= MAX_SPACE else []
        if any(len(_outside(flat, nbrs, block, set())) >= 2 for block in walls):
            sizes[c] = len(space)
    if len(sizes) == 1 or (len(sizes) == 2 and sizes[1] != sizes[-1]):
        return min(sizes, key=sizes.get)
    near = _balance(flat, nbrs, [index])
    if near:
        return near
    region = _flood(flat, nbrs, index, lambda p: flat[p] == EMPTY, MAX_SPACE + 1)
    return _balance(flat, nbrs, region) if len(region) <= MAX_SPACE else 0


def eye_game_at(grid: np.ndarray, index: int, prisoners: set[int] | frozenset = frozenset()) -> EyeGame | None:
    """The eye game of the space that holds ``index``, its nodes named by board index; None when
    no side walls the point in within ``MAX_SPACE`` points. ``prisoners``: stones known dead (a
    scorer's reading), which the space may hold where it is not walled in alone."""
    owner = owner_at(grid, index)
    if not owner:
        return None
    flat = grid.ravel()
    nbrs = adjacent(grid.shape[0])
    space = _flood(flat, nbrs, index, lambda p: flat[p] != owner, MAX_SPACE + 1)
    if len(space) > MAX_SPACE:
        inside = set(prisoners)
        if flat[index]:  # asked about a stone: it is taken to be a prisoner, and its block with it
            inside |= set(_flood(flat, nbrs, index, lambda p: flat[p] == flat[index], flat.size))
        space = _flood(flat, nbrs, index, lambda p: flat[p] == EMPTY or (flat[p] == -owner and p in inside),
                       MAX_SPACE + 1)
        if len(space) > MAX_SPACE:
            return None
    space_set = set(space)
    walls = _blocks_next_to(flat, nbrs, space_set, owner)
    if not walls:
        return None
    joins = _joining_points(flat, nbrs, space_set, walls)
    secure = {p for p in joins if _secure(flat, nbrs, p, owner)}
    joins = [p for p in joins if p not in secure]
    main = _main_group(flat, nbrs, walls, space_set, space_set | set(joins), secure)
    return _game(flat, nbrs, owner, space + joins, walls, main, space_set)


def _balance(flat: np.ndarray, nbrs, points) -> int:
    """The colour with more stones next to ``points`` (0 for a tie)."""
    seen = {q for p in points for q in nbrs[p] if flat[q]}
    score = sum(int(flat[q]) for q in seen)
    return (score > 0) - (score < 0)


def _flood(flat: np.ndarray, nbrs, start: int, inside, limit: int) -> list[int]:
    """Points reached from ``start`` through points where ``inside`` holds, at most ``limit``."""
    seen, todo = [start], [start]
    found = {start}
    while todo and len(seen) <= limit:
        p = todo.pop()
        for q in nbrs[p]:
            if q not in found and inside(q):
                found.add(q)
                seen.append(q)
                todo.append(q)
    return seen


def _blocks_next_to(flat: np.ndarray, nbrs, points: set[int], color: int) -> list[list[int]]:
    """The blocks of ``color`` next to ``points``."""
    blocks, seen = [], set()
    for p in sorted(points):
        for q in nbrs[p]:
            if flat[q] == color and q not in seen:
                block = _flood(flat, nbrs, q, lambda x: flat[x] == color, flat.size)
                seen.update(block)
                blocks.append(block)
    return blocks


def _joining_points(flat: np.ndarray, nbrs, space: set[int], walls: list[list[int]]) -> list[int]:
    """Empty points outside the space, beside it (a diagonal counts), next to two wall blocks."""
    block_of = {p: i for i, block in enumerate(walls) for p in block}
    near = {r for p in space for q in nbrs[p] for r in nbrs[q]} | {q for p in space for q in nbrs[p]}
    out = []
    for p in sorted(near - space):
        if flat[p] == EMPTY and len({block_of[q] for q in nbrs[p] if q in block_of}) >= 2:
            out.append(p)
    return out


def _game(flat: np.ndarray, nbrs, owner: int, played: list[int], walls: list[list[int]],
          main_blocks: set[int], space: set[int]) -> EyeGame:
    """The game's nodes: the points played; one node a wall block (once taken, a point to play on
    again, named when it was one stone); one node each opponent block
    outside the space that touches it with ``OUTSIDE_NODES`` liberties or fewer (a weak stone
    beside a margin may be taken: the margin is false); and the liberties outside of both as nodes
    that one side fills (the attacker the wall's, ``OUTSIDE_NODES`` at most a block or the main
    group; the defender the weak stones'): the space must keep the wall alive once they are gone.
    A stronger opponent stone beside a point makes a stone of the attacker there uncapturable."""
    played_set = set(played)
    nodes = _Nodes()
    for p in played:
        nodes.add(EMPTY if flat[p] == EMPTY else (DEFENDER if flat[p] == owner else ATTACKER), True, p)
    wall_node = {}
    for block in walls:
        node = nodes.add(DEFENDER, True, block[0] if len(block) == 1 else None)  # taken, played again as one point
        wall_node.update((p, node) for p in block)
    weak, weak_node = [], {}
    for block in _blocks_next_to(flat, nbrs, played_set, -owner):
        if block[0] in played_set:
            continue
        if len(_outside(flat, nbrs, block, played_set)) <= OUTSIDE_NODES:
            node = nodes.add(ATTACKER, False, None, no_room=True)
            weak.append(block)
            weak_node.update((p, node) for p in block)
    for i, p in enumerate(played):
        for q in nbrs[p]:
            if q in played_set:
                nodes.join(i, played.index(q))
            elif q in wall_node:
                nodes.join(i, wall_node[q])
            elif q in weak_node:
                nodes.join(i, weak_node[q])
            else:  # open board, or a strong opponent stone outside
                nodes.free[i] = ATTACKER
        if p not in space and any(flat[q] != owner for q in nbrs[p]):
            nodes.free[i] = ATTACKER  # a point that joins the wall is no eye of this space: a stone there stays
    main_nodes = {wall_node[walls[b][0]] for b in main_blocks}
    main_outside = set().union(*(_outside(flat, nbrs, walls[b], played_set) for b in main_blocks))
    nodes.outside(main_nodes, min(len(main_outside), OUTSIDE_NODES), ATTACKER)
    for b, block in enumerate(walls):
        if b not in main_blocks:
            nodes.outside({wall_node[block[0]]}, min(len(_outside(flat, nbrs, block, played_set)), OUTSIDE_NODES),
                          ATTACKER)
    for block in weak:
        nodes.outside({weak_node[block[0]]}, len(_outside(flat, nbrs, block, played_set)), DEFENDER)
    return EyeGame(tuple(tuple(sorted(nb)) for nb in nodes.neighbours), tuple(nodes.start), tuple(nodes.playable),
                   tuple(nodes.free), frozenset(main_nodes), tuple(nodes.names), tuple(nodes.only),
                   tuple(nodes.no_room))


class _Nodes:
    """An eye game's nodes as they are added."""

    def __init__(self) -> None:
        self.neighbours: list[set[int]] = []
        self.start: list[int] = []
        self.playable: list[bool] = []
        self.free: list[int] = []
        self.names: list = []
        self.only: list[int] = []
        self.no_room: list[bool] = []

    def add(self, color: int, playable: bool, name, free: int = EMPTY, only: int = EMPTY,
            no_room: bool = False) -> int:
        self.neighbours.append(set())
        self.start.append(color)
        self.playable.append(playable)
        self.free.append(free)
        self.names.append(name)
        self.only.append(only)
        self.no_room.append(no_room)
        return len(self.start) - 1

    def join(self, a: int, b: int) -> None:
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)

    def outside(self, blocks: set[int], count: int, filler: int) -> None:
        """``count`` liberties outside shared by the block nodes ``blocks``, filled by ``filler`` alone."""
        for _ in range(count):
            node = self.add(EMPTY, True, None, free=filler, only=filler)
            for b in blocks:
                self.join(node, b)


def _secure(flat: np.ndarray, nbrs, point: int, owner: int) -> bool:
    """Is ``point`` an eye of its own that joins its blocks for good: only the owner's stones
    around it, none of them in atari (an opponent's stone there would be a suicide)?"""
    if any(flat[q] != owner for q in nbrs[point]):
        return False
    return all(len(_outside(flat, nbrs, block, {point})) >= 1
               for block in _blocks_next_to(flat, nbrs, {point}, owner))


def _main_group(flat: np.ndarray, nbrs, walls: list[list[int]], space: set[int], played: set[int],
                secure: set[int]) -> set[int]:
    """The wall blocks that make one group outside the game: the block next to the most points
    of the space (then the biggest), and those joined to it by two shared liberties outside, or
    by a ``secure`` one (an empty point that only the owner's stones surround): connections the
    opponent cannot cut in one move."""
    outside = [_outside(flat, nbrs, block, played) for block in walls]
    touching = [len({q for p in block for q in nbrs[p]} & space) for block in walls]
    first = max(range(len(walls)), key=lambda b: (touching[b], len(walls[b]), len(outside[b])))
    group, todo = {first}, [first]
    while todo:
        b = todo.pop()
        for other in range(len(walls)):
            shared = outside[b] & outside[other]
            if other not in group and (len(shared) >= 2 or shared & secure):
                group.add(other)
                todo.append(other)
    return group


def _outside(flat: np.ndarray, nbrs, block: list[int], played: set[int]) -> set[int]:
    """A block's liberties outside the game."""
    return {q for p in block for q in nbrs[p] if flat[q] == EMPTY and q not in played}
