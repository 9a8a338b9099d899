"""How many positions the uncertainty flag would mark, and how many of the wrong ones, for a range
of margins: the evidence for the margin stored in a model. With a refiner in the model, the
margin swept is the refiner's, and a block the cascade flagged (at the cascade's stored margin)
stays flagged, as ``classifiers.refiner.refine`` does.

    python tools/uncertainty_sweep.py seog/models/default.npz ../shared/data/kgs-2017-q1 [more dev sets]
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np

from seog.classifiers import model_file
from seog.classifiers.status import decide
from seog.datasets import devsets

MARGINS = (0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.48, 0.49)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    model = model_file.load(argv[0])
    cascade = None
    if model.refiner is not None:
        cascade = dataclasses.replace(model, refiner=None)
    wrong, closest = [], []
    for _, _, topology, truth in devsets.labelled(argv[1:]):
        statuses = decide(topology, model)
        wrong.append(any(s.alive != bool(truth[s.block]) for s in statuses))
        margins = [abs(s.p_alive - 0.5) for s in statuses if s.p_alive is not None]
        if cascade is not None and any(s.uncertain for s in decide(topology, cascade, passes=())):
            margins.append(0.0)  # flagged by the cascade whatever the refiner's margin
        closest.append(min(margins, default=0.5))
    wrong, closest = np.array(wrong), np.array(closest)
    print(f"{len(wrong)} positions, {int(wrong.sum())} with a wrong block")
    for margin in MARGINS:
        flagged = closest < margin
        print(f"margin {margin:<5} flags {flagged.mean():6.1%} of positions, {flagged[wrong].mean():6.1%} of the wrong ones")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
