"""The mean of several readers' p_alive per block, then the first model's rules: what averaging
readers that learnt on different cascades or data would give. Each model reads the position
(static pass, its cascade, its reader, its calibration); a block is in doubt when one of them
doubts it or they part on its side of 0.5. Prints, per side, the finished positions each model
gets wrong through its own path, those the mean gets wrong, how many it flags, and the wrong ones
among the positions the shipped cascade never learnt from (``experiments/cascade_seen_split.py``).

    python experiments/reader_mean_trial.py --models runs/cand-stack-final.npz runs/cand-ecas.npz \\
        runs/cand-early.npz --planes cache/planes-more.npz cache/planes-train.npz \\
        cache/planes-selfplay.npz --small cache/planes-small.npz --cache cache/train.npz      # 1 min
"""

from __future__ import annotations

import argparse

import numpy as np

from seog.classifiers import model_file, planes_cache
from seog.classifiers import train as cascade_trainer
from seog.classifiers.status import apply_passes, model_passes, read
from seog.classifiers.vocabulary import BlockStatus, Doubt, Source
from seog.datasets.heldout import labelled_positions
from seog.datasets.split import game_id


def mean_reading(topology, reads: list[dict]) -> dict[int, BlockStatus]:
    """The first reading with every read block's p the mean of the readings' p."""
    out = {}
    for block in topology.blocks:
        first = reads[0][block.id]
        ps = [r[block.id].p_alive for r in reads]
        if first.source == Source.BENSON or None in ps:
            out[block.id] = first
            continue
        q = float(np.mean(ps))
        doubt = any(r[block.id].uncertain for r in reads) or len({p > 0.5 for p in ps}) > 1
        out[block.id] = BlockStatus(block.id, block.color, block.points, q > 0.5, Source.READER, q,
                                    Doubt.MODEL if doubt else Doubt.NONE)
    return out


def measure(models: list, data: dict, rows, unseen=lambda row: False) -> dict:
    each = np.zeros(len(models), dtype=int)
    wrong = flagged = wrong_flagged = unseen_wrong = 0
    for row, topology, truth in labelled_positions(data, rows):
        reads = [read(topology, m, True) for m in models]
        for i, (model, reading) in enumerate(zip(models, reads)):
            settled = apply_passes(topology, reading, model_passes(model), True)
            each[i] += bool((np.array([settled[b.id].alive for b in topology.blocks]) != truth).any())
        settled = apply_passes(topology, mean_reading(topology, reads), model_passes(models[0]), True)
        bad = bool((np.array([settled[b.id].alive for b in topology.blocks]) != truth).any())
        doubt = any(st.uncertain for st in settled.values())
        wrong += bad
        flagged += doubt
        wrong_flagged += bad and doubt
        unseen_wrong += bad and unseen(row)
    return {"each": each.tolist(), "mean": wrong, "flagged": flagged, "wrong flagged": wrong_flagged,
            "wrong of those the shipped cascade never learnt from": unseen_wrong}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", nargs="+", required=True)
    p.add_argument("--planes", nargs="+", required=True)
    p.add_argument("--small", default="cache/planes-small.npz")
    p.add_argument("--cache", default="cache/train.npz", help="the shipped cascade's feature cache")
    args = p.parse_args()
    models = [model_file.load(m) for m in args.models]
    seen = {game_id(str(n)): i for i, n in enumerate(cascade_trainer.load_cache(args.cache)["positions"])}
    held = cascade_trainer.TEST_EVERY - 1
    data = planes_cache.load(args.planes)

    def unseen(row) -> bool:
        return seen.get(game_id(str(data["names"][row])), held) % cascade_trainer.TEST_EVERY == held

    for side in ("hash", "year"):
        rows = np.flatnonzero((data["split"] == side) & data["finished"])
        print(side, len(rows), measure(models, data, rows, unseen), flush=True)
    small = planes_cache.load([args.small])
    rows = np.flatnonzero(small["finished"])
    print("small", len(rows), measure(models, small, rows))


if __name__ == "__main__":
    main()
