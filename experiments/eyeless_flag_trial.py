"""A flag for groups called alive that have no room for two eyes: what the eye-space rule
(``classifiers.eyespace``) would kill but for its guard that every opponent group next to them
lives on its own. A group is flagged when, after the model's rules, it is called alive, holds no
block alive by Benson's algorithm, has no room for two eyes (prisoners in atari taken), touches a
living opponent block, no such block has all its room among the group's (seki, a race), and it
has ``--stones`` stones or more. Prints, per side, the finished positions wrong against KataGo's
read, those flagged and the wrong ones flagged, as the model flags and with the new flag.

    python experiments/eyeless_flag_trial.py --model seog/models/default.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --side hash                 # 1 min
    python experiments/eyeless_flag_trial.py --model seog/models/default.npz --planes cache/planes-small.npz --side all

``--unguarded`` measures the eye-space rule without that guard instead (every opponent group
next to a group is taken to live on its own): the finished positions wrong before and after.
"""

from __future__ import annotations

import numpy as np

from seog.classifiers import eyespace, model_file, planes_cache
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import apply_passes, model_passes, read
from seog.classifiers.vocabulary import Source
from seog.datasets.heldout import (
    any_wrong,
    finished_statuses,
    labelled_positions,
    side_mask,
    side_parser,
)


def eyeless_groups(topology, statuses, stones: int) -> list[list[int]]:
    """The groups (block ids) called alive with no room for two eyes, outside seki and races."""
    alive = [statuses[b.id].alive for b in topology.blocks]
    gone = [not statuses[b.id].alive and not statuses[b.id].uncertain for b in topology.blocks]
    benson = {b for b, st in statuses.items() if st.source == Source.BENSON}
    taken_min, out = DEFAULT.taken_min, []
    for color in (1, -1):
        for blocks in eyespace._members(eyespace._groups(topology, color, alive)).values():
            if (benson & set(blocks) or eyespace._two_eyes(topology, color, blocks, alive, taken_min)
                    or sum(topology.blocks[b].size for b in blocks) < stones):
                continue
            room = set().union(*(eyespace._room(topology, b, gone) for b in blocks))
            rooms = {o: eyespace._room(topology, o, gone) for b in blocks
                     for o in topology.blocks[b].opponents if alive[o]}
            taken = {o for o, theirs in rooms.items() if len(theirs) == 1 and theirs <= room} if len(room) >= 2 else set()
            if taken and eyespace._two_eyes(topology, color, blocks,
                                            [a and i not in taken for i, a in enumerate(alive)], taken_min):
                continue
            around = rooms.keys() - taken
            if around and not any(rooms[o] <= room for o in around):
                out.append(blocks)
    return out


def unguarded(model, data, rows, side: str) -> None:
    """Finished positions wrong with the model's rules, then with the eye-space rule unguarded."""
    guard = eyespace._big_eye
    before = after = 0
    put_right, put_wrong = [], []
    for row, topology, truth in labelled_positions(data, rows):
        reading = read(topology, model, True)
        wrong = []
        for big_eye in (guard, lambda *args: True):
            eyespace._big_eye = big_eye
            statuses = apply_passes(topology, reading, model_passes(model), True)
            wrong.append(any_wrong(topology, statuses, truth))
        eyespace._big_eye = guard
        before += wrong[0]
        after += wrong[1]
        if wrong[0] and not wrong[1]:
            put_right.append(str(data["names"][row]))
        if wrong[1] and not wrong[0]:
            put_wrong.append(str(data["names"][row]))
    print(f"{side}: wrong {before} -> {after} unguarded; put right {put_right}; put wrong {len(put_wrong)}")


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    p.add_argument("--stones", type=int, default=6, help="smaller groups are not flagged")
    p.add_argument("--unguarded", action="store_true", help="measure the eye-space rule without its guard")
    args = p.parse_args()
    model = model_file.load(args.model)
    data = planes_cache.load(args.planes)
    if args.unguarded:
        unguarded(model, data, np.flatnonzero(side_mask(data, args.side) & data["finished"]), args.side)
        return
    positions = wrong = flagged = wrong_flagged = new_flagged = new_wrong_flagged = 0
    caught = []
    for row, topology, truth, statuses in finished_statuses(model, data, args.side):
        is_wrong = any_wrong(topology, statuses, truth)
        is_flagged = any(st.uncertain for st in statuses.values())
        now_flagged = is_flagged or bool(eyeless_groups(topology, statuses, args.stones))
        positions += 1
        wrong += is_wrong
        flagged += is_flagged
        wrong_flagged += is_wrong and is_flagged
        new_flagged += now_flagged
        new_wrong_flagged += is_wrong and now_flagged
        if is_wrong and now_flagged and not is_flagged:
            caught.append(str(data["names"][row]))
    print(f"{args.side}: {positions} finished positions, {wrong} wrong; as the model flags: {flagged} "
          f"({flagged / positions:.1%}), {wrong_flagged} wrong; with the flag: {new_flagged} "
          f"({new_flagged / positions:.1%}), {new_wrong_flagged} wrong {caught}")


if __name__ == "__main__":
    main()
