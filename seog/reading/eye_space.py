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

MAX_SPACE = 10  # the largest space read (empty points and the opponent's stones inside)


def owner_at(grid: np.ndarray, index: int) -> int:
    """The colour whose eye space holds ``index`` (0 when neither side walls it in): for a stone,
    its opponent; for an empty point, the colour that walls it in within fewer points, and on a
    tie the colour with more stones next to it, then next to its empty region."""
    flat = grid.ravel()
    if flat[index]:
        return -int(flat[index])
    nbrs = adjacent(grid.shape[0])
    sizes = {c: len(_flood(flat, nbrs, index, lambda p, c=c: flat[p] != c, MAX_SPACE + 1)) for c in (1, -1)}
    if sizes[1] != sizes[-1] and min(sizes.values()) <= MAX_SPACE:
        return min(sizes, key=sizes.get)
    near = _balance(flat, nbrs, [index])
    if near:
        return near
    region = _flood(flat, nbrs, index, lambda p: flat[p] == EMPTY, MAX_SPACE + 1)
    return _balance(flat, nbrs, region) if len(region) <= MAX_SPACE else 0


def eye_game_at(grid: np.ndarray, index: int) -> EyeGame | None:
    """The eye game of the space that holds ``index``, its nodes named by board index; None when
    no side walls the point in within ``MAX_SPACE`` points."""
    owner = owner_at(grid, index)
    if not owner:
        return None
    flat = grid.ravel()
    nbrs = adjacent(grid.shape[0])
    space = _flood(flat, nbrs, index, lambda p: flat[p] != owner, MAX_SPACE + 1)
    if len(space) > MAX_SPACE:
        if flat[index]:
            return None
        space = _flood(flat, nbrs, index, lambda p: flat[p] == EMPTY, MAX_SPACE + 1)
        if len(space) > MAX_SPACE:
            return None
    space_set = set(space)
    walls = _blocks_next_to(flat, nbrs, space_set, owner)
    if not walls:
        return None
    joins = _joining_points(flat, nbrs, space_set, walls)
    main = _main_group(flat, nbrs, walls, space_set, space_set | set(joins))
    return _game(flat, nbrs, owner, space + joins, walls, main)


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
          main_blocks: set[int]) -> EyeGame:
    """The game's nodes: the points played, one node a wall block, and the wall's liberties
    outside as nodes only the attacker fills (one for the main group, up to two for each other
    block): the space must keep the wall alive once they are gone."""
    index = {p: i for i, p in enumerate(played)}
    first_wall = len(played)
    block_node = {p: first_wall + i for i, block in enumerate(walls) for p in block}
    neighbours: list[set[int]] = [set() for _ in range(first_wall + len(walls))]
    free = [False] * len(neighbours)
    for p, i in index.items():
        for q in nbrs[p]:
            if q in index:
                neighbours[i].add(index[q])
            elif q in block_node:
                neighbours[i].add(block_node[q])
                neighbours[block_node[q]].add(i)
            elif flat[q] == EMPTY or flat[q] == -owner:  # open board, or the opponent's stones outside
                free[i] = True
    outside_nodes: list[set[int]] = []  # the wall nodes next to each outside liberty node
    main_nodes = {first_wall + b for b in main_blocks}
    if any(_outside(flat, nbrs, walls[b], set(index)) for b in main_blocks):
        outside_nodes.append(main_nodes)
    for b, block in enumerate(walls):
        if b not in main_blocks:
            count = min(len(_outside(flat, nbrs, block, set(index))), 2)
            outside_nodes.extend({first_wall + b} for _ in range(count))
    for wall_nodes in outside_nodes:
        node = len(neighbours)
        neighbours.append(set(wall_nodes))
        for w in wall_nodes:
            neighbours[w].add(node)
        free.append(True)
    extra = len(outside_nodes)
    start = tuple(EMPTY if flat[p] == EMPTY else (DEFENDER if flat[p] == owner else ATTACKER) for p in played)
    return EyeGame(tuple(tuple(sorted(nb)) for nb in neighbours),
                   start + (DEFENDER,) * len(walls) + (EMPTY,) * extra,
                   (True,) * len(played) + (False,) * len(walls) + (True,) * extra, tuple(free),
                   frozenset(main_nodes), tuple(played) + (None,) * (len(walls) + extra),
                   (False,) * (len(played) + len(walls)) + (True,) * extra)


def _main_group(flat: np.ndarray, nbrs, walls: list[list[int]], space: set[int], played: set[int]) -> set[int]:
    """The wall blocks that make one group outside the game: the block next to the most points
    of the space (then the biggest), and those joined to it by two shared liberties outside (a
    connection the opponent cannot cut in one move)."""
    outside = [_outside(flat, nbrs, block, played) for block in walls]
    touching = [len({q for p in block for q in nbrs[p]} & space) for block in walls]
    first = max(range(len(walls)), key=lambda b: (touching[b], len(walls[b]), len(outside[b])))
    group, todo = {first}, [first]
    while todo:
        b = todo.pop()
        for other in range(len(walls)):
            if other not in group and len(outside[b] & outside[other]) >= 2:
                group.add(other)
                todo.append(other)
    return group


def _outside(flat: np.ndarray, nbrs, block: list[int], played: set[int]) -> set[int]:
    """A block's liberties outside the game."""
    return {q for p in block for q in nbrs[p] if flat[q] == EMPTY and q not in played}
