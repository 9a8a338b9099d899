"""Tactical reading: can a short-of-liberties block be captured even when its owner moves first?

A finished game can leave a big group with one eye and two or three liberties next to stones
that look strong; shape features and the ownership net often call it alive. A small search
settles such blocks: the attacker fills the block's liberties or lengthens its own short blocks
next to it; the defender may extend, take liberties of nearby attacker blocks no longer-lived
than the block (a capturing race), or pass. The block is *dead* when every defence fails within
the depth, and *not proven* otherwise (escape to ``ESCAPE`` liberties, a seki, the depth or node
budget running out). Only proofs of death are used.

The search works on a padded ``bytearray`` (0 empty, 1 black, 2 white, 3 wall) that it copies
per move, so it never has to undo one, and whose bytes key the table of positions searched. Its
liberty walk stops as soon as it has counted the liberties it needs; most of the search's time
goes to these walks.
"""

from __future__ import annotations

import numpy as np

from seog.features.coords import index_to_flat, padded_neighbours

EMPTY, WALL = 0, 3
ESCAPE = 5  # a block with this many liberties has run away
DEPTH = 12  # plies
NODES = 70  # positions searched per block before giving up: above the longest held-out proof (docs/model.md)
POSITION_NODES = 210  # and per position: a bound on a position's reading time (docs/benchmarks.md)


class Budget(Exception):
    """The search used up its node budget."""


class Reader:
    """Searches on one position; ``dead(points)`` asks about the block at those grid points."""

    def __init__(self, grid: np.ndarray, depth: int = DEPTH, nodes: int = NODES, total: int = POSITION_NODES):
        size = grid.shape[0]
        self.size = size
        board = np.full((size + 2, size + 2), WALL, dtype=np.uint8)
        board[1:-1, 1:-1] = grid % 3  # black 1 -> 1, white -1 -> 2, empty 0
        self.start = bytearray(board.tobytes())
        self.around = padded_neighbours(size)
        self.depth, self.nodes, self.total = depth, nodes, total

    def flat(self, index: int) -> int:
        """Padded flat point of a grid index."""
        return index_to_flat(index, self.size)

    # ---- board primitives ------------------------------------------------------------------
    def block(self, stones: bytearray, p: int, cap: int = 999) -> tuple[set[int], set[int]]:
        """The block at ``p`` and its liberties; stops early once it has ``cap`` liberties."""
        color, around = stones[p], self.around
        seen, stack, libs = {p}, [p], set()
        push, mark, free = stack.append, seen.add, libs.add
        while stack:
            q = stack.pop()
            for r in around[q]:
                v = stones[r]
                if v == EMPTY:
                    free(r)
                    if len(libs) >= cap:
                        return seen, libs
                elif v == color and r not in seen:
                    mark(r)
                    push(r)
        return seen, libs

    def play(self, stones: bytearray, color: int, p: int, ko: int) -> tuple[bytearray, int] | None:
        """The position after ``color`` plays at ``p`` and the new ko point, or None if illegal."""
        if stones[p] != EMPTY or p == ko:
            return None
        after = bytearray(stones)
        after[p] = color
        other, around = 3 - color, self.around
        near = around[p]
        taken = []
        for q in near:
            if after[q] == other:
                a, b, c, d = around[q]
                if not (after[a] and after[b] and after[c] and after[d]):
                    continue  # a liberty next to the stone itself
                points = self.captured(after, q)
                if points:
                    taken.extend(points)
                    for t in points:
                        after[t] = EMPTY
        free = [q for q in near if after[q] == EMPTY]
        if not free:  # no liberty of its own (so nothing taken): legal only if its block has one
            return (after, -1) if self.block(after, p, 1)[1] else None
        # a ko: one stone taken by a lone stone that has that one liberty
        lone = len(taken) == 1 and len(free) == 1 and all(after[q] != color for q in near)
        return after, taken[0] if lone else -1

    def captured(self, stones: bytearray, p: int) -> set[int] | None:
        """The block at ``p`` when it has no liberty, else None (the walk stops at the first)."""
        color, around = stones[p], self.around
        seen, stack = {p}, [p]
        push, mark = stack.append, seen.add
        while stack:
            for r in around[stack.pop()]:
                v = stones[r]
                if v == EMPTY:
                    return None
                if v == color and r not in seen:
                    mark(r)
                    push(r)
        return seen

    def short_neighbours(self, stones: bytearray, points: list[int], color: int, cap: int) -> list[set[int]]:
        """The liberties of every ``color`` block next to ``points`` that has fewer than ``cap``."""
        seen, out, around = set(), [], self.around
        for q in points:
            for r in around[q]:
                if stones[r] == color and r not in seen:
                    block, libs = self.block(stones, r, cap)
                    seen.update(block)
                    if len(libs) < cap:
                        out.append(libs)
        return out

    # ---- the search --------------------------------------------------------------------------
    def dead(self, points: np.ndarray) -> bool:
        """Is the block at these grid points captured whoever moves first (within the budget)?"""
        target = self.flat(points[0])
        self.left, self.table = min(self.nodes, self.total), {}
        color = self.start[target]
        try:
            return self._search(self.start, target, 3 - color, color, -1, self.depth) is True
        except Budget:
            return False
        finally:
            self.total -= min(self.nodes, self.total) - max(self.left, 0)

    def _search(self, stones, target, attacker, to_move, ko, depth):
        """True when the attacker captures ``target`` with ``to_move`` to play."""
        if stones[target] == EMPTY:
            return True
        key = (bytes(stones), to_move, ko)
        if key in self.table:
            return self.table[key]
        points, libs = self.block(stones, target, ESCAPE)
        if len(libs) >= ESCAPE or depth == 0:
            return False
        self.left -= 1
        if self.left < 0:
            raise Budget
        if to_move == attacker:
            if len(libs) == 1 and next(iter(libs)) != ko:
                self.table[key] = True
                return True  # the capture itself: filling the last liberty takes the block, so it is legal
            moves = self._attacks(stones, points, libs, attacker)
        else:
            if self._escapes(stones, points, libs, ko):
                self.table[key] = False
                return False
            moves = self._defences(stones, points, libs, attacker)
        found = to_move != attacker  # the defender needs every answer to fail
        for move in moves:
            if move is None:
                outcome = self._search(stones, target, attacker, attacker, -1, depth - 1)
            else:
                played = self.play(stones, to_move, move, ko)
                if played is None:
                    continue
                outcome = self._search(played[0], target, attacker, 3 - to_move, played[1], depth - 1)
            if to_move == attacker and outcome:
                found = True
                break
            if to_move != attacker and not outcome:
                found = False
                break
        self.table[key] = found
        return found

    def _escapes(self, stones, points, libs, ko) -> bool:
        """Can the defender reach ``ESCAPE`` liberties with one move on a liberty?

        Worked out without playing: the liberties left, the move's empty neighbours and those of
        the own blocks it joins (a move that captures is left to the search)."""
        color = stones[next(iter(points))]
        for move in libs:
            if move == ko:
                continue
            new = set(libs)
            new.discard(move)
            for r in self.around[move]:
                v = stones[r]
                if v == EMPTY:
                    new.add(r)
                elif v == color and r not in points:
                    new |= self.block(stones, r, ESCAPE + 1)[1]
                    new.discard(move)
            if len(new) >= ESCAPE:
                return True
        return False

    def _attacks(self, stones, points, libs, attacker) -> list[int]:
        """Fill the target's liberties, or extend an attacker block next to it no longer-lived than it."""
        moves = sorted(libs)
        for own in self.short_neighbours(stones, points, attacker, len(libs) + 1):
            moves.extend(sorted(own))
        return list(dict.fromkeys(moves))

    def _defences(self, stones, points, libs, attacker) -> list:
        """Take liberties of nearby attacker blocks no longer-lived than the target, extend, or pass."""
        moves = []
        near = [*points, *libs]  # attacker blocks touching the target or its liberties
        for own in self.short_neighbours(stones, near, attacker, len(libs) + 1):
            moves.extend(sorted(own))
        moves.extend(sorted(libs))
        moves.append(None)
        return list(dict.fromkeys(moves))
