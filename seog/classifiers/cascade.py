"""Statuses for the blocks the static pass leaves open, from a trained cascade (numpy only).

The first net sees a block's scaled static features. Each later net also sees seven *dynamic*
inputs: for each of the block's seven related slots (the block itself, its chain, its neighbours,
... as ``features.vector.related`` lists them), the mean predicted probability of being alive
over the slot's blocks, where settled blocks count as 1 (alive) or 0 (dead), open blocks carry
the previous net's output, and an empty slot reads 0.5. Training computes the same inputs from
the feature cache with ``dynamic_inputs``, so the nets see at scoring time what they saw in
training.
"""

from __future__ import annotations

import numpy as np

from seog.classifiers.model_file import Model
from seog.classifiers.vocabulary import BlockStatus, Doubt, Source

N_SLOTS = 7


def dynamic_inputs(p: np.ndarray, related: np.ndarray) -> np.ndarray:
    """Slot means of ``p`` over ``related`` (``(n, 7, K)`` indices into ``p``, -1 padded); empty slots 0.5."""
    related = np.asarray(related)
    # a 0 after the last block: padding (-1) reads it
    values = np.concatenate([np.asarray(p, dtype=np.float64), [0.0]])[related]
    counts = (related >= 0).sum(axis=-1)
    return np.where(counts > 0, values.sum(axis=-1) / np.maximum(counts, 1), 0.5)


def run_cascade(model: Model, x_scaled: np.ndarray, p: np.ndarray, rows: np.ndarray,
                related: np.ndarray | None) -> np.ndarray:
    """The last net's probabilities for ``rows``.

    ``x_scaled``: scaled static features of ``rows``; ``p``: probabilities for every id that
    ``related`` can name, settled ids already 0 or 1 (updated in place with each net's output for
    ``rows``); ``related``: ``(len(rows), 7, K)`` ids, needed when the cascade has more than one net.
    """
    out = model.nets[0].predict(x_scaled)
    for net in model.nets[1:]:
        if related is None:
            raise ValueError("a cascade of several nets needs the related blocks of each block")
        p[rows] = out
        out = net.predict(np.concatenate([x_scaled, dynamic_inputs(p, related)], axis=1))
    p[rows] = out
    return out


def classify(topology, unsettled_ids, settled: dict, model: Model) -> dict[int, BlockStatus]:
    """Model statuses for ``unsettled_ids``, given the static pass's ``settled`` statuses."""
    from seog.features import vector  # floor 1; imported here so this module loads without it

    ids = np.asarray(list(unsettled_ids), dtype=np.int64)
    if ids.size == 0:
        return {}
    x = model.scale(vector.extract(topology, ids.tolist(), model.feature_names))
    p = np.full(len(topology.blocks), 0.5)
    for b, status in settled.items():
        p[b] = 1.0 if status.alive else 0.0
    related = vector.related_array(topology, ids) if len(model.nets) > 1 else None
    probs = run_cascade(model, x, p, ids, related)
    out = {}
    for b, prob in zip(ids.tolist(), probs.tolist()):
        block = topology.blocks[b]
        doubt = Doubt.MODEL if abs(prob - 0.5) < model.uncertain_margin else Doubt.NONE
        out[b] = BlockStatus(b, block.color, block.points, prob >= 0.5, Source.CASCADE, prob, doubt)
    return out
