"""The shipped reader's recipe with the SEOG feature vector as input planes: the 33 features of
set A that the cascade reads (scaled as the cascade scales them, to [0, 1]) on the stones of
every block, beside the cascade's one probability. The reader reads finished boards far worse
without the cascade's verdicts (``experiments/no_cascade_trial.py``): does it read them better from
the features themselves than from the verdict the cascade makes of them?

    python experiments/feature_planes_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --record runs/feature-planes.json                    # 1 min planes, 9 min training

A block's features read its own colour's side of the board, so a colour swap in training
leaves them. The figures are the trainer's (``train_refiner.held_out``: the reader alone, one
pass), beside those of the same recipe without the planes in docs/trials.md.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import plane_trial

from seog.classifiers import model_file, planes_cache
from seog.features import vector


def feature_planes(planes: np.ndarray, model) -> np.ndarray:
    """``(features, N, N)`` float16: each block's scaled features on its stones, 0 off stones."""
    k = len(model.feature_names)
    view, top = plane_trial.canvas(planes, k)
    if not top.blocks:
        return plane_trial.on_canvas(view, planes)
    x = np.clip(model.scale(vector.extract(top, list(range(len(top.blocks))), model.feature_names)), 0, 1)
    table = np.zeros((len(top.blocks) + 1, k), dtype=np.float32)
    table[1:] = x
    view[:] = table[top.block_of.ravel()].T
    return plane_trial.on_canvas(view, planes)


def main() -> None:
    args = plane_trial.arguments(__doc__.splitlines()[0])
    model = model_file.load(Path(__file__).resolve().parents[1] / "seog" / "models" / "default.npz")
    data = planes_cache.load(args.planes)
    start = time.perf_counter()
    extra = np.stack([feature_planes(x, model) for x in data["planes"]])
    print(f"{extra.shape[1]} feature planes of {len(extra)} positions in {time.perf_counter() - start:.0f} s")
    plane_trial.train_with(data, extra, list(range(extra.shape[1])), args)  # colour-blind: a swap leaves them


if __name__ == "__main__":
    main()
