"""A capture search of a group's whole room: can the attacker take a group called alive, its
owner moving first, playing only where the group lives?

The group's *room* is what a flood from its biggest block reaches through empty points, its own
stones and opponent stones called dead, stopping at the opponent's stones called alive (its
*walls*); rooms of more than ``--room`` empty or prisoner points are the group's territory and
are not searched. Both sides play inside the room; the defender may also take liberties of short
walls (a race) or pass; taking a wall is an escape. A group is proven dead when its biggest
block is taken whatever the defender does, within the node budget. Prints, per side, the groups
searched, the searches out of budget, the proofs against KataGo's read, the positions the proofs
put right and wrong, and the search's time per position.

    python experiments/life_search_trial.py --model runs/cand-ecas.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --side hash            # 3 min
    python experiments/life_search_trial.py ... --nodes 20000 --games 2002__2002-02-03-9 ...  # some positions
"""

from __future__ import annotations

import time

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.classifiers.vocabulary import Source
from seog.datasets.heldout import finished_statuses, side_parser
from seog.features.coords import adjacent
from seog.features.reading import EMPTY, Budget, Reader


def room_of(topology, statuses, block: int, most: int) -> list[int] | None:
    """The grid points a flood from ``block`` reaches without crossing an opponent stone called
    alive; None when it holds more than ``most`` points that are not the group's stones."""
    grid, block_of, near = topology.grid.ravel(), topology.block_of.ravel(), adjacent(topology.size)
    color = topology.blocks[block].color
    seen = set(topology.blocks[block].points.tolist())
    stack, other = list(seen), 0
    while stack:
        for q in near[stack.pop()]:
            if q in seen or (grid[q] == -color and statuses[block_of[q] - 1].alive):
                continue
            seen.add(q)
            stack.append(q)
            other += grid[q] != color
            if other > most:
                return None
    return sorted(seen)


class RoomSearch(Reader):
    """The capture search of ``features.reading`` with every move inside a room."""

    def killed(self, points, room) -> bool | None:
        """Is the block at ``points`` taken, its owner moving first? None: out of budget."""
        start = self.start
        self.target = self.flat(points[0])
        color = start[self.target]
        self.attacker = 3 - color
        self.room = [self.flat(i) for i in room]
        inside, seen, self.walls = set(self.room), set(), []
        for p in self.room:
            for q in self.around[p]:
                if start[q] == self.attacker and q not in seen and q not in inside:
                    seen |= self.block(start, q)[0]
                    self.walls.append(q)
        self.left, self.table = self.nodes, {}
        try:
            return self._room_search(start, color, -1, self.depth)
        except Budget:
            return None

    def _moves(self, stones, color) -> list[int]:
        """Empty room points, next to the target's colour first, then by free neighbours; the
        defender never fills its own one-point eye."""
        out = []
        for p in self.room:
            if stones[p] != EMPTY:
                continue
            near = [stones[q] for q in self.around[p]]
            if color != self.attacker and all(v in (color, 3) for v in near):
                continue
            out.append(((3 - self.attacker) not in near, -near.count(EMPTY), p))
        return [p for *_, p in sorted(out)]

    def _room_search(self, stones, to_move, ko, depth) -> bool:
        if stones[self.target] == EMPTY:
            return True
        if any(stones[w] == EMPTY for w in self.walls):
            return False  # a wall taken: the group is out
        key = (bytes(stones), to_move, ko)
        if key in self.table:
            return self.table[key]
        if depth == 0:
            return False
        self.left -= 1
        if self.left < 0:
            raise Budget
        attacking = to_move == self.attacker
        moves = self._moves(stones, to_move)
        if not attacking:
            liberties = self.block(stones, self.target)[1]
            for own in self.short_neighbours(stones, self.room, self.attacker, len(liberties) + 1):
                moves.extend(sorted(own))
            moves = [*dict.fromkeys(moves), None]
        found = not attacking
        for move in moves:
            if move is None:
                outcome = self._room_search(stones, 3 - to_move, -1, depth - 1)
            else:
                played = self.play(stones, to_move, move, ko)
                if played is None:
                    continue
                outcome = self._room_search(played[0], 3 - to_move, played[1], depth - 1)
            if outcome == attacking:
                found = outcome
                break
        self.table[key] = found
        return found


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    p.add_argument("--room", type=int, default=20, help="rooms with more points are not searched")
    p.add_argument("--nodes", type=int, default=3000, help="positions searched per group")
    p.add_argument("--depth", type=int, default=40)
    p.add_argument("--games", nargs="+", help="only these positions (names as the planes cache holds them)")
    args = p.parse_args()
    model = model_file.load(args.model)
    data = planes_cache.load(args.planes)
    searched = out_of_budget = 0
    proofs = {True: 0, False: 0}  # KataGo's verdict on the blocks proven dead
    put_right, put_wrong, seconds = [], [], []
    for row, topology, truth, statuses in finished_statuses(model, data, args.side):
        if args.games and str(data["names"][row]) not in args.games:
            continue
        start, done, killed = time.perf_counter(), set(), set()
        for block in sorted(topology.blocks, key=lambda b: -b.size):
            st = statuses[block.id]
            if block.id in done or not st.alive or st.source == Source.BENSON or block.size < 2:
                continue
            room = room_of(topology, statuses, block.id, args.room)
            if room is None:
                continue
            inside = set(room)
            mates = [b.id for b in topology.blocks if b.color == block.color and int(b.points[0]) in inside]
            done.update(mates)
            search = RoomSearch(topology.grid, depth=args.depth, nodes=args.nodes, total=args.nodes)
            dead = search.killed(block.points, room)
            searched += 1
            out_of_budget += dead is None
            if dead:
                proofs[bool(truth[block.id])] += 1
                killed.update(b for b in mates if statuses[b].alive)
        seconds.append(time.perf_counter() - start)
        before = np.array([statuses[b.id].alive for b in topology.blocks])
        after = before.copy()
        after[sorted(killed)] = False
        if (before != truth).any() and not (after != truth).any():
            put_right.append(str(data["names"][row]))
        if (after != truth).any() and not (before != truth).any():
            put_wrong.append(str(data["names"][row]))
    seconds = np.array(seconds) * 1e3
    print(f"{args.side}: {len(seconds)} finished positions, {searched} groups searched, {out_of_budget} out of "
          f"budget; proven dead: {proofs[False]} dead for KataGo, {proofs[True]} alive for it")
    print(f"  positions put right {len(put_right)} {put_right}; put wrong {len(put_wrong)} {put_wrong}")
    print(f"  search per position: median {np.median(seconds):.1f} ms, p90 {np.quantile(seconds, 0.9):.1f} ms, "
          f"mean {seconds.mean():.1f} ms")


if __name__ == "__main__":
    main()
