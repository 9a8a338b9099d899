"""A model's finished held-out positions split by what its cascade learnt from: the games of
the cascade's feature cache it trained on, those it kept back (every 10th position of the cache,
``classifiers.train.split_rows``), and those the cache left out (labels that do not give the
recorded result). Positions wrong through the product's path (reader, rules) and for the cascade
alone, against KataGo's read, and the positions the product flags (a block in doubt; no record).

    python experiments/cascade_seen_split.py --model seog/models/default.npz --cache cache/train.npz \
        --planes cache/planes-more.npz cache/planes-train.npz cache/planes-selfplay.npz

``--cache`` must be the cache the cascade learnt from, or one built the same way (the same
archive, so the same order of positions); a cascade that learnt from the training side alone
(``--train-side``) kept back every 10th position of that side.
"""

from __future__ import annotations

import argparse

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.classifiers import train as cascade_trainer
from seog.classifiers.status import apply_passes, cascade_statuses, model_passes, read
from seog.datasets.heldout import labelled_positions
from seog.datasets.split import game_id, split_of


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="seog/models/default.npz")
    p.add_argument("--cache", required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--train-side", action="store_true", help="the cascade learnt from the training side alone")
    args = p.parse_args()
    model = model_file.load(args.model)
    names = [str(n) for n in cascade_trainer.load_cache(args.cache)["positions"]]
    if args.train_side:
        names = [n for n in names if split_of(n) == "train"]
    index = {game_id(n): i for i, n in enumerate(names)}
    data = planes_cache.load(args.planes)
    held = cascade_trainer.TEST_EVERY - 1
    for side in ("hash", "year"):
        tally: dict[str, list[int]] = {}
        for row, topology, truth in labelled_positions(data, np.flatnonzero((data["split"] == side) & data["finished"])):
            i = index.get(game_id(str(data["names"][row])))
            group = "not in the cache" if i is None else ("kept back" if i % cascade_trainer.TEST_EVERY == held
                                                          else "learnt from")
            product = apply_passes(topology, read(topology, model, True), model_passes(model), True)
            cascade = cascade_statuses(topology, model)
            wrong = bool((np.array([product[b.id].alive for b in topology.blocks]) != truth).any())
            flagged = any(st.uncertain for st in product.values())
            t = tally.setdefault(group, [0, 0, 0, 0, 0])
            t[0] += 1
            t[1] += wrong
            t[2] += bool((np.array([cascade[b.id].alive for b in topology.blocks]) != truth).any())
            t[3] += flagged
            t[4] += flagged and wrong
        for group, (positions, wrong, cascade_wrong, flagged, wrong_flagged) in sorted(tally.items()):
            print(f"{side:4s} {group:16s} {positions:5d} positions: product wrong {wrong:3d} "
                  f"({100 * wrong / positions:5.2f}%), cascade wrong {cascade_wrong:3d} "
                  f"({100 * cascade_wrong / positions:5.2f}%); flagged {flagged:3d}, {wrong_flagged} of them wrong")


if __name__ == "__main__":
    main()
