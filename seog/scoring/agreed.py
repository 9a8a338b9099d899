"""Territory of a position whose dead stones are given, by the agreed-position convention.

The convention goscorer uses (lightvector/goscorer, the reference OGS counts agreed positions
with), written anew from its description: once the players have said which stones are dead,
every other group lives, and a group left alive that cannot make two eyes lives in seki, its
eyes no one's (the Japanese rules, Articles 7 and 8). The steps, each a function of
arrays:

1. ``shut_points``: empty points a colour closes to its opponent by shape (a diagonal cut the
   opponent cannot hold), so that reaching them does not make a region neutral.
2. ``reaches``: the points from which a path avoiding the opponent's live stones meets a live
   stone of each colour (dead stones are open ground).
3. ``regions``: each colour's live stones and the points only it reaches, joined through points
   both reach; every other point is dame.
4. ``chains`` (blocks of one colour and one status, empty points included), ``groups`` (a
   colour's live stones joined through dame it can walk) and ``eyes`` (the empty or dead points
   of a region, joined within it).
5. ``false_points``: points of an eye through which alone a group meets the rest of its eye or
   its other eyes; with every eye valued 0 they are the false eyes, with the eyes valued
   (``eye_value``: 0, 1 or 2 by the eye's shape, the opponent's stones in it and the moves
   needed to close it) the false eyes that a group must fill, which count for nobody.
6. ``agreed_count``: a region whose eyes are worth less than two in all is in seki: its points
   are no one's; the rest of a region's empty and dead points are its colour's territory, except
   unscorable false eyes and points the opponent still reaches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from seog.features.arrays import grow, label
from seog.features.coords import BLACK, EMPTY, WHITE

Point = tuple[int, int]

# Shapes in which the empty point ``@`` is closed to the opponent of ``p`` (a live stone of the
# colour): ``.`` empty, a live stone of the colour or a dead opponent stone, ``?`` anything. The
# shapes marked ``edge`` hold only with their last row on the board's edge.
SHUT_SHAPES = (
    (("pp", "@.", "p."), False),
    ((".p?", ".@.", ".p?"), False),
    (("p..", ".@p", "p.."), False),
    (("?.?", "p@p"), True),
    (("pp", "@."), True),
    ((".p?", ".@."), True),
)


@dataclass(frozen=True)
class AgreedCount:
    """Per point: ``territory`` (1 Black's, -1 White's, 0 nobody's; under a dead stone too),
    ``seki`` (the colour of the group in seki whose stone or eye the point is, else 0),
    ``false_eye`` and ``unscorable`` (false eyes, and those a group must fill), ``dame`` (in no
    region) and ``eye_value`` (0, 1 or 2: what the point's eye is worth)."""

    territory: np.ndarray
    seki: np.ndarray
    false_eye: np.ndarray
    unscorable: np.ndarray
    dame: np.ndarray
    eye_value: np.ndarray


def _neighbours(point: Point, shape: tuple[int, int]) -> tuple[Point, ...]:
    return _neighbour_table(shape)[point]


@cache
def _neighbour_table(shape: tuple[int, int]) -> dict[Point, tuple[Point, ...]]:
    """Per point of a board of ``shape``, its on-board neighbours: built once per size, since the
    count asks for them tens of thousands of times a position."""
    h, w = shape
    return {(r, c): tuple((y, x) for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= y < h and 0 <= x < w)
            for r in range(h) for c in range(w)}


@cache
def _flat_neighbours(shape: tuple[int, int]) -> tuple[tuple[int, ...], ...]:
    """Per flat point of a board of ``shape``, its on-board neighbours' flat points."""
    table, w = _neighbour_table(shape), shape[1]
    return tuple(tuple(y * w + x for y, x in table[divmod(i, w)]) for i in range(shape[0] * w))


def _orientations(a: np.ndarray):
    """The eight turns and mirrors of ``a``."""
    for mirror in (False, True):
        for k in range(4):
            yield np.rot90(a.T if mirror else a, k)


# what a point may be in a shut shape, as bits: ``p``, ``.``, ``@``
_KIND_BITS = {"p": 1, ".": 2, "@": 4}


@cache
def _shut_windows(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every placement of every turn of every shut shape on a board of ``shape``, as (the flat
    point of each of its cells, one row a placement, padded to nine; the bit each cell needs, 0
    for anything; the flat point of its ``@``): the shapes are matched by one gather a position."""
    index = np.arange(shape[0] * shape[1]).reshape(shape)
    cells, needs, ats = [], [], []
    for turned in _orientations(index):
        h, w = turned.shape
        for rows, edge in SHUT_SHAPES:
            ph, pw = len(rows), len(rows[0])
            if ph > h or pw > w:
                continue
            # an edge shape only with its last row on the (turned) bottom edge
            tops = range(h - ph, h - ph + 1) if edge else range(h - ph + 1)
            for top in tops:
                for left in range(w - pw + 1):
                    cell, need = [0] * 9, [0] * 9
                    for k, (dy, dx) in enumerate(np.ndindex(ph, pw)):
                        ch = rows[dy][dx]
                        cell[k] = turned[top + dy, left + dx]
                        need[k] = _KIND_BITS.get(ch, 0)
                        if ch == "@":
                            ats.append(turned[top + dy, left + dx])
                    cells.append(cell)
                    needs.append(need)
    return (np.array(cells, dtype=np.intp).reshape(-1, 9), np.array(needs, dtype=np.uint8).reshape(-1, 9),
            np.array(ats, dtype=np.intp))


def shut_points(grid: np.ndarray, dead: np.ndarray) -> np.ndarray:
    """Per point, the colour (or 0) whose shape closes this empty point to the other colour."""
    out = np.zeros(grid.shape, dtype=np.int8)
    cells, needs, ats = _shut_windows(grid.shape)
    empty = grid == EMPTY
    # only the placements whose ``@`` is empty can match
    keep = empty.ravel()[ats]
    cells, needs, ats = cells[keep], needs[keep], ats[keep]
    anything = needs == 0
    for colour in (BLACK, WHITE):
        live = (grid == colour) & ~dead
        open_ = empty | live | ((grid == -colour) & dead)
        kinds = (live * _KIND_BITS["p"] | open_ * _KIND_BITS["."] | empty * _KIND_BITS["@"]).astype(np.uint8).ravel()
        match = (((kinds[cells] & needs) != 0) | anything).all(axis=1)
        out.flat[ats[match]] = colour
    return out


def reaches(grid: np.ndarray, dead: np.ndarray, shut: np.ndarray | None = None) -> dict[int, np.ndarray]:
    """Per colour, the points a path meets from its live stones without crossing a live opponent
    stone; with ``shut``, a point the opponent closed is reached but the path stops there."""
    out = {}
    for colour in (BLACK, WHITE):
        passable = ~((grid == -colour) & ~dead)
        onward = passable if shut is None else passable & (shut != -colour)
        seen = (grid == colour) & ~dead
        while True:
            more = grow(seen & onward) & passable & ~seen
            if not more.any():
                break
            seen |= more
        out[colour] = seen
    return out


def regions(grid: np.ndarray, dead: np.ndarray, shut: np.ndarray,
            reach: dict[int, np.ndarray]) -> tuple[np.ndarray, list[int]]:
    """(region id per point, -1 for dame; the colour of each region). A colour's region is the
    points only it reaches, joined through any point it may pass (not a live opponent stone),
    a point its opponent closed joining nothing beyond it."""
    # plain lists over flat points: the walk reads one point at a time, which numpy does slowly
    h, w = grid.shape
    around = _flat_neighbours(grid.shape)
    ids = [-1] * (h * w)
    colours: list[int] = []
    own = {colour: (reach[colour] & ~reach[-colour]).ravel().tolist() for colour in (BLACK, WHITE)}
    walls = {colour: ((grid == -colour) & ~dead).ravel().tolist() for colour in (BLACK, WHITE)}
    stops = {colour: (shut == -colour).ravel().tolist() for colour in (BLACK, WHITE)}
    for start in range(h * w):
        for colour in (BLACK, WHITE):
            mine, wall, stop = own[colour], walls[colour], stops[colour]
            if not (mine[start] and ids[start] < 0):
                continue
            region = len(colours)
            colours.append(colour)
            seen, todo = {start}, [start]
            while todo:
                p = todo.pop()
                if mine[p]:
                    ids[p] = region
                if stop[p]:
                    continue
                for q in around[p]:
                    if q not in seen and ids[q] < 0 and not wall[q]:
                        seen.add(q)
                        todo.append(q)
    return np.array(ids, dtype=np.int64).reshape(grid.shape), colours


def chains(grid: np.ndarray, dead: np.ndarray, region: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(chain id per point, from 1; liberties per chain; each chain's region, -1 where it spans
    several or none). A chain: joined points of one colour (or empty) and one status."""
    ids = np.zeros(grid.shape, dtype=np.int64)
    n = 0
    for colour in (BLACK, WHITE, EMPTY):
        for status in (False, True):
            found, k = label((grid == colour) & (dead == status))
            ids[found > 0] = found[found > 0] + n
            n += k
    # liberties: the (chain, empty neighbour) pairs marked in a table; region: one if its values
    # on the chain are all equal, that is if n * sum(r^2) == sum(r)^2
    flat = np.arange(grid.size).reshape(grid.shape)
    empty = grid == EMPTY
    table = np.zeros((n + 1, grid.size), dtype=bool)
    for a, b in (((slice(1, None), slice(None)), (slice(None, -1), slice(None))),
                 ((slice(None, -1), slice(None)), (slice(1, None), slice(None))),
                 ((slice(None), slice(1, None)), (slice(None), slice(None, -1))),
                 ((slice(None), slice(None, -1)), (slice(None), slice(1, None)))):
        here, there = ids[a], ids[b]
        at = empty[b] & (here != there)
        table[here[at], flat[b][at]] = True
    liberties = np.count_nonzero(table, axis=1).astype(np.int64)
    size = np.bincount(ids.ravel(), minlength=n + 1)
    total = np.bincount(ids.ravel(), weights=region.ravel(), minlength=n + 1).astype(np.int64)
    squares = np.bincount(ids.ravel(), weights=region.ravel() ** 2, minlength=n + 1).astype(np.int64)
    where = np.where(size * squares == total * total, total // np.maximum(size, 1), -1)
    where[0] = 0
    return ids, liberties, where


def groups(grid: np.ndarray, dead: np.ndarray, shut: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Group id per live stone (0 elsewhere): a colour's live stones joined through dame points
    its opponent has not closed."""
    out = np.zeros(grid.shape, dtype=np.int64)
    n = 0
    for colour in (BLACK, WHITE):
        stones = (grid == colour) & ~dead
        found, k = label(stones | ((region < 0) & (shut != -colour)))
        out[stones] = found[stones] + n
        n += k
    return out


@dataclass(frozen=True)
class _Eye:
    """An eye's points, region, colour, and per group the eye points next to its stones."""

    points: frozenset
    region: int
    colour: int
    touching: dict  # group -> eye points next to it


def eyes(grid: np.ndarray, dead: np.ndarray, region: np.ndarray, colours: list[int],
         group: np.ndarray) -> tuple[np.ndarray, list[_Eye], dict]:
    """(eye id per point, -1 elsewhere; the eyes; per group, per eye, the group's stones next to
    it). An eye: the empty or dead points of one region joined within it."""
    ids = np.full(grid.shape, -1, dtype=np.int64)
    found: list[_Eye] = []
    stones_at: dict = {}
    ground = (grid == EMPTY) | dead
    group_at, region_at = group.tolist(), region.tolist()  # plain lists: read a point at a time
    for reg in range(len(colours)):
        parts, k = label(ground & (region == reg))
        for part in range(1, k + 1):
            mine = parts == part
            eye = _Eye(frozenset(zip(*(axis.tolist() for axis in np.nonzero(mine)))), reg, colours[reg], {})
            ids[mine] = len(found)
            for p in eye.points:
                for q in _neighbours(p, grid.shape):
                    owner = group_at[q[0]][q[1]]
                    if owner and region_at[q[0]][q[1]] == reg:
                        eye.touching.setdefault(owner, set()).add(p)
                        stones_at.setdefault(owner, {}).setdefault(len(found), set()).add(q)
            found.append(eye)
    return ids, found, stones_at


def _flood(within: set, start, excluded: set) -> set:
    """The points of ``within`` joined to ``start`` inside it, avoiding ``excluded``."""
    out = {p for p in start if p in within and p not in excluded}
    todo = list(out)
    while todo:
        r, c = todo.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if q in within and q not in out and q not in excluded:
                out.add(q)
                todo.append(q)
    return out


def false_points(shape: tuple[int, int], region: np.ndarray, found: list[_Eye], stones_at: dict,
                 valued: list[set] | None = None, among: np.ndarray | None = None) -> np.ndarray:
    """Eye points through which alone a group next to them meets the eye again from every side of
    the point, or an eye worth something: a group must fill them. Points with two neighbours in
    their eye never are. ``valued``: per eye, its real points where it is worth an eye or more
    (else empty); None while no eye is valued. ``among``: only these points can be false (valuing
    eyes only adds ways to meet again, so the false points with values lie among those without)."""
    valued = valued if valued is not None else [set() for _ in found]
    region_at = region.tolist()  # a plain list: read a point at a time
    out = np.zeros(shape, dtype=bool)
    for home, eye in enumerate(found):
        for start, near in eye.touching.items():
            for point in near:
                if among is not None and not among[point]:
                    continue
                if sum(q in eye.points for q in _neighbours(point, shape)) > 1:
                    continue
                sides_needed = sum(region_at[y][x] == eye.region for y, x in _neighbours(point, shape))
                if not _meets_again(point, home, start, found, stones_at, valued, sides_needed):
                    out[point] = True
    return out


def _meets_again(point: Point, home: int, start: int, found: list[_Eye], stones_at: dict, valued: list[set],
                 sides_needed: int) -> bool:
    """Does group ``start``, walking through groups and eyes, reach ``point`` from every side, or
    reach an eye worth something, without passing through ``point``? ``point`` has at most one
    neighbour in its eye, so the rest of the eye is joined: the first group to reach it walks it all."""
    eye = found[home]
    r, c = point
    beside = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    sides: set = set()
    walked_groups: set = set()
    walked_eyes: set = set()
    home_walked = False
    todo = [start]
    while todo:
        grp = todo.pop()
        if grp in walked_groups:
            continue
        walked_groups.add(grp)
        # the walk's answer does not hang on its order: every test only gains from walking further
        for other, stones in stones_at.get(grp, {}).items():
            if other in walked_eyes:
                continue
            if other != home:
                walked_eyes.add(other)
                if valued[other]:
                    return True
                todo += found[other].touching
                continue
            sides.update(q for q in beside if q in stones)
            if len(sides) >= sides_needed:
                return True
            if home_walked or not eye.touching[grp] - {point}:
                continue
            home_walked = True
            reached = eye.points - {point}
            if reached & valued[home]:
                return True
            sides.update(q for q in beside if q in reached)
            if len(sides) >= sides_needed:
                return True
            todo += [g for g, near in eye.touching.items() if near & reached]
    return False


def _playable(grid: np.ndarray, chain: np.ndarray, liberties: np.ndarray, point: Point, colour: int) -> bool:
    """Could ``colour`` play at ``point`` without suicide, counting a capture of a block in atari."""
    if grid[point] != EMPTY:
        return False
    return any(grid[q] != -colour or liberties[chain[q]] <= 1 for q in _neighbours(point, grid.shape))


def _pieces(points: set, removed: set) -> list[set]:
    """The joined parts of ``points`` once ``removed`` is taken out."""
    left, out = set(points) - removed, []
    while left:
        part = _flood(left, [next(iter(left))], set())
        out.append(part)
        left -= part
    return out


def eye_value(eye: _Eye, real: set, grid: np.ndarray, dead: np.ndarray, chain: np.ndarray,
              liberties: np.ndarray, false: np.ndarray) -> int:
    """What an eye is worth to its colour: 0, 1 or 2 eyes, judged from its points that are not
    false, the moves the colour needs to close each, and the opponent's stones inside."""
    shape, colour = grid.shape, eye.colour
    # dicts of plain values: the tests below read single points, which numpy does slowly
    near = {p: _neighbours(p, shape) for p in real}
    around = {q for p in real for q in near[p]} | real
    stone = {q: int(grid[q]) for q in around}
    inner = {p: [q for q in near[p] if q in real] for p in real}
    # each test below can only raise the value, and two is the most, so the cheap tests go first
    # and the first to reach two ends the search
    wide = sum(stone[p] == EMPTY and len(inner[p]) >= 4 for p in real)
    wide += sum(stone[p] == EMPTY and len(inner[p]) >= 3 for p in real)
    if wide >= 6:
        return 2
    is_false = {q: bool(false[q]) for q in around}
    empty_false = {p: sum(stone[q] == EMPTY and is_false[q] for q in near[p]) for p in real}
    opp_false = {p: sum(stone[q] == -colour and is_false[q] for q in near[p]) for p in real}
    # an opponent stone on a false eye point, or next to one, can never be taken back into the eye
    poked = {p for p in real if stone[p] == -colour and (opp_false[p] > 0 or empty_false[p] >= 2)}

    def cost(q: Point) -> int:
        if stone[q] == -colour and (is_false[q] or q in poked):
            return 1000
        if stone[q] == EMPTY and (q not in real or opp_false[q] >= 1):
            return 1
        return int(stone[q] == -colour and q in real and empty_false[q] >= 1)

    to_close = {p: sum(cost(q) for q in near[p]) for p in real}
    value = int(any(v <= 1 for v in to_close.values()))
    dead_inside = sum(stone[p] == -colour and bool(dead[p]) for p in real)
    value = max(value, 1 if dead_inside >= 5 else 0, 2 if dead_inside >= 8 else 0)
    weak = sum(v >= 1 for v in to_close.values()) + sum(v >= 2 for v in to_close.values())
    crowded = sum(stone[p] == -colour and len(inner[p]) >= 2 for p in real)
    if value >= 2 or len(real) - weak - crowded >= 6:
        return 2

    # a point whose filling splits the eye: every part holding a closed point is an eye
    whole = _pieces(real, set())
    for cut in real:
        if not _playable(grid, chain, liberties, cut, colour):
            continue
        # filling a point with at most one neighbour in the eye only trims its part
        parts = ([part - {cut} for part in whole if part - {cut}] if len(inner[cut]) <= 1
                 else _pieces(real, {cut}))
        if len(parts) >= 2:
            slack = 1 if opp_false[cut] == 1 else 0
            value = max(value, sum(any(to_close[p] <= slack for p in part) for part in parts))
            if value >= 2:
                return 2

    if _two_by_wide_pair(real, inner, to_close, grid, chain, liberties, colour):
        return 2
    if _lives_by_captured_shape(eye, real, grid, dead, chain, liberties, false):
        return 2
    return value


def _two_by_wide_pair(real: set, inner: dict, to_close: dict, grid: np.ndarray, chain: np.ndarray,
                      liberties: np.ndarray, colour: int) -> bool:
    """Two adjacent points of three or more eye neighbours each, off the edge and cheap to close,
    whose filling splits the eye into two closed parts, one of them closed twice over."""
    h, w = grid.shape
    for first in real:
        r, c = first
        if (grid[first] != EMPTY or r in (0, h - 1) or c in (0, w - 1) or to_close[first] > 1
                or len(inner[first]) < 3 or not _playable(grid, chain, liberties, first, colour)):
            continue
        for second in inner[first]:
            if len(inner[second]) < 3 or to_close[second] > 1:
                continue
            if grid[second] != EMPTY and sum(grid[q] == EMPTY for q in inner[second]) <= 1:
                continue
            parts = _pieces(real, {first, second})
            if len(parts) < 2:
                continue
            closed = [sum(to_close[p] <= 0 for p in part) for part in parts]
            once, twice = sum(k >= 1 for k in closed), sum(k >= 2 for k in closed)
            if once >= 2 and twice >= 1 and (grid[second] == EMPTY or twice >= 2):
                return True
    return False


def _lives_by_captured_shape(eye: _Eye, real: set, grid: np.ndarray, dead: np.ndarray, chain: np.ndarray,
                             liberties: np.ndarray, false: np.ndarray) -> bool:
    """The dead stones inside, once captured, leave a space of two eyes: whatever single point the
    opponent keeps out of it, its parts less the stones thrown into false eyes, plus half its
    cutting and wide points, come to two or more."""
    colour = eye.colour
    captured = {p for p in real if grid[p] == -colour and dead[p]}
    if not captured:
        return False
    closed = [p for p in real if p not in captured
              and not _playable(grid, chain, liberties, p, colour)]
    thrown = sum(grid[p] == -colour and false[p] for p in eye.points)
    for kept_out in [*closed, None]:
        space = captured | {p for p in closed if p != kept_out}
        parts = len(_pieces(space, set()))
        cuts = wide = 0
        for p in space:
            if len(_pieces(space, {p})) > parts:
                cuts += 1
            elif sum(q in space for q in _neighbours(p, grid.shape)) >= 3:
                wide += 1
        big = 1 if len(space) >= 7 else 0
        if parts - thrown + (cuts + wide + big) // 2 < 2:
            return False
    return True


def agreed_count(grid: np.ndarray, dead: np.ndarray) -> AgreedCount:
    """Territory, seki and false eyes of a position whose dead stones (``dead``) are given."""
    grid = np.asarray(grid, dtype=np.int8)
    dead = np.asarray(dead, dtype=bool) & (grid != EMPTY)
    shut = shut_points(grid, dead)
    strict = reaches(grid, dead)
    region, colours = regions(grid, dead, shut, reaches(grid, dead, shut))
    chain, liberties, chain_region = chains(grid, dead, region)
    group = groups(grid, dead, shut, region)
    eye_id, found, stones_at = eyes(grid, dead, region, colours, group)

    false = false_points(grid.shape, region, found, stones_at)
    real = [{p for p in eye.points if not false[p]} for eye in found]
    value = [eye_value(eye, points, grid, dead, chain, liberties, false) for eye, points in zip(found, real)]
    unscorable = false_points(grid.shape, region, found, stones_at,
                              [points if v > 0 else set() for points, v in zip(real, value)], false)

    # the points next to a dead stone thrown into a false eye are the owner's to fill too
    beside_throw_in = {-colour: _beside(unscorable & dead & (grid == colour)) for colour in (BLACK, WHITE)}

    worth = np.zeros(len(colours) + 1, dtype=np.int64)
    for eye, v in zip(found, value):
        worth[eye.region] += v
    region_colour = np.array(colours + [0], dtype=np.int8)[region]  # -1 ids read the 0 appended
    in_region = region >= 0
    seki = np.where(in_region & (worth[np.maximum(region, 0)] <= 1), region_colour, 0).astype(np.int8)
    ground = (grid == EMPTY) | dead
    for colour in (BLACK, WHITE):
        unscorable |= (region_colour == colour) & in_region & ground & beside_throw_in[colour]
    whole = in_region & (chain_region[chain] == region)
    reached_by_other = np.where(region_colour == BLACK, strict[WHITE], strict[BLACK])
    territory = in_region & ground & (seki == 0) & ~unscorable & whole & ~reached_by_other
    values = np.array(value + [0], dtype=np.int8)[eye_id]  # -1 ids read the 0 appended
    return AgreedCount(np.where(territory, region_colour, 0).astype(np.int8), seki,
                       false & in_region, unscorable & in_region, ~in_region, values)


def _beside(mask: np.ndarray) -> np.ndarray:
    """The points next to a point of ``mask`` (a point of the mask only where another touches it)."""
    out = np.zeros(mask.shape, dtype=bool)
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out
