"""The shipped reader's recipe without the cascade's verdicts: its status plane (every block's
cascade probability, mapped to [-1, 1] on its stones) zeroed in every position, so that the
reader reads the board planes alone. Does the reader need the cascade? Without it the cascade's
features and nets (a third of a position's scoring time) would leave the default path, and the
held-out sides would no longer reach the reader through a cascade that learnt from most of
their finished games.

    python experiments/no_cascade_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --record runs/no-cascade.json                        # 7 min

The figures are the trainer's (``train_refiner.held_out``: the reader alone, one pass), beside
those of the shipped recipe in docs/trials.md; the "cascade" figures of the record read the
zeroed plane and mean nothing here.
"""

from __future__ import annotations

import numpy as np
import plane_trial

from seog.classifiers import planes_cache
from seog.classifiers.refiner import N_INPUTS


def main() -> None:
    args = plane_trial.arguments(__doc__.splitlines()[0])
    data = planes_cache.load(args.planes)
    data["planes"][:, N_INPUTS - 1] = 0
    plane_trial.train_with(data, np.zeros((len(data["planes"]), 0) + data["planes"].shape[2:], np.float16), [], args)


if __name__ == "__main__":
    main()
