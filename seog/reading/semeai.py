"""Capturing races (semeai): the race between the group at ``a`` and the group at ``b``, of the
other colour, ``a``'s owner moving first.

A minimax search with alpha-beta and a transposition table on the board's Zobrist key. Its moves
are the two groups' liberties (outside and shared), the points of their eyes, approach moves
beside a liberty that its filler cannot hold, captures and ataris of the blocks around each
group, and a pass; two passes end a line with both groups standing (seki, or both alive), and so
does a position where both have two eyes. A line ends too when a group's stone at its point is
taken: a win for the capturer only if it then lives (two eyes, or room outside), since a group
that takes the other and stays shut in without eyes has won nothing. Where the search runs out
of depth or nodes, a static count in Müller's manner judges the race: outside liberties, shared
liberties, eyes (valued by the table of eye shapes; a big eye counts 3/5/8/12 liberties for
3/4/5/6 points; one eye beats no eye; shared liberties belong to the side with the eye, or the
bigger eye).

The outcome is told on a scale of seven from ``a``'s side (``Race``), then as GNU Go's two codes:
the result of defending ``a`` and that of attacking ``b``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from seog.features import coords
from seog.features.coords import BORDER, EMPTY
from seog.reading import eye_shapes
from seog.reading.board import Block, SearchBoard
from seog.reading.groups import group_of
from seog.reading.results import Code

MAX_EYE = 7  # the largest space the table of eye shapes reads
MAX_ROOM = 24  # a larger space walled in by one group alone is room for two eyes
ESCAPE_LIBERTIES = 7  # a group with this many outside liberties is out of the race
EYE_LIBERTIES = {1: 1, 2: 2, 3: 3, 4: 5, 5: 8, 6: 12, 7: 17}  # how many moves it takes to fill an eye
DEFAULT_NODES = 1500
MAX_DEPTH = 24


class Race(IntEnum):
    """The end of a race on ``a``'s side, worst first. The ko outcomes hang on a ko: ``_A`` when
    the side that gets them takes it first, ``_B`` when it must first find a threat."""

    A_DIES = 0
    A_LIVES_BY_KO_B = 1  # b's owner kills only by a ko it takes first
    A_LIVES_BY_KO_A = 2  # b's owner kills only by a ko it must find the first threat for
    SEKI = 3  # both stand: a seki, or both alive
    B_DIES_BY_KO_B = 4
    B_DIES_BY_KO_A = 5
    B_DIES = 6


@dataclass(frozen=True)
class SemeaiResult:
    """GNU Go's answer to ``analyze_semeai``: the result of defending ``a``, that of attacking
    ``b`` (``a``'s owner moving first), and the move (None: no move needed)."""

    defend: Code
    attack: Code
    move: int | None
    race: Race


_CODES = {
    Race.B_DIES: (Code.WIN, Code.WIN),
    Race.B_DIES_BY_KO_A: (Code.KO_A, Code.KO_A),
    Race.B_DIES_BY_KO_B: (Code.KO_B, Code.KO_B),
    Race.SEKI: (Code.WIN, Code.LOSS),
    Race.A_LIVES_BY_KO_A: (Code.KO_A, Code.KO_A),  # a race's ko decides both groups
    Race.A_LIVES_BY_KO_B: (Code.KO_B, Code.KO_B),
    Race.A_DIES: (Code.LOSS, Code.LOSS),
}


# ---- groups, eyes and the count ------------------------------------------------------------
@dataclass
class GroupCount:
    """What a group brings to a race: its stones, liberties, and eyes (each the points of one
    enclosed space, empty and the opponent's stones inside) with the eyes each gives with the
    opponent moving first (``eye_values``, from the table of ``eye_shapes``)."""

    stones: set[int]
    libs: set[int]
    eyes: list[list[int]]
    eye_values: list[int]

    @property
    def eye_points(self) -> set[int]:
        return {p for eye in self.eyes for p in eye}

    def alive(self) -> bool:
        return sum(self.eye_values) >= 2

    def eye_liberties(self, board: SearchBoard) -> int:
        """How many moves the opponent needs to fill its biggest eye (0 without one)."""
        if not self.eyes:
            return 0
        eye = max(self.eyes, key=len)
        inside = sum(1 for p in eye if board.color[p] != EMPTY)
        return max(EYE_LIBERTIES[min(len(eye), MAX_EYE)] - inside, 1)


def count_group(board: SearchBoard, point: int, other: set[int] = frozenset(),
                any_wall: bool = False) -> GroupCount:
    """The stones, liberties and eyes of the group at ``point``; ``other`` holds the opposing
    group's stones, which are never inside an eye; ``any_wall``: a space walled in by any of the
    group's colour counts as its eye too."""
    blocks = group_of(board, point)
    color = board.color[point]
    stones: set[int] = set()
    libs: set[int] = set()
    for blk in blocks:
        stones.update(blk.stones)
        libs |= blk.libs
    eyes: list[list[int]] = []
    values: list[int] = []
    seen: set[int] = set()
    for lib in libs:
        if lib in seen:
            continue
        region, reached = _enclosed(board, lib, color, None if any_wall else stones, other)
        seen.update(reached)  # whether a space is an eye is the space's own: read it once
        if region and not _false_eye(board, region, color):
            eyes.append(region)
            values.append(eye_value(board, region, color))
    return GroupCount(stones, libs, eyes, values)


def eye_value(board: SearchBoard, region: list[int], color: int) -> int:
    """The eyes an enclosed space gives ``color`` with the opponent moving first, by the table of
    small shapes (one eye where the table does not reach: more than one stone inside)."""
    if len(region) > MAX_EYE:
        return 2
    stones = tuple(sorted(p for p in region if board.color[p] == -color))
    return _shape_value(board.size, tuple(sorted(region)), stones)


@lru_cache(maxsize=65536)
def _shape_value(size: int, region: tuple[int, ...], stones: tuple[int, ...]) -> int:
    cells = [coords.from_flat(p, size) for p in region]
    inside = [coords.from_flat(p, size) for p in stones]
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    sides = "".join(side for side, edge in (("N", min(rows) == 0), ("E", max(cols) == size - 1),
                                            ("S", max(rows) == size - 1), ("W", min(cols) == 0)) if edge)
    value = eye_shapes.lookup(cells, sides, inside)
    return 1 if value is None else value.least


def _enclosed(board: SearchBoard, start: int, color: int, stones: set[int] | None,
              other: set[int]) -> tuple[list[int] | None, list[int]]:
    """The space reached from ``start`` through empty points and the opponent's stones, when the
    group's ``stones`` alone (None: any of its colour) wall it in within ``MAX_ROOM`` points (else
    None), with the points reached before that was known (all of one space)."""
    region, todo, seen = [], [start], {start}
    while todo:
        p = todo.pop()
        region.append(p)
        if len(region) > MAX_ROOM:
            return None, region
        for q in board.neighbours[p]:
            v = board.color[q]
            if v == BORDER or q in seen:
                continue
            if v == color:
                if stones is not None and q not in stones:
                    return None, region
                continue
            if q in other:
                return None, region
            seen.add(q)
            todo.append(q)
    if len(region) > MAX_EYE and any(board.color[p] != EMPTY for p in region):
        return None, region  # a wide space with the opponent's stones in it is no eye of ours
    return region, region


def _false_eye(board: SearchBoard, region: list[int], color: int) -> bool:
    """A one-point eye whose diagonals the opponent holds: two in the open, one on the edge."""
    if len(region) != 1:
        return False
    p = region[0]
    stride = board.size + 2
    diagonals = [p - stride - 1, p - stride + 1, p + stride - 1, p + stride + 1]
    on_board = [q for q in diagonals if board.color[q] != BORDER]
    held = sum(1 for q in on_board if board.color[q] == -color)
    return held >= (2 if len(on_board) == 4 else 1)


def lives(board: SearchBoard, point: int) -> bool:
    """Does the group at ``point`` live once it has taken its opponent: two eyes, or room enough
    outside its eyes (``ESCAPE_LIBERTIES``)? A group that takes the other and still dies has won
    nothing."""
    count = count_group(board, point, any_wall=True)
    return count.alive() or len(count.libs - count.eye_points) >= ESCAPE_LIBERTIES


def race_counts(board: SearchBoard, a: int, b: int) -> tuple[GroupCount, GroupCount]:
    """The counts of the groups at ``a`` and ``b``, each with the other's stones outside its eyes."""
    ca = count_group(board, a)
    cb = count_group(board, b, ca.stones)
    return count_group(board, a, cb.stones), cb


def static_race(board: SearchBoard, a: int, b: int, to_move: int,
                counts: tuple[GroupCount, GroupCount] | None = None) -> Race:
    """The race judged by counting, ``to_move`` moving first (Müller's semeai classes, simplified):
    neither group with an eye, one eye against none, and eyes on both sides. ``counts``: the
    groups' ``race_counts`` when known."""
    ca, cb = counts or race_counts(board, a, b)
    a_alive, b_alive = ca.alive(), cb.alive()
    a_out_all = ca.libs - cb.libs - ca.eye_points
    b_out_all = cb.libs - ca.libs - cb.eye_points
    if a_alive or b_alive:
        if a_alive and b_alive:
            return Race.SEKI
        if a_alive:
            return Race.SEKI if len(b_out_all) >= ESCAPE_LIBERTIES else Race.B_DIES
        return Race.SEKI if len(a_out_all) >= ESCAPE_LIBERTIES else Race.A_DIES
    shared = len((ca.libs & cb.libs) - ca.eye_points - cb.eye_points)
    a_out, b_out = len(a_out_all), len(b_out_all)
    ea, eb = ca.eye_liberties(board), cb.eye_liberties(board)
    first_is_a = to_move == board.color[a]
    x_out, y_out, ex, ey = (a_out, b_out, ea, eb) if first_is_a else (b_out, a_out, eb, ea)
    verdict = _count(x_out, y_out, ex, ey, shared)  # +1: the side to move wins, 0 seki, -1 loses
    if verdict == 0:
        return Race.SEKI
    return Race.B_DIES if (verdict > 0) == first_is_a else Race.A_DIES


def _count(x_out: int, y_out: int, ex: int, ey: int, shared: int) -> int:
    """The race by liberties, X moving first: +1 X takes Y, -1 Y takes X, 0 seki."""
    if ex and not ey or ex > ey >= 1 and ex >= 3:  # one eye beats none; a big eye beats a small one
        return 1 if x_out + shared + ex >= y_out + ey else -1
    if ey and not ex or ey > ex >= 1 and ey >= 3:
        return -1 if y_out + shared + ey > x_out + ex else 1
    x, y = x_out + ex, y_out + ey  # no eyes, or eyes of a size: shared liberties favour neither
    if shared <= 1 and not ex:
        return 1 if x >= y else -1
    need = shared - 1 if not ex else shared  # the side taking must fill the shared ones too
    if x >= y + need:
        return 1
    if y > x + need:
        return -1
    return 0


# ---- the search ------------------------------------------------------------------------------
def analyze_semeai(board: SearchBoard, a: int, b: int, nodes: int = DEFAULT_NODES) -> SemeaiResult:
    """The race between the group at ``a`` and the group at ``b`` (of the other colour), ``a``'s
    owner moving first. The board is searched in place and left as it was."""
    ca, cb = board.color[a], board.color[b]
    if ca not in (1, -1) or cb != -ca:
        raise ValueError("analyze_semeai needs two stones of opposite colours")
    return _Search(board, a, b, nodes).root()


_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Search:
    """One race's search: minimax on ``Race`` (``a``'s owner maximizes), alpha-beta, a table of
    bounds keyed by the position, the passes and the ko retakes left."""

    def __init__(self, board: SearchBoard, a: int, b: int, nodes: int) -> None:
        self.board, self.a, self.b = board, a, b
        self.color_a = board.color[a]
        self.budget = nodes
        self.table: dict[tuple, tuple[int, int]] = {}
        self.retakes = {self.color_a: 1, -self.color_a: 1}  # a ko taken back at once, as after a threat
        self.taken = {self.color_a: 0, -self.color_a: 0}  # kos taken in the line, not back at once
        self.known: dict[tuple, tuple[GroupCount, GroupCount]] = {}  # race_counts by position

    def counts(self, x: int, y: int) -> tuple[GroupCount, GroupCount]:
        """``race_counts`` of the groups at ``x`` and ``y``, read once a position (transpositions
        and the leaves meet the same position again)."""
        key = (self.board.hash, x, y)
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = race_counts(self.board, x, y)
        return known

    def root(self) -> SemeaiResult:
        board, me = self.board, self.color_a
        best, best_move = -1, None
        for move in self.moves(me, 0) + [None]:
            value = self.child(me, move, 0, best, Race.B_DIES + 1, 0)
            if value is None:
                continue
            if value > best:
                best, best_move = value, move
            if best == Race.B_DIES:
                break
        race = Race(best)
        if race == Race.A_DIES:
            best_move = None  # no move saves it
        if race == Race.SEKI and best_move is not None:
            board.play(me, None)
            if self.value(-me, 1, Race.SEKI - 1, Race.SEKI + 1, 1) == Race.SEKI:
                best_move = None  # a seki that needs no move
            board.undo()
        defend, attack = _CODES[race]
        return SemeaiResult(defend, attack, best_move, race)

    def child(self, color: int, move: int | None, depth: int, alpha: int, beta: int, passes: int) -> int | None:
        """Play ``move`` for ``color``, read on, take it back; None for an illegal move."""
        board = self.board
        retake = move is not None and move == board.ko
        if retake and not self.retakes[color]:
            return None
        if not board.try_play(color, move, ignore_ko=retake):
            return None
        self.budget -= 1
        took_ko = move is not None and board.ko is not None
        # a side that took the ko first keeps its KO_A when it takes it back after a threat
        needs_threat = retake and not self.taken[color]
        self.retakes[color] -= retake
        self.taken[color] += took_ko and not retake
        value = self.value(-color, depth + 1, alpha, beta, passes + 1 if move is None else 0)
        self.retakes[color] += retake
        self.taken[color] -= took_ko and not retake
        board.undo()
        return _ko_capped(value, color == self.color_a, took_ko or retake, needs_threat)

    def value(self, to_move: int, depth: int, alpha: int, beta: int, passes: int) -> int:
        board, a, b = self.board, self.a, self.b
        if board.color[a] != self.color_a:
            return Race.A_DIES if lives(board, b) else Race.B_DIES
        if board.color[b] != -self.color_a:
            return Race.B_DIES if lives(board, a) else Race.A_DIES
        if passes >= 2:
            return Race.SEKI
        key = (board.key(to_move), passes, self.retakes[1], self.retakes[-1],
               self.taken[1] > 0, self.taken[-1] > 0)
        stored = self.table.get(key)
        if stored is not None:
            flag, v = stored
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        if depth >= MAX_DEPTH or self.budget <= 0:
            return static_race(board, a, b, to_move, self.counts(a, b))
        maximizing = to_move == self.color_a
        alpha0, beta0 = alpha, beta
        best = -1 if maximizing else Race.B_DIES + 1
        for move in self.moves(to_move, depth) + [None]:
            v = self.child(to_move, move, depth, alpha, beta, passes)
            if v is None:
                continue
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = _EXACT
        if best <= alpha0:
            flag = _UPPER
        elif best >= beta0:
            flag = _LOWER
        self.table[key] = (flag, best)
        return best

    def moves(self, color: int, depth: int) -> list[int]:
        """The candidate moves of ``color``: captures first, then the opponent's outside
        liberties, its own, the shared ones, eye points and approach moves."""
        board = self.board
        mine, theirs = (self.a, self.b) if color == self.color_a else (self.b, self.a)
        cm, ct = self.counts(mine, theirs)
        if cm.alive() and ct.alive():
            return []
        out: list[int] = []
        seen: set[int] = set()

        def add(p: int) -> None:
            if p not in seen and board.color[p] == EMPTY:
                seen.add(p)
                out.append(p)

        ataris: list[int] = []
        for stones, enemy in ((cm.stones, -color), (ct.stones, color)):
            for blk in _blocks_beside(board, stones, enemy):
                if len(blk.libs) == 1:
                    for p in blk.libs:
                        if enemy == -color:
                            add(p)  # a capture
                        else:
                            ataris.append(p)  # our block beside them in atari: save it
                elif len(blk.libs) == 2 and enemy == -color:
                    ataris.extend(blk.libs)
        for p in ataris:
            add(p)
        shared = cm.libs & ct.libs
        my_eyes, their_eyes = cm.eye_points, ct.eye_points
        for p in sorted(ct.libs - shared - their_eyes):
            add(p)
        for p in sorted(cm.libs - shared - my_eyes):
            if board.liberties_after(color, p) > 1:
                add(p)
        for p in sorted(shared):
            add(p)
        for eye in ct.eyes + cm.eyes:
            for p in eye:
                add(p)
        # approach: a liberty of theirs that our stone there could not hold
        for p in sorted(ct.libs):
            if board.color[p] == EMPTY and board.liberties_after(color, p) <= 1 and not board.captures_of(color, p):
                for q in board.neighbours[p]:
                    if board.color[q] == EMPTY:
                        add(q)
                    elif board.color[q] == color:
                        for r in board.block[q].libs:
                            add(r)
        return out


def _blocks_beside(board: SearchBoard, stones: set[int], color: int) -> list[Block]:
    """The blocks of ``color`` next to any of ``stones``."""
    out: list[Block] = []
    for p in stones:
        for q in board.neighbours[p]:
            if board.color[q] == color and board.block[q] not in out:
                out.append(board.block[q])
    return out


def _ko_capped(value: int, by_a: bool, ko: bool, needs_threat: bool) -> int:
    """A line in which a side takes a ko wins for it at best by ko: one it takes first, or one it
    must find a threat for when it took the ko back at once without having taken it first."""
    if not ko:
        return value
    if by_a and value > Race.SEKI:
        return min(value, Race.B_DIES_BY_KO_B if needs_threat else Race.B_DIES_BY_KO_A)
    if not by_a and value < Race.SEKI:
        return max(value, Race.A_LIVES_BY_KO_A if needs_threat else Race.A_LIVES_BY_KO_B)
    return value
