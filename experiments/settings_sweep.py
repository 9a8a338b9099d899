"""The kept rules' thresholds swept on a held-out side: each setting of ``PassSettings`` that the
shipped rules read (reading, eye space) moved one step at a time, the others as shipped, with
the wrong positions (a block KataGo reads otherwise), wrong stones and the rules' time for each,
and the finished positions flagged and wrong ones flagged (the race check's setting moves flags
alone).

    python experiments/settings_sweep.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --side hash                                        # 3 min on 2 cores
    python experiments/settings_sweep.py --planes cache/planes-small.npz --side all

The reader runs once per position (``status.read``); each setting then runs the model's rules
(``status.apply_passes``) on its verdicts, so a row differs from the shipped one by the rules
alone. A setting moves from the shipped value only when another puts more positions right than
wrong on ``hash`` and ``small`` together (as the rules are chosen), none wrong on ``year``
(docs/trials.md, "Settings").
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import apply_passes, model_passes, read
from seog.datasets.heldout import add_side_arguments, labelled_positions, side_mask

SWEEP = {
    "read_min_stones": [3, 4, 5, 6],
    "read_max_liberties": [2, 3, 4],
    "read_max_chain_liberties": [3, 4, 5, 6, 8],
    "read_depth": [8, 10, 12, 14, 16],
    "taken_min": [1, 2, 3, 4],
    "alone_eye": [5, 6, 7, 8],
    "race_max_liberties": [3, 4, 8, 16, 30],  # flags only
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_side_arguments(p)
    args = p.parse_args()
    model = model_file.load(args.model)
    rules = model_passes(model)
    data = planes_cache.load(args.planes)
    side = side_mask(data, args.side)
    variants = [("shipped", DEFAULT)] + [(f"{name} {value}", replace(DEFAULT, **{name: value}))
                                         for name, values in SWEEP.items() for value in values
                                         if value != getattr(DEFAULT, name)]
    wrong = {label: [0, 0, 0, 0.0, 0, 0] for label, _ in variants}  # finished, unfinished, stones, seconds,
    # finished positions flagged, wrong finished positions flagged
    for row, topology, truth in labelled_positions(data, np.flatnonzero(side)):
        sizes = np.array([len(b.points) for b in topology.blocks])
        done = bool(data["finished"][row])
        reading = read(topology, model, done)
        apply_passes(topology, reading, rules, done)  # the topology's lazy parts, outside the clock
        for label, settings in variants:
            start = time.perf_counter()
            after = apply_passes(topology, reading, rules, done, settings)
            seconds = time.perf_counter() - start
            bad = np.array([after[b.id].alive for b in topology.blocks]) != truth
            tally = wrong[label]
            tally[0 if done else 1] += int(bad.any())
            tally[2] += int(sizes[bad].sum())
            tally[3] += seconds
            if done and any(st.uncertain for st in after.values()):
                tally[4] += 1
                tally[5] += int(bad.any())
    positions = int(side.sum())
    print(f"{args.model}, rules {', '.join(rules or ['all'])}: {positions} positions of the {args.side} side")
    done = int((side & data["finished"].astype(bool)).sum())
    print(f"{'setting':<28} {'finished':>9} {'unfinished':>11} {'stones':>7} {'ms/position':>12} "
          f"{'flagged':>8} {'wrong flagged':>14}")
    for label, (fin, unf, stones, seconds, flagged, caught) in wrong.items():
        print(f"{label:<28} {fin:>9} {unf:>11} {stones:>7} {1000 * seconds / positions:>12.2f} "
              f"{flagged / max(done, 1):>8.1%} {caught:>14}")


if __name__ == "__main__":
    main()
