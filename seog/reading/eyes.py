"""The value of an eye space, read by exhaustive search of the space itself.

An eye space is a few points (empty, or holding the attacker's stones) walled in by the
defender. Its value is how many eyes it gives the wall: 2 when the wall lives on it alone, 1 when
the wall lives on it plus one true eye elsewhere, 0 otherwise. Both are capture games on a small
graph (``EyeGame``): the points of the space and the points beside it where a stone matters, the
wall's blocks as single nodes, and, for the second game, one more node that is the eye elsewhere
(only the attacker may play there, and only to capture). The wall's own liberties outside are not
counted, so the attacker can fill the space and take it: a space that cannot stop that is worth
less. The search is minimax with passes (two passes end the game, the wall alive), simple ko with
a side that wins every ko, and a transposition table; ``evaluate`` reads each first mover under
each ko winner, and names the vital points.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

EMPTY = 0
DEFENDER = 1
ATTACKER = -1
PASS = -1
BUDGET = 100_000  # positions an evaluation may read (optics.tst's biggest space reads 18,000, under a second)
_WON, _LOST = True, False


@dataclass(frozen=True)
class EyeGame:
    """A small local position. ``neighbours[i]``: the nodes next to node ``i``; ``start[i]``:
    EMPTY, DEFENDER or ATTACKER; ``playable[i]``: a node a stone may be played on; ``free[i]``:
    the colour (or EMPTY: neither) whose stone here has a liberty outside the game, so that its
    block cannot be taken; ``main``: the wall nodes (defender) whose capture loses the game;
    ``names``: each node's name for answers (a board index, a cell, or None for a node that is no
    point); ``only[i]``: the one colour that may play on node ``i`` (EMPTY: both; a liberty
    outside the space is filled by one side only; all EMPTY when the tuple is empty);
    ``no_room[i]``: node ``i``, empty, is no liberty (the point of the opponent's weak stones
    outside the space, taken: not this space's room, for either side; all False when empty)."""

    neighbours: tuple[tuple[int, ...], ...]
    start: tuple[int, ...]
    playable: tuple[bool, ...]
    free: tuple[int, ...]
    main: frozenset[int]
    names: tuple
    only: tuple[int, ...] = ()
    no_room: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.neighbours)
        if not (len(self.start) == len(self.playable) == len(self.free) == len(self.names) == n):
            raise ValueError("an eye game needs one start colour, playable and free flag and name a node")
        if not self.main or any(self.start[m] != DEFENDER for m in self.main):
            raise ValueError("an eye game needs a wall: main nodes holding the defender's stones")
        if not self.only:
            object.__setattr__(self, "only", (EMPTY,) * n)
        elif len(self.only) != n:
            raise ValueError("an eye game needs one ``only`` colour a node")
        if not self.no_room:
            object.__setattr__(self, "no_room", (False,) * n)
        elif len(self.no_room) != n:
            raise ValueError("an eye game needs one ``no_room`` flag a node")

    @cached_property
    def points(self) -> tuple[int, ...]:
        """The playable nodes, the points most connected in the space first (vital points first)."""
        inside = [i for i in range(len(self.start)) if self.playable[i]]
        return tuple(sorted(inside, key=lambda i: -sum(self.playable[j] for j in self.neighbours[i])))


@dataclass(frozen=True)
class EyeValue:
    """How many eyes a space gives: ``least`` with the attacker moving first, ``most`` with the
    defender moving first; ``attack`` and ``defence``: the first moves that get those (names,
    None when both counts are equal); ``ko``: a count that hangs on who wins a ko (the counts are
    those of the side moving first winning it); ``seki``: two eyes' worth only as a seki (the
    attacker's stones inside stay, uncapturable)."""

    least: int
    most: int
    attack: object = None
    defence: object = None
    ko: bool = False
    seki: bool = False


class TooBig(ValueError):
    """A space whose search would read more positions than its budget."""


def evaluate(game: EyeGame, budget: int = BUDGET) -> EyeValue:
    """The eye value of ``game``'s space, its vital points, and whether a ko or a seki decides it;
    TooBig past ``budget`` positions read."""
    with_extra = _with_extra_eye(game)
    solver = _Solver(game, with_extra, budget)
    least_moves = solver.first_moves(ATTACKER, ko_winner=ATTACKER)
    most_moves = solver.first_moves(DEFENDER, ko_winner=ATTACKER)
    least = min(least_moves.values())
    most = max(most_moves.values())
    ko = (least != min(solver.first_moves(ATTACKER, ko_winner=DEFENDER).values())
          or most != max(solver.first_moves(DEFENDER, ko_winner=DEFENDER).values()))
    seki = most == 2 and not solver.eyes(game.start, DEFENDER, DEFENDER, strict=True)
    if least == most:
        return EyeValue(least, most, ko=ko, seki=seki)
    attacks = [m for m, v in least_moves.items() if v == least and m != PASS and game.names[m] is not None]
    defences = [m for m, v in most_moves.items() if v == most and m != PASS and game.names[m] is not None]
    both = [m for m in attacks if m in defences]
    attack = both[0] if both else (attacks[0] if attacks else PASS)
    defence = both[0] if both else (defences[0] if defences else PASS)
    return EyeValue(least, most, _name(game, attack), _name(game, defence), ko=ko, seki=seki)


def _name(game: EyeGame, node: int):
    return None if node == PASS else game.names[node]


def _with_extra_eye(game: EyeGame) -> EyeGame:
    """The same game with one true eye elsewhere: a node next to every main wall node that only the
    attacker may play on (``_Solver`` keeps the defender off it)."""
    extra = len(game.neighbours)
    neighbours = tuple(nb + (extra,) if i in game.main else nb for i, nb in enumerate(game.neighbours))
    return EyeGame(neighbours + (tuple(sorted(game.main)),), game.start + (EMPTY,), game.playable + (True,),
                   game.free + (EMPTY,), game.main, game.names + (None,), game.only + (ATTACKER,),
                   game.no_room + (False,))


class _Solver:
    """Minimax over one game and its extra-eye twin, each position read once per question."""

    def __init__(self, game: EyeGame, with_extra: EyeGame, budget: int) -> None:
        self.budget = budget
        self.games = (game, with_extra)
        self.table: dict = {}

    def first_moves(self, first: int, ko_winner: int) -> dict[int, int]:
        """Eyes after each first move of ``first`` (and after a pass), the opponent replying.
        A move one game forbids (a suicide there) is worth nothing to its player in that game."""
        game = self.games[0]
        out = {}
        for move in game.points + (PASS,):
            if move != PASS and (game.start[move] != EMPTY or game.only[move] not in (EMPTY, first)):
                continue
            lives = [self._lives_after(which, move, first, ko_winner) for which in (0, 1)]
            if lives == [None, None]:
                continue
            lives = [first == ATTACKER if alive is None else alive for alive in lives]
            out[move] = 2 if lives[0] else 1 if lives[1] else 0
        return out

    def _lives_after(self, which: int, move: int, first: int, ko_winner: int) -> bool | None:
        """Does the wall live after ``first`` plays ``move`` in game ``which``? None: a suicide."""
        game = self.games[which]
        after = _play(game, game.start, move, first)
        if after is None:
            return None
        board, ko = after
        if _lost(game, board):
            return _LOST
        return self._lives(which, board, -first, ko_winner, ko, int(move == PASS), False)

    def eyes(self, board: tuple, to_move: int, ko_winner: int, *, ko: int = PASS, passes: int = 0,
             strict: bool = False) -> int:
        """2 if the wall lives on the space alone, 1 if it lives with one eye elsewhere, else 0."""
        if self._lives(0, board, to_move, ko_winner, ko, passes, strict):
            return 2
        if self._lives(1, board + (EMPTY,), to_move, ko_winner, ko, passes, strict):
            return 1
        return 0

    def _lives(self, which: int, board: tuple, to_move: int, ko_winner: int, ko: int, passes: int,
               strict: bool, path: frozenset = frozenset()) -> bool:
        key = (which, board, to_move, ko_winner, ko, passes, strict)
        known = self.table.get(key)
        if known is not None:
            return known
        if len(self.table) >= self.budget:
            raise TooBig(f"an eye space of {sum(self.games[0].playable)} points reads more than {self.budget} positions")
        if (board, to_move) in path:  # a cycle: the attacker got nowhere
            return _WON
        game = self.games[which]
        if passes == 2:
            result = not strict or not any(c == ATTACKER and game.playable[i] and game.free[i] != ATTACKER
                                           for i, c in enumerate(board))
            self.table[key] = result
            return result
        path = path | {(board, to_move)}
        want = _WON if to_move == DEFENDER else _LOST
        result = not want
        for move in game.points + (PASS,):
            if move != PASS:
                if board[move] != EMPTY or (move == ko and to_move != ko_winner):
                    continue
                if game.only[move] not in (EMPTY, to_move):
                    continue
            after = _play(game, board, move, to_move)
            if after is None:
                continue
            new_board, new_ko = after
            if _lost(game, new_board):
                outcome = _LOST
            else:
                outcome = self._lives(which, new_board, -to_move, ko_winner, new_ko,
                                      passes + 1 if move == PASS else 0, strict, path)
            if outcome == want:
                result = want
                break
        self.table[key] = result
        return result


def _lost(game: EyeGame, board: tuple) -> bool:
    return any(board[m] != DEFENDER for m in game.main)


def _play(game: EyeGame, board: tuple, move: int, color: int) -> tuple[tuple, int] | None:
    """The board after ``color`` plays ``move`` (or passes) and the simple-ko point it leaves;
    None for a suicide."""
    if move == PASS:
        return board, PASS
    cells = list(board)
    cells[move] = color
    taken: list[int] = []
    for nb in game.neighbours[move]:
        if cells[nb] == -color and nb not in taken:
            block, liberties = _block(game, cells, nb)
            if not liberties:
                taken.extend(block)
    for p in taken:
        cells[p] = EMPTY
    block, liberties = _block(game, cells, move)
    if not liberties:
        return None
    ko = taken[0] if len(taken) == 1 and len(block) == 1 and liberties == {taken[0]} else PASS
    return tuple(cells), ko


def _block(game: EyeGame, cells: list, start: int) -> tuple[list[int], set]:
    """The block at ``start`` and its liberties (a free stone has one outside the game: -1)."""
    color = cells[start]
    block, liberties, todo = [start], set(), [start]
    seen = {start}
    while todo:
        p = todo.pop()
        if game.free[p] == color:
            liberties.add(-1)
        for nb in game.neighbours[p]:
            if cells[nb] == EMPTY:
                if not game.no_room[nb]:
                    liberties.add(nb)
            elif cells[nb] == color and nb not in seen:
                seen.add(nb)
                block.append(nb)
                todo.append(nb)
    return block, liberties
