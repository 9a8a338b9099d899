"""Reading the reader's planes caches (``python -m seog.datasets.planes``), numpy only: the
trainer and the held-out measure join the same caches the same way."""

from __future__ import annotations

import json

import numpy as np

from seog.classifiers import model_file

KEYS = ("planes", "segments", "ownership", "split", "finished", "names")


def load(paths: list[str]) -> dict:
    """The caches' arrays joined, a game held by two caches taken from the first, with their
    metas (``metas``) to check the cascade they were built with. Raises ValueError naming a file
    that is no planes cache with a held-out split (FileNotFoundError for one that is not there)."""
    parts, metas, seen = [], [], set()
    for path in paths:
        data = model_file.read_arrays(path, "planes cache", ValueError)
        if "split" not in data or "game" not in data:
            raise ValueError(f"{path} has no held-out split: rebuild it with python -m seog.datasets.planes")
        keep = np.array([g not in seen for g in data["game"]], dtype=bool)
        seen.update(data["game"].tolist())
        parts.append({k: data[k][keep] for k in KEYS})
        metas.append(json.loads(str(data["meta"])))
    out = {k: np.concatenate([p[k] for p in parts]) for k in KEYS}
    out["metas"] = metas
    return out
