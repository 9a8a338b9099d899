"""A rule that brings back blocks called dead that no living opponent can reach: a block called
dead (not for being in atari) whose opponent neighbours are all dead, and whose empty regions
border no living opponent stone and at least one living stone of its own, sits among its own
stones and the opponent's prisoners; the static pass's ``capturers-dead`` asks the same of the
neighbours alone. Run after the model's rules; prints, per side, the finished positions wrong
against KataGo's read before and after, and those it puts right and wrong.

    python tools/sheltered_trial.py --model seog/models/default.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --side hash                 # 1 min
    python tools/sheltered_trial.py --model seog/models/default.npz --planes cache/planes-small.npz --side all
"""

from __future__ import annotations

import argparse

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.classifiers.status import apply_rules, model_rules, read
from seog.classifiers.vocabulary import Source, turn
from seog.datasets.heldout import labelled_positions


def sheltered_alive(topology, statuses):
    """``statuses`` with the blocks called dead that no living opponent reaches alive."""
    revived = {}
    for block in topology.blocks:
        st = statuses[block.id]
        if st.alive or st.source == Source.ATARI or not block.regions:
            continue
        if any(statuses[o].alive for o in block.opponents):
            continue
        borders = [topology.blocks[b] for r in block.regions for b in topology.regions[r].blocks]
        if (not any(b.color != block.color and statuses[b.id].alive for b in borders)
                and any(b.color == block.color and statuses[b.id].alive for b in borders)):
            revived[block.id] = True
    return turn(statuses, revived, Source.CAPTURERS_DEAD)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--side", default="hash", help="a side of the split, or 'all' for every position")
    args = p.parse_args()
    model = model_file.load(args.model)
    data = planes_cache.load(args.planes)
    chosen = data["finished"] if args.side == "all" else (data["split"] == args.side) & data["finished"]
    positions = before_wrong = after_wrong = 0
    put_right, put_wrong = [], []
    for row, topology, truth in labelled_positions(data, np.flatnonzero(chosen)):
        statuses = apply_rules(topology, read(topology, model, True), True, model_rules(model), True)
        after = sheltered_alive(topology, statuses)
        was = bool((np.array([statuses[b.id].alive for b in topology.blocks]) != truth).any())
        now = bool((np.array([after[b.id].alive for b in topology.blocks]) != truth).any())
        positions += 1
        before_wrong += was
        after_wrong += now
        if was and not now:
            put_right.append(str(data["names"][row]))
        if now and not was:
            put_wrong.append(str(data["names"][row]))
    print(f"{args.side}: {positions} finished positions, wrong {before_wrong} -> {after_wrong}; "
          f"put right {put_right}; put wrong {put_wrong}")


if __name__ == "__main__":
    main()
