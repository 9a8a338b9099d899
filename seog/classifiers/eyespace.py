"""Eye space: groups with room for one eye at most, surrounded by groups that live on their own, are dead.

The nets judge a block from its local features, and a big group sitting in the opponent's area
looks strong to them: many stones, several liberties, a wall around them. What kills such a
group is that it cannot make two eyes, which this pass counts directly.

A *group* here is the blocks of one colour called alive that can join up: through a shared
empty region (a shared liberty is one), or a region the colour encloses with no living opponent
stone in it. Its *eyes* are the regions it encloses alone (``topology.cers``) with no living
opponent stone in them, each classed by shape:
- one point with opponent stones on too many diagonals is a false eye;
- up to three points, a square four, a pyramid four whose centre the opponent holds, or a four
  whose opponent stones are all one block of two or more is one eye at most;
- so is a bulky five, a crossed five or a flower six whose opponent stones are one block that
  holds its vital point (the point next to the most others): taken, the space is the opponent's
  to play in first, and a stone on that point leaves one eye;
- anything bigger may make two.
A group with no room for two eyes is dead when it borders a living opponent block, no such block
has all its *room* among the group's (that is seki, or a capturing race), and every opponent group
next to it lives on its own: it holds a block alive by Benson's algorithm, two eyes, or one eye of
``alone_eye`` points or more (six, chosen on held-out games: docs/model.md). That eye may be walled
in part by the group's prisoners (opponent stones called dead next to it): if the group dies, they
live. Smaller eyes may not: a prisoner in atari walling two points makes a ko or a snapback there,
not an eye. An opponent block next to the group whose one point of room is the group's races
nothing when the group has two points of room or more: the group takes it first, and its points
count as eye space. So do the group's prisoners in atari (``taken_min`` stones or more, two, called
dead, walled in by the group alone and unable to run out): taken, their points are the group's
alone, whether or not the space beside them reaches the opponent outside (``_taken_eyes``). A
block's room is its liberties once the dead stones are taken off: its liberties and the points of
the opponent blocks next to it that are dead and not flagged uncertain (a doubtful verdict must not
break up a seki). Opponent stones called dead next to the group whose neighbours are now all dead
are alive again (``status.revive_uncaptured``).

The converse (``enclosed_alive``): a group the nets call dead that has no liberty outside the
small regions it encloses alone, and two of those that are not false eyes, is alive, and the
opponent stones inside them are dead. The opponent can only play inside the group's eyes,
where every stone it adds is taken before it takes the group.

The second converse (``big_eye_alive``): a group the nets call dead that encloses alone a region
of ``big_eye`` empty points or more, holding no more than ``few_stones`` opponent stones called
alive, is alive, and those stones dead. No eye space of seven points can be killed, and three
stones cannot make a living group inside it. One point less will do when the group encloses
another region with no living opponent stone in it: six points always make one eye, and the
other region is a second. Around a group called alive, three stones called alive or fewer inside
``big_eye`` empty points are dead as well. A region of more than half the board is open board,
no eye (``open_board``): the pass reads nothing from it.

``alone_eye``, ``big_eye``, ``few_stones``, ``open_board``, ``taken_min`` and the other sizes of
these passes are fields of ``classifiers.settings.PassSettings``: each pass takes them as
``settings``, and the values above are ``DEFAULT``'s.
"""

from __future__ import annotations

from seog.classifiers.capturers import revive_uncaptured
from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.vocabulary import BY_NETS, Source, redecide
from seog.features.coords import adjacent
from seog.features.topology import Topology


def eyeless_dead(topology: Topology, statuses: dict, settings: PassSettings = DEFAULT) -> dict:
    """Statuses after the eye-space pass: groups that cannot make two eyes dead (source
    ``eyespace``), their prisoners alive again. An opponent group lives on its own with an eye
    of ``settings.alone_eye`` points or more (all its points, stones too); the group's prisoners
    in atari of ``settings.taken_min`` stones or more are eye space."""
    alive = [statuses[b.id].alive for b in topology.blocks]
    gone = [not statuses[b.id].alive and not statuses[b.id].uncertain for b in topology.blocks]  # surely dead
    benson = {b for b, st in statuses.items() if st.source == Source.BENSON}
    group_of = {color: _groups(topology, color, alive) for color in (1, -1)}
    members = {color: _members(group_of[color]) for color in (1, -1)}
    lives: dict[int, bool] = {}  # group id (a block id, so unique across colours) -> lives on its own
    dead: set[int] = set()
    for color in (1, -1):
        for blocks in members[color].values():
            if _dies(topology, color, blocks, group_of[-color], members[-color], alive, gone, benson, lives,
                     settings):
                dead.update(blocks)
    if not dead:
        return statuses
    out = redecide(statuses, dict.fromkeys(dead, False), Source.EYESPACE)
    prisoners = {o for b in dead for o in topology.blocks[b].opponents if not out[o].alive}
    return revive_uncaptured(topology, out, prisoners)


def _groups(topology: Topology, color: int, alive: list[bool]) -> dict[int, int]:
    """Block id -> group id for the living blocks of ``color``."""
    ids = {b.id for b in topology.blocks if b.color == color and alive[b.id]}
    links = [r.blocks for r in topology.regions]  # a shared liberty is a shared region too
    links += [c.blocks for c in topology.cers[color] if c.inner_blocks and not any(alive[i] for i in c.inner_blocks)]
    return _union(ids, links)


def _union(ids: set[int], links: list[list[int]]) -> dict[int, int]:
    """Block id -> group id: union-find over ``ids``, joining those that share a link."""
    parent = {b: b for b in sorted(ids)}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for blocks in links:
        mine = [b for b in blocks if b in parent]
        if len(mine) > 1:
            root = find(mine[0])  # stays the root: only other roots are put under it
            for b in mine[1:]:
                parent[find(b)] = root
    return {b: find(b) for b in parent}


def _members(groups: dict[int, int]) -> dict[int, list[int]]:
    """Group id -> its block ids."""
    out: dict[int, list[int]] = {}
    for b, g in groups.items():
        out.setdefault(g, []).append(b)
    return out


def _eyes(topology: Topology, color: int, blocks: list[int], alive: list[bool]) -> list[tuple[str, int]]:
    """(kind, points) of every region the group encloses alone with no living opponent stone in
    it: kind 'false', 'one' or 'two'."""
    mine, out = set(blocks), []
    for cer in topology.cers[color]:
        if not _walled_alone(cer, mine, alive):
            continue
        size = len(cer.points)
        if _false_eye_region(topology, cer, color, alive):
            out.append(("false", 1))
        elif size <= 3 or (size == 4 and _one_eye_four(topology, cer.points.tolist(), color)):
            out.append(("one", size))
        elif size in (5, 6) and _vital_held(topology, cer.points.tolist(), color):
            out.append(("one", size))
        else:
            out.append(("two", size))
    return out


def _walled_alone(cer, mine: set[int], alive: list[bool]) -> bool:
    """Is the region enclosed by the group's blocks (``mine``) alone, with no living opponent stone in it?"""
    # the first block tried alone turns most regions away without building a set
    return (bool(cer.blocks) and cer.blocks[0] in mine and set(cer.blocks) <= mine
            and not any(alive[i] for i in cer.inner_blocks))


def _false_eye(topology: Topology, point: int, color: int, alive: list[bool]) -> bool:
    """Living opponent stones on two diagonals (one on the edge) make a one-point eye false."""
    n = topology.size
    r, c = divmod(point, n)
    diagonals = [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)
                 if 0 <= r + dr < n and 0 <= c + dc < n]
    held = sum(1 for y, x in diagonals
               if topology.grid[y, x] == -color and alive[topology.block_of[y, x] - 1])
    return held >= (2 if len(diagonals) == 4 else 1)


def _one_eye_four(topology: Topology, points: list[int], color: int) -> bool:
    """A four-point region that makes one eye at most: square, pyramid with the opponent on its
    centre, or holding opponent stones that are all one block of two or more. (Stones of two blocks are taken
    one at a time, and the capturing stones may split the space into two eyes.)"""
    n, pts = topology.size, set(points)
    if _square(pts, n):
        return True
    flat = topology.grid.ravel()
    held = [int(topology.block_of.flat[p]) for p in pts if flat[p] == -color]
    if len(held) >= 2 and len(set(held)) == 1:
        return True
    centre = _pyramid_centre(pts, n)
    return centre is not None and flat[centre] == -color


def _room(topology: Topology, block: int, gone: list[bool]) -> set[int]:
    """A block's room: its liberties and the points of the opponent blocks it touches that are
    ``gone`` (dead, and not in doubt), which come off the board."""
    b = topology.blocks[block]
    room = set(b.liberties.tolist())
    for o in b.opponents:
        if gone[o]:
            room.update(topology.blocks[o].points.tolist())
    return room


def _two_eyes(topology: Topology, color: int, blocks: list[int], alive: list[bool], taken_min: int) -> bool:
    """Has the group room for two eyes: one region that may make two, or two that make one?
    Prisoners of ``taken_min`` stones or more it can take at once count too (``_taken_eyes``)."""
    eyes = [kind for kind, _ in _eyes(topology, color, blocks, alive) if kind != "false"]
    eyes += [kind for kind, _ in _taken_eyes(topology, color, blocks, alive, taken_min)]
    return "two" in eyes or len(eyes) >= 2


def _taken_eyes(topology: Topology, color: int, blocks: list[int], alive: list[bool],
                taken_min: int) -> list[tuple[str, int]]:
    """(kind, points) of the eyes the group makes by taking its prisoners in atari: opponent
    blocks of ``taken_min`` stones or more called dead, walled in by the group alone but for their
    one liberty, and not inside a region ``_eyes`` counts already (the space beside them may
    reach the opponent's stones outside). Once taken, their points are empty and the group's
    alone: up to three points make one eye, four by shape (``_one_eye_space``), five or six
    when they are a bulky five, a crossed five or a flower six (``_vital_point``: the opponent
    plays on it first), more room for two. (A bent four in the corner, which the opponent can
    keep to one eye, counts as two too: the Japanese ruling on it is the count's,
    ``scoring.rulings``.) The taking stone must join the group, and the prisoner must not run
    out through its liberty."""
    mine, n, out = set(blocks), topology.size, []
    block_of, cer_of = topology.block_of.ravel(), topology.cer_of[color].ravel()
    around = adjacent(n)
    prisoners = {o for b in blocks for o in topology.blocks[b].opponents if not alive[o]}
    for o in sorted(prisoners):
        prisoner = topology.blocks[o]
        if prisoner.size < taken_min or len(prisoner.liberties) != 1:
            continue
        points, liberty = set(prisoner.points.tolist()), int(prisoner.liberties[0])
        if any(q not in points and q != liberty and block_of[q] - 1 not in mine for p in points for q in around[p]):
            continue  # another block walls it too
        if not any(block_of[q] - 1 in mine for q in around[liberty]):
            continue  # the taking stone would not join the group
        extended = topology.liberties_after(liberty, prisoner.color)
        if extended is None or len(extended - {liberty}) >= 2:
            continue  # the prisoner can run out, or capture its way out
        label = cer_of[int(prisoner.points[0])]
        if label and _walled_alone(topology.cers[color][label - 1], mine, alive):
            continue  # inside a region ``_eyes`` counts
        one = (prisoner.size <= 3 or (prisoner.size == 4 and _one_eye_space(points, n))
               or (prisoner.size in (5, 6) and _vital_point(points, n) is not None))
        out.append(("one" if one else "two", prisoner.size))
    return out


def _one_eye_space(points: set[int], n: int) -> bool:
    """An empty four-point space that makes one eye: a square, or a pyramid (the opponent takes its
    centre); a straight or bent four makes two."""
    return _square(points, n) or _pyramid_centre(points, n) is not None


def _vital_point(points: set[int], n: int) -> int | None:
    """The vital point of a five- or six-point space that one stone keeps to one eye: a bulky
    five (a square and one more point: the square's point next to three others), a crossed five
    (the centre of the cross) or a flower six (a cross and the point between two of its arms: the
    centre); None for any other space."""
    around = adjacent(n)
    next_to = {p: sum(q in points for q in around[p]) for p in points}
    centres = [p for p, k in next_to.items() if k == 4]
    square = any(p % n + 1 < n and {p + 1, p + n, p + n + 1} <= points for p in points)
    if len(points) == 5:
        if centres:
            return centres[0]
        if square:  # None when the fifth point is not next to the square (no space of one region)
            return next((p for p, k in next_to.items() if k == 3), None)
    if len(points) == 6 and square and len(centres) == 1:
        return centres[0]
    return None


def _vital_held(topology: Topology, points: list[int], color: int) -> bool:
    """Is this five- or six-point space one that one stone keeps to one eye (``_vital_point``),
    with that point held by the opponent's stones, all of them one block?"""
    vital = _vital_point(set(points), topology.size)
    if vital is None or topology.grid.flat[vital] != -color:
        return False
    return len({int(topology.block_of.flat[p]) for p in points if topology.grid.flat[p] == -color}) == 1


def _square(points: set[int], n: int) -> bool:
    """Are these four points a square?"""
    return len({p // n for p in points}) == 2 and len({p % n for p in points}) == 2


def _pyramid_centre(points: set[int], n: int) -> int | None:
    """The point of a four-point shape next to the three others (a pyramid's centre), if any."""
    return next((p for p in points if sum(q in points for q in adjacent(n)[p]) == 3), None)


def _dies(topology: Topology, color: int, blocks: list[int], group_of: dict[int, int],
          opponents: dict[int, list[int]], alive: list[bool], gone: list[bool], benson: set[int],
          lives: dict, settings: PassSettings) -> bool:
    """Is this group dead for want of eye space (see the module docstring)? ``group_of`` and
    ``opponents`` map the opponent's blocks to their groups and back; ``lives`` remembers which
    of those groups live on their own."""
    if benson & set(blocks) or _two_eyes(topology, color, blocks, alive, settings.taken_min):
        return False
    room = set().union(*(_room(topology, b, gone) for b in blocks))  # the group's
    rooms = {o: _room(topology, o, gone) for b in blocks for o in topology.blocks[b].opponents if alive[o]}
    # Blocks whose one point of room is the group's are taken first: no race, and eye space.
    taken = {o for o, theirs in rooms.items() if len(theirs) == 1 and theirs <= room} if len(room) >= 2 else set()
    if taken and _two_eyes(topology, color, blocks, [a and i not in taken for i, a in enumerate(alive)],
                           settings.taken_min):
        return False
    around = rooms.keys() - taken
    if not around or any(rooms[o] <= room for o in around):
        return False  # no living opponent, or seki or a capturing race
    prisoners = sorted({o for b in blocks for o in topology.blocks[b].opponents if not alive[o]})
    for g in {group_of[o] for o in around}:
        theirs = opponents[g]
        if g not in lives:
            eyes = [size for kind, size in _eyes(topology, -color, theirs, alive) if kind != "false"]
            lives[g] = (bool(benson & set(theirs)) or len(eyes) >= 2
                        or any(size >= settings.alone_eye for size in eyes))
        if not lives[g] and not _big_eye(topology, -color, theirs + prisoners, alive, settings.alone_eye):
            return False
    return True


def _big_eye(topology: Topology, color: int, walls: list[int], alive: list[bool], big_eye: int) -> bool:
    """Do ``walls`` enclose alone a region of ``big_eye`` points or more with no living opponent
    stone in it?"""
    return any(size >= big_eye for _, size in _eyes(topology, color, walls, alive))


def enclosed_alive(topology: Topology, statuses: dict, settings: PassSettings = DEFAULT) -> dict:
    """Statuses after the converse pass: walled-in groups the nets call dead that enclose two
    eyes are alive, the opponent stones in their eyes dead (source ``eyes``). Its eyes are the
    regions of ``settings.small_eye`` points or fewer it encloses alone."""
    alive = [statuses[b.id].alive for b in topology.blocks]
    turned: dict[int, bool] = {}
    for color, blocks, enclosed in _dead_groups(topology, statuses):
        eyes = [cer for cer in enclosed if len(cer.points) <= settings.small_eye]
        inside = {int(p) for cer in eyes for p in cer.points}
        if any(not set(topology.blocks[b].liberties.tolist()) <= inside for b in blocks):
            continue  # a liberty outside: the opponent can approach
        real = [cer for cer in eyes if not _false_eye_region(topology, cer, color, alive)]
        if len(real) >= 2:
            turned.update(dict.fromkeys(blocks, True))
            turned.update({o: False for cer in real for o in cer.inner_blocks})
    return redecide(statuses, turned, Source.EYES)


def big_eye_alive(topology: Topology, statuses: dict, settings: PassSettings = DEFAULT) -> dict:
    """Statuses after the big-eye pass: groups the nets call dead that enclose alone a region of
    ``settings.big_eye`` empty points or more (``big_eye_and_another`` if they enclose another
    region with no opponent stone called alive in it), with at most ``few_stones`` opponent stones
    called alive in it, are alive, and the opponent stones inside dead (source ``big-eye``)."""
    turned: dict[int, bool] = {}
    for _, blocks, enclosed in _dead_groups(topology, statuses):
        enclosed = [cer for cer in enclosed if not _open_board(topology, cer, settings.open_board)]
        living = [_stones_alive_inside(topology, statuses, cer) for cer in enclosed]
        for i, cer in enumerate(enclosed):
            another = any(n == 0 for j, n in enumerate(living) if j != i)  # an eye, the opponent holds nothing in it
            if (len(cer.empty) >= (settings.big_eye_and_another if another else settings.big_eye)
                    and living[i] <= settings.few_stones):
                turned.update(dict.fromkeys(blocks, True))
                turned.update(dict.fromkeys(cer.inner_blocks, False))
    turned.update(dict.fromkeys(_lost_in_big_eyes(topology, statuses, settings), False))
    return redecide(statuses, turned, Source.BIG_EYE)


def _lost_in_big_eyes(topology: Topology, statuses: dict, settings: PassSettings) -> list[int]:
    """Opponent blocks the nets call alive, ``settings.few_stones`` stones at most, inside a region
    of ``big_eye`` empty points or more that living blocks enclose alone: they cannot live there
    either (2 archive positions, both dead for KataGo; a lone stone in a 20x20 corner)."""
    lost = []
    for color in (1, -1):
        for cer in topology.cers[color]:
            if (len(cer.empty) < settings.big_eye or _open_board(topology, cer, settings.open_board)
                    or not cer.blocks or not all(statuses[b].alive for b in cer.blocks)):
                continue
            inner = [o for o in cer.inner_blocks if statuses[o].alive]
            if (inner and _stones_alive_inside(topology, statuses, cer) <= settings.few_stones
                    and all(statuses[o].source in BY_NETS for o in inner)):
                lost += inner
    return lost


def _open_board(topology: Topology, cer, share: float) -> bool:
    """A region of more than ``share`` of the board (half) is open board, not an eye: on an
    unfinished board every stone "encloses" the one open region, and each side's few stones would
    take the other's."""
    return len(cer.points) > share * topology.size ** 2


def _stones_alive_inside(topology: Topology, statuses: dict, cer) -> int:
    """The opponent stones called alive inside a region: what the big-eye pass weighs against its size."""
    return sum(topology.blocks[o].size for o in cer.inner_blocks if statuses[o].alive)


def _dead_groups(topology: Topology, statuses: dict):
    """(colour, block ids, regions it encloses alone) for every group of blocks the nets call
    dead, joined by chains and by the regions they enclose with no other block of their colour.
    A region holding an opponent block alive by Benson's algorithm is left out: nothing inside
    it can be taken."""
    for color in (1, -1):
        judged = {b for b, st in statuses.items()
                  if st.color == color and not st.alive and st.source in BY_NETS}
        if not judged:
            continue
        links = [c.blocks for c in topology.chains if c.color == color]
        links += [c.blocks for c in topology.cers[color] if set(c.blocks) <= judged]
        for blocks in _members(_union(judged, links)).values():
            mine = set(blocks)
            enclosed = [cer for cer in topology.cers[color]
                        if cer.blocks and cer.blocks[0] in mine and set(cer.blocks) <= mine
                        and not any(statuses[o].source == Source.BENSON for o in cer.inner_blocks)]
            yield color, blocks, enclosed


def _false_eye_region(topology: Topology, cer, color: int, alive: list[bool]) -> bool:
    """A one-point region with no stone in it that living opponent stones make a false eye."""
    return len(cer.points) == 1 and not cer.inner_blocks and _false_eye(topology, int(cer.points[0]), color, alive)

