"""Life and death of a group: can the attacker kill it moving first (``owl_attack``), can its
owner make it live moving first (``owl_defend``).

The group is the block's group (``groups.group_of``: blocks that cannot be cut apart in one move).
A depth-first alpha-beta search over a few candidate moves, with a transposition table keyed by
the board's Zobrist key. Its leaves:

- *dead*: the block asked about is captured;
- *alive*: Benson's unconditional life on the group's walled regions, or two eyes from them with
  the attacker moving first, each region valued by the table of small shapes read exhaustively
  (``eye_shapes.lookup``); an empty region past the table's size is two eyes, and a one-point eye
  is false with the attacker on its diagonals;
- *escaped*: ``escape_liberties`` liberties in open board, or ``escape_room`` free points (empty,
  no attacker stone within two steps) reached from them, unless the attacker shuts the group in
  (``enclosure.shut_in``: all it reaches without crossing the attacker's wall is a small area, the
  attacker's territory in a finished game);
- *seki*: the defender may pass once the attacker has played; when no attacker move then kills,
  the group lives.

Before the search, the opponent's blocks in the group's area that cannot live even moving first
(``dead_around``) are dead: those of three or more liberties are captives, eye space of the group
and not a wall, and a capture of the group by dead stones that still cannot live is no kill (the
area stays the group's side's). ``status`` also reads the races against the stones around a group
short of liberties: a kill that the group answers by winning the race, or by a seki, is none.
A region of more than ``groups.MAX_REGION`` points that stones of the group's colour alone wall
in (its friends' too) and that holds no opponent stones but those is a territory: two eyes.

A line that takes a ko wins at best by ko (each side may take a ko back once in a line, as after a
threat it does not play): such results are ``KO_A``/``KO_B``, never ``WIN``. A line cut short by the
node budget or the depth leaves the group alive when its regions could give two eyes with the
defender moving, or it keeps ``horizon_liberties`` liberties in open board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from seog.features import coords
from seog.features.coords import BLACK, BORDER, EMPTY, WHITE
from seog.reading import semeai, tactics
from seog.reading.board import SearchBoard
from seog.reading.enclosure import Enclosure, shut_in, stands
from seog.reading.eye_shapes import MAX_CELLS, lookup
from seog.reading.groups import (
    MAX_REGION,
    MAX_TERRITORY,
    cells_and_sides,
    eye_regions,
    group_of,
    liberties_of,
    stones_of,
)
from seog.reading.results import Code, Result, Status
from seog.reading.search import Search


@dataclass(frozen=True)
class OwlLimits:
    """How far a life-and-death search reads.

    nodes: moves it may play in all (its budget).
    max_depth: the longest line, in moves.
    width: the most candidate moves tried at a node.
    escape_room: empty points of open board (none next to an attacker's stone) that let a group out.
    escape_liberties: liberties in open board that let a group out.
    horizon_liberties: liberties in open board that keep a group alive where a line is cut short.
    horizon_room: free points (see escape_room) that keep a group alive where a line is cut short.
    shut_area: the largest area (``enclosure.shut_in``) in which the opponent's stones shut a group
        in: a group shut in does not escape, whatever its liberties and room.
    tactical_depth: how many moves deep the block's tactical attack and defence are tried first.
    tactical_nodes: the budget of each of those tactical searches.
    captive_reach: points of the area around the group searched for the opponent's blocks to read.
    captive_blocks: the most of those blocks read, each with ``captive_nodes`` moves (and as many
        of the blocks of fewer liberties touching the group): one that cannot live even moving
        first is dead, and a capture by dead stones alone is no kill.
    shape_liberties: a dead block of this many liberties or more is a captive in the group's eye
        regions, its points empty in their shapes (one of fewer is an attacker's stone there, as
        a throw-in or a stone on the vital point is).
    race_liberties: a group killed by the owl search with this few liberties or fewer has its kill
        checked by the races against the opponent's groups touching it (at most ``race_groups``
        of them, each read with ``race_nodes`` moves): when the attacker, moving first, wins
        none of them, the kill is none.
    """

    nodes: int = 600
    max_depth: int = 14
    width: int = 8
    escape_room: int = 16
    escape_liberties: int = 10
    horizon_liberties: int = 7
    horizon_room: int = 4
    shut_area: int = MAX_TERRITORY  # past the largest territory the eye count reads, open board
    tactical_depth: int = 2
    tactical_nodes: int = 200
    captive_reach: int = 40
    captive_blocks: int = 6
    captive_nodes: int = 150
    shape_liberties: int = 3
    race_liberties: int = 3
    race_groups: int = 3
    race_nodes: int = 600


DEFAULT_LIMITS = OwlLimits()


@dataclass(frozen=True)
class Eyes:
    """What a group's eye regions give: ``least`` eyes with the attacker moving first, ``most``
    with the defender moving first, the vital points of each side, and whether it is out (never
    while the opponent shuts it in)."""

    least: int
    most: int
    attack_points: tuple[int, ...]
    defence_points: tuple[int, ...]
    region_points: tuple[int, ...]
    open_libs: frozenset[int]
    escaped: bool
    room: int = 0


def owl_attack(board: SearchBoard, point: int, nodes: int | None = None,
               limits: OwlLimits = DEFAULT_LIMITS) -> Result:
    """Can the group at ``point`` be killed, its opponent moving first? The board is left as it was."""
    return _Owl(board, point, nodes, limits, dead_around(board, point, limits)).attack(False, False)


def owl_defend(board: SearchBoard, point: int, nodes: int | None = None,
               limits: OwlLimits = DEFAULT_LIMITS) -> Result:
    """Can the owner of the group at ``point`` make it live, moving first? A group that lives as it
    stands is saved (WIN) with no move."""
    return _Owl(board, point, nodes, limits, dead_around(board, point, limits)).defend(False, False)


def dead_around(board: SearchBoard, point: int, limits: OwlLimits = DEFAULT_LIMITS) -> frozenset[int]:
    """The first stones of the opponent's blocks around the group at ``point`` that cannot live
    even moving first, each read on its own (no dead stones around it): the smallest of three or
    more liberties in its area (empty points and opponent stones reached from its liberties), and
    the smallest of one or two touching it; not one with an eye of its own that lives once the
    group counts dead (a living wall around a dead group). Dead stones inside the group's area
    are its eye space, not a wall, and a capture by dead stones alone kills nothing."""
    own = board.color[point]
    if own not in (BLACK, WHITE):
        raise ValueError("there is no stone at that point to read")
    color, around = board.color, board.neighbours
    group = group_of(board, point)
    todo = sorted(liberties_of(group))
    seen = set(todo)
    found: list = []
    while todo and len(seen) < limits.captive_reach:
        p = todo.pop(0)
        for q in around[p]:
            if q in seen or color[q] in (own, BORDER):
                continue
            seen.add(q)
            todo.append(q)
            if color[q] == -own:
                blk = board.block[q]
                if len(blk.libs) >= limits.shape_liberties and all(b is not blk for b in found):
                    found.append(blk)
    wall = _enemies_short(board, group, limits.shape_liberties - 1)
    found.sort(key=lambda blk: len(blk.stones))  # the smallest first: dead stones are mostly few
    wall.sort(key=lambda blk: len(blk.stones))
    itself = frozenset(blk.stones[0] for blk in group)
    dead = []
    for blk in found[:limits.captive_blocks] + wall[:limits.captive_blocks]:
        search = _Owl(board, blk.stones[0], limits.captive_nodes, limits, shut=False)
        if search.defend(False, False).code == Code.LOSS and not _lives_if_dead(board, blk, itself, limits):
            dead.append(blk.stones[0])
    return frozenset(dead)


def _lives_if_dead(board: SearchBoard, blk, group: frozenset[int], limits: OwlLimits) -> bool:
    """Does the opponent's block ``blk``, which has an eye of its own, live once the blocks of
    ``group`` (first stones) count as dead? Then it died only because the group walled its other
    eyes: a living wall around a dead group, not a captive of it."""
    regions, _ = eye_regions(board, group_of(board, blk.stones[0]))
    if not any(region.walled for region in regions):
        return False  # no eye of its own: stones inside the group's area
    search = _Owl(board, blk.stones[0], limits.captive_nodes, limits, group, shut=False)
    return search.defend(False, False).code != Code.LOSS


def does_attack(board: SearchBoard, move: int, point: int, nodes: int | None = None,
                limits: OwlLimits = DEFAULT_LIMITS) -> Code:
    """Does the attacker's ``move`` kill the group at ``point`` (its owner answering)?"""
    return _after_move(board, move, point, -board.color[point], nodes, limits)


def does_defend(board: SearchBoard, move: int, point: int, nodes: int | None = None,
                limits: OwlLimits = DEFAULT_LIMITS) -> Code:
    """Does the owner's ``move`` make the group at ``point`` live (the attacker answering)?"""
    return _after_move(board, move, point, board.color[point], nodes, limits)


def status(board: SearchBoard, point: int, nodes: int | None = None,
           limits: OwlLimits = DEFAULT_LIMITS) -> tuple[Status, Result | None, Result | None]:
    """The group's status (alive: no kill; dead: no life; critical: both hang on who moves first),
    with the attack and the defence results that say so. A kill that the group answers by winning
    the capturing race against the stones around it (or a seki) is no kill: the attack fails."""
    reading = read(board, point, nodes, limits)
    return reading.status, reading.attack, reading.defence


@dataclass(frozen=True)
class Reading:
    """A group's status (``status``) with the results that say so and what backs them: ``proven``
    when no line of the owl searches behind it was cut short by the budget or the depth (a kill
    the race behind it refutes counts as proven, as chosen on hash: docs/reading.md), ``ko`` when
    the kill or the life hangs on a ko, ``nodes`` the moves the owl searches played."""

    status: Status
    attack: Result
    defence: Result | None
    proven: bool
    ko: bool
    nodes: int


def read(board: SearchBoard, point: int, nodes: int | None = None,
         limits: OwlLimits = DEFAULT_LIMITS) -> Reading:
    """``status`` of the group at ``point``, saying whether the searches behind it ended: what a
    scorer may decide by (a proven alive or dead) and what it may only flag."""
    dead = dead_around(board, point, limits)  # read once for both searches
    attacker = _Owl(board, point, nodes, limits, dead)
    attack = attacker.attack(False, False)
    if attack.code == Code.LOSS:
        return Reading(Status.ALIVE, attack, None, attacker.cut == 0, False, attacker.nodes)
    if _no_race_lost(board, point, limits):
        return Reading(Status.ALIVE, Result(Code.LOSS), None, True, False, attacker.nodes)
    defender = _Owl(board, point, nodes, limits, dead)
    defence = defender.defend(False, False)
    proven = attacker.cut == 0 and defender.cut == 0
    used = attacker.nodes + defender.nodes
    if defence.code == Code.LOSS:
        return Reading(Status.DEAD, attack, defence, proven, attack.code != Code.WIN, used)
    return Reading(Status.CRITICAL, attack, defence, proven, Code.WIN not in (attack.code, defence.code), used)


def _no_race_lost(board: SearchBoard, point: int, limits: OwlLimits) -> bool:
    """Does the group at ``point``, short of liberties, lose no capturing race against the
    opponent's groups touching it, the opponent moving first? Then the owl's kill is one that the
    group answers (it wins the race, or a seki) and it stands: GNU Go's dragon status reads races
    after the owl in the same way."""
    group = group_of(board, point)
    if len(liberties_of(group)) > limits.race_liberties:
        return False
    color, around = board.color, board.neighbours
    opponents: list[int] = []
    seen: set[int] = set()
    for p in stones_of(group):
        for q in around[p]:
            if color[q] == -color[point] and q not in seen:
                seen.update(stones_of(group_of(board, q)))
                opponents.append(q)
    if len(opponents) > limits.race_groups:
        return False
    if any(semeai.lives(board, q) for q in opponents):
        return False  # a wall that lives on its own (two eyes, or room) wins its race: none to read
    return all(semeai.analyze_semeai(board, q, point, limits.race_nodes).race <= semeai.Race.SEKI
               for q in opponents)


def _after_move(board: SearchBoard, move: int, point: int, mover: int, nodes, limits) -> Code:
    owner = board.color[point]
    if owner not in (BLACK, WHITE):
        raise ValueError("there is no stone at that point to read")
    if not board.try_play(mover, move):
        return Code.LOSS
    try:
        if board.color[point] != owner:
            return Code.WIN if mover != owner else Code.LOSS
        search = _Owl(board, point, nodes, limits, dead_around(board, point, limits))
        if mover == owner:
            return search.attack(False, False).code.reversed()
        return search.defend(False, False).code.reversed()
    finally:
        board.undo()


@lru_cache(maxsize=65536)
def _shape_value(cells: frozenset, sides: str, stones: frozenset):
    return lookup(cells, sides, stones)


class _Owl(Search):
    """One search about one group: can it be killed? ``captives``: opponent stones inside its
    area read dead beforehand, counted as its eye space."""

    def __init__(self, board: SearchBoard, point: int, nodes: int | None, limits: OwlLimits,
                 captives: frozenset[int] = frozenset(), shut: bool = True) -> None:
        super().__init__(board, point, limits.nodes if nodes is None else nodes)
        self.limits = limits
        block = board.block
        self.captives = frozenset(p for p in captives if len(block[p].libs) >= limits.shape_liberties)
        self.dead_stones = frozenset(q for p in captives for q in block[p].stones)
        # the area the group is shut in, read at the root; a pre-read of a block that may be a
        # captive leaves it its way out, so that only a block dead even then is taken for one
        self._enclosure: Enclosure | None = None
        self._shut_read = not shut

    # ---- the search ---------------------------------------------------------------------
    def _captured(self) -> bool:
        return self.board.color[self.anchor] != self.defender

    def _out_of_reach(self) -> bool:
        return self.nodes >= self.budget or self.board.depth() - self.start >= self.limits.max_depth

    def attack(self, attacker_took_back: bool, defender_took_back: bool) -> Result:
        """The attacker to move: can it kill the group?"""
        board = self.board
        group = group_of(board, self.anchor)
        eyes = self._eyes(group)
        if eyes.escaped or eyes.least >= 2:
            return Result(Code.LOSS)
        if self._out_of_reach():
            self.cut += 1
            return Result(Code.LOSS if self._lives_at_horizon(eyes) else Code.WIN)

        def reply(took_back: bool) -> Code:
            if self._captured():
                return Code.WIN if self._kill_stands() else Code.LOSS
            return self.defend(attacker_took_back or took_back, defender_took_back).code.reversed()

        # a ko made caps the win only after the defender's take-back: else the reply reads the ko
        return self.tabled((board.key(self.attacker), attacker_took_back, defender_took_back),
                           lambda: self.best_move(self.attacker, self._attack_moves(group, eyes), Result(Code.LOSS),
                                                  attacker_took_back, defender_took_back, reply))

    def defend(self, attacker_took_back: bool, defender_took_back: bool) -> Result:
        """The defender to move: can it make the group live?"""
        board = self.board
        group = group_of(board, self.anchor)
        eyes = self._eyes(group)
        if eyes.escaped or eyes.least >= 2:
            return Result(Code.WIN)
        if self._out_of_reach():
            self.cut += 1
            return Result(Code.WIN if self._lives_at_horizon(eyes) else Code.LOSS)

        def reply(took_back: bool) -> Code:
            if self._captured():
                return Code.LOSS
            return self.attack(attacker_took_back, defender_took_back or took_back).code.reversed()

        def read() -> Result:
            moves: list[int | None] = list(self._defence_moves(group, eyes))
            if board.depth() > self.start:
                moves.append(None)  # a pass: the attacker cannot approach (seki), or need not be answered
            return self.best_move(self.defender, moves, Result(Code.LOSS), defender_took_back, attacker_took_back,
                                  reply)

        return self.tabled((board.key(self.defender), attacker_took_back, defender_took_back), read)

    def _kill_stands(self) -> bool:
        """The group was just taken: is that a kill? Not when every block that took it holds stones
        read dead beforehand and still cannot live (two eyes or room): such a capture leaves the
        area the defender's, whose living stones around take the takers back."""
        if not self.dead_stones:
            return True
        board = self.board
        color, block, around = board.color, board.block, board.neighbours
        takers = []
        for p in board.last_captured():
            for q in around[p]:
                if color[q] == self.attacker and block[q] not in takers:
                    takers.append(block[q])
        return any(not any(q in self.dead_stones for q in blk.stones) or semeai.lives(board, blk.stones[0])
                   for blk in takers)

    def _lives_at_horizon(self, eyes: Eyes) -> bool:
        limits = self.limits
        return (eyes.most >= 2 or len(eyes.open_libs) >= limits.horizon_liberties
                or eyes.room >= limits.horizon_room)

    # ---- the group's eyes ---------------------------------------------------------------
    def _eyes(self, group) -> Eyes:
        board = self.board
        # the eyes follow from the stones, the ko and which blocks are captives: those whose first
        # stone (it changes as blocks join) is one read dead beforehand
        block = board.block
        fact = (board.hash, board.ko, tuple(p for p in self.captives if block[p] and block[p].stones[0] == p))
        known = self.facts.get(fact)
        if known is not None:
            return known
        size = board.size
        regions, open_libs = eye_regions(board, group, self.captives)
        least = most_gain = 0
        attack_points: list[int] = []
        defence_points: list[int] = []
        region_points: list[int] = []
        for region in regions:
            region_points += [p for p in region.points if board.color[p] == EMPTY]
            if not (region.walled or (region.enclosed and len(region.points) > MAX_REGION)):
                continue
            lo, hi, att, dfn = self._region_value(region, size)
            if lo == 2 and 1 < len(region.points) <= MAX_REGION and self._walls(region) > 1:
                lo = 1  # blocks that share the space may be cut apart inside it: not two sure eyes
            least += lo
            most_gain = max(most_gain, hi - lo)
            if att is not None:
                attack_points.append(att)
            if dfn is not None:
                defence_points.append(dfn)
        if least < 2 and _benson_alive(board, group, regions, self.anchor):
            least = 2
        room = self._room(open_libs)
        out = len(open_libs) >= self.limits.escape_liberties or room >= self.limits.escape_room
        # the enclosure is read at the root whatever; past it, only a group that could run asks
        escaped = (out or not self._shut_read) and not self._shut_in() and out
        eyes = Eyes(least, least + most_gain, tuple(attack_points), tuple(defence_points),
                    tuple(region_points), frozenset(open_libs), escaped, room)
        self.facts[fact] = eyes
        return eyes

    def _shut_in(self) -> bool:
        """Does the opponent shut the group in? Its area is read at the root of the search, and
        again only where a block of that wall has been taken (the group may then run, or be shut
        in by the rest): closed room is no way out."""
        if not self._shut_read:
            self._enclosure = shut_in(self.board, self.anchor, self.captives, self.limits.shut_area)
            self._shut_read = True
        if self._enclosure is None:
            return False
        if stands(self.board, self._enclosure):
            return True
        return shut_in(self.board, self.anchor, self.captives, self.limits.shut_area) is not None

    def _walls(self, region) -> int:
        """How many of the group's blocks touch the region."""
        board = self.board
        own = self.defender
        return len({id(board.block[q]) for p in region.points for q in board.neighbours[p] if board.color[q] == own})

    def _region_value(self, region, size: int) -> tuple[int, int, int | None, int | None]:
        """(least, most, attack point, defence point) of one walled region."""
        board = self.board
        # a block read dead beforehand is taken at leisure: its points count as the space's own
        live = [p for p in region.stones if board.block[p].stones[0] not in self.captives]
        if len(region.points) == 1 and not live:
            return self._one_point_eye(region.points[0])
        if len(region.points) > MAX_CELLS:
            return (2, 2, None, None) if not live else (0, 2, None, None)
        if len(live) > 1:
            return 0, 1, None, None
        cells, sides = cells_and_sides(region.points, size)
        to_point = {coords.from_flat(p, size): p for p in region.points}
        stones = frozenset(coords.from_flat(p, size) for p in live)
        value = _shape_value(cells, sides, stones)
        if value is None:
            return 0, 1, None, None
        att = to_point.get(value.attack) if value.attack is not None else None
        dfn = to_point.get(value.defence) if value.defence is not None else None
        if att is not None and board.color[att] != EMPTY:
            att = None
        if dfn is not None and board.color[dfn] != EMPTY:
            dfn = None
        return value.least, value.most, att, dfn

    def _one_point_eye(self, point: int) -> tuple[int, int, int | None, int | None]:
        """A one-point eye is false when the attacker holds enough of its diagonals (two in the
        centre, one on the edge); an empty diagonal is the point that decides it."""
        board = self.board
        color = board.color
        diagonals = _diagonals(board, point)
        edge = len(diagonals) < 4
        limit = 1 if edge else 2
        held = sum(1 for d in diagonals if color[d] == self.attacker)
        empty = [d for d in diagonals if color[d] == EMPTY]
        if held >= limit:
            return 0, 0, None, None
        if empty and held + 1 >= limit:
            return 0, 1, empty[0], empty[0]
        return 1, 1, None, None

    def _room(self, open_libs: set[int]) -> int:
        """Free points the group reaches from its open liberties, at most the escape room: empty
        points with none of the attacker's stones within two steps, crossed one to the next."""
        board = self.board
        color, around = board.color, board.neighbours
        limit = self.limits.escape_room
        attacker = self.attacker

        def free(p: int) -> bool:
            return all(color[q] == BORDER or (color[q] != attacker and all(color[r] != attacker for r in around[q]))
                       for q in around[p])

        seen = set(open_libs)
        todo = [p for p in open_libs if free(p)]
        room = len(todo)
        while todo and room < limit:
            p = todo.pop()
            for q in around[p]:
                if color[q] == EMPTY and q not in seen:
                    seen.add(q)
                    if free(q):
                        room += 1
                        todo.append(q)
        return room

    # ---- candidate moves ----------------------------------------------------------------
    def _attack_moves(self, group, eyes: Eyes) -> list[int]:
        """The attacker's tries: the vital points of the eye regions, the liberties of the group's
        blocks short of liberties, the points of its eye regions, its liberties in open board (the
        eye space taken from outside), and the liberties of the attacker's blocks in atari beside it."""
        board = self.board
        moves = list(dict.fromkeys(eyes.attack_points))
        if board.depth() - self.start < self.limits.tactical_depth:  # a capture read by tactics
            threat = tactics.attack(board, self.anchor, nodes=self.limits.tactical_nodes)
            if threat.code != Code.LOSS and threat.move is not None and threat.move not in moves:
                moves.insert(0, threat.move)
        for blk in group:
            if len(blk.libs) <= 2:
                moves += [q for q in blk.libs if q not in moves]
        for blk in _enemies_in_atari(board, group):
            moves += [q for q in blk.libs if q not in moves]
        rest = [p for p in eyes.region_points if p not in moves]
        rest += [p for p in sorted(eyes.open_libs) if p not in moves and p not in rest]
        stones = stones_of(group)
        attacker = self.attacker

        def order(p: int) -> tuple:
            touching = sum(1 for q in board.neighbours[p] if q in stones)
            own = board.liberties_after(attacker, p)
            return (own < 2 and not board.captures_of(attacker, p) and p not in eyes.region_points, -touching, -own)

        rest.sort(key=order)
        moves += rest
        return _with_ko(board, moves[:self.limits.width])

    def _defence_moves(self, group, eyes: Eyes) -> list[int]:
        """The defender's tries: the vital points of its eye regions, captures of the attacker's
        blocks in atari beside it, the liberties of its blocks short of liberties, the points of its
        eye regions and its liberties in open board (eye space made, or a way out)."""
        board = self.board
        moves = list(dict.fromkeys(eyes.defence_points))
        if board.depth() - self.start < self.limits.tactical_depth:
            threat = tactics.attack(board, self.anchor, nodes=self.limits.tactical_nodes)
            if threat.code != Code.LOSS:
                saving = tactics.defend(board, self.anchor, nodes=self.limits.tactical_nodes)
                if saving.code != Code.LOSS and saving.move is not None and saving.move not in moves:
                    moves.insert(0, saving.move)
        for blk in _enemies_in_atari(board, group):
            moves += [q for q in blk.libs if q not in moves]
        for blk in group:
            if len(blk.libs) == 1:
                moves += [q for q in blk.libs if q not in moves]
        members = set(map(id, group))
        for p in sorted(eyes.open_libs):  # a join to a friendly block outside the group
            if p not in moves and any(board.color[q] == self.defender and id(board.block[q]) not in members
                                      for q in board.neighbours[p]):
                moves.append(p)
        for blk in _enemies_short(board, group, 2):  # an atari on the wall
            moves += [q for q in blk.libs if q not in moves and board.liberties_after(self.defender, q) >= 2]
        rest = [p for p in eyes.region_points if p not in moves]
        rest += [p for p in sorted(eyes.open_libs) if p not in moves and p not in rest]
        defender = self.defender
        around = board.neighbours

        def order(p: int) -> tuple:
            own = board.liberties_after(defender, p)
            empties = sum(1 for q in around[p] if board.color[q] == EMPTY)
            return (own < 2 and not board.captures_of(defender, p), -empties, -own)

        inside = set(eyes.region_points)  # a stone given up inside may make a ko there
        rest = [p for p in rest if p in inside or board.liberties_after(defender, p) >= 2
                or board.captures_of(defender, p)]
        rest.sort(key=order)
        moves += rest
        return _with_ko(board, moves[:self.limits.width])


def _benson_alive(board: SearchBoard, group, regions, anchor: int) -> bool:
    """Benson's unconditional life on the group's walled regions: keep the blocks with two
    regions whose empty points are all their liberties, drop the regions beside a dropped block,
    until nothing changes; is the block at ``anchor`` kept?"""
    color = board.color
    walled = [r for r in regions if r.walled]
    if len(walled) < 2:
        return False
    blocks = list(group)
    around = board.neighbours
    touching = [{id(board.block[q]) for p in r.points for q in around[p] if color[q] == group[0].color}
                for r in walled]
    empties = [[p for p in r.points if color[p] == EMPTY] for r in walled]
    alive_regions = list(range(len(walled)))
    while True:
        kept = []
        for blk in blocks:
            vital = sum(1 for i in alive_regions if id(blk) in touching[i] and all(p in blk.libs for p in empties[i]))
            if vital >= 2:
                kept.append(blk)
        ids = {id(b) for b in kept}
        regions_kept = [i for i in alive_regions if touching[i] <= ids]
        if len(kept) == len(blocks) and len(regions_kept) == len(alive_regions):
            break
        blocks, alive_regions = kept, regions_kept
        if not blocks:
            return False
    return board.block[anchor] in blocks


def _with_ko(board: SearchBoard, moves: list[int]) -> list[int]:
    """The moves and the ko point, if any: taking a ko back (after a threat) is always read."""
    if board.ko is None or board.ko in moves:
        return moves
    return moves + [board.ko]


def _enemies_in_atari(board: SearchBoard, group) -> list:
    return _enemies_short(board, group, 1)


def _enemies_short(board: SearchBoard, group, most: int) -> list:
    """The opponent's blocks beside the group with at most ``most`` liberties."""
    out = []
    for blk in group:
        for p in blk.stones:
            for q in board.neighbours[p]:
                if board.color[q] == -blk.color:
                    nb = board.block[q]
                    if len(nb.libs) <= most and nb not in out:
                        out.append(nb)
    return out


def _diagonals(board: SearchBoard, point: int) -> list[int]:
    """The diagonal points of ``point`` on the board."""
    stride = board.size + 2
    return [point + d for d in (-stride - 1, -stride + 1, stride - 1, stride + 1)
            if board.color[point + d] != BORDER]
