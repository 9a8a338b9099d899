"""The ownership refiner: a small convolutional net that reads the whole board after the cascade.

The cascade judges one block at a time from its features; the refiner sees every block's
verdict at once, as a plane, next to the board planes of ``features.planes``, and predicts who
owns each point (-1 White .. +1 Black). A block is alive when the mean predicted ownership over
its stones has its own sign. Every layer after the first adds a 3x3 convolution and a mix of the
mean over the point's block or empty region, so one layer carries news across a whole group.
Inference is numpy alone (threadpoolctl keeps its matrix products on one BLAS thread);
``train_refiner`` trains the same net with torch.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from seog.classifiers.status import BlockStatus
from seog.features.planes import PLANES, segments, static_planes, status_plane
from seog.features.topology import Topology

N_INPUTS = len(PLANES) + 1  # the board planes and the cascade's status plane


@dataclass(eq=False)
class Refiner:
    """Weights as torch stores them: ``stem_w`` ``(C, N_INPUTS, k, k)``; per layer ``conv_w[l]``
    ``(C, C, 3, 3)``, ``pool_w[l]`` ``(C, C)`` with their biases; ``head_w`` ``(C,)``, ``head_b``."""

    stem_w: np.ndarray
    stem_b: np.ndarray
    conv_w: list[np.ndarray]
    conv_b: list[np.ndarray]
    pool_w: list[np.ndarray]
    pool_b: list[np.ndarray]
    head_w: np.ndarray
    head_b: float

    def __post_init__(self):
        c = self.stem_w.shape[0]
        if self.stem_w.ndim != 4 or self.stem_w.shape[1] != N_INPUTS:
            raise ValueError(f"the refiner's first layer takes {self.stem_w.shape[1:2]} planes, expected {N_INPUTS}")
        for w, b, pw, pb in zip(self.conv_w, self.conv_b, self.pool_w, self.pool_b):
            if w.shape != (c, c, 3, 3) or b.shape != (c,) or pw.shape != (c, c) or pb.shape != (c,):
                raise ValueError(f"a refiner layer does not match {c} channels")
        if self.head_w.shape != (c,):
            raise ValueError(f"the refiner's head takes {self.head_w.shape} weights, expected ({c},)")

    @property
    def channels(self) -> int:
        return int(self.stem_w.shape[0])

    @property
    def layers(self) -> int:
        return len(self.conv_w)

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights as named float32 arrays, for a model file."""
        out = {"stem_w": self.stem_w, "stem_b": self.stem_b, "head_w": self.head_w,
               "head_b": np.array([self.head_b])}
        for k in range(self.layers):
            out.update({f"conv{k}_w": self.conv_w[k], f"conv{k}_b": self.conv_b[k],
                        f"pool{k}_w": self.pool_w[k], f"pool{k}_b": self.pool_b[k]})
        return {name: np.asarray(a, dtype=np.float32) for name, a in out.items()}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], layers: int) -> Refiner:
        f = {name: np.asarray(a, dtype=np.float32) for name, a in arrays.items()}
        return cls(f["stem_w"], f["stem_b"], [f[f"conv{k}_w"] for k in range(layers)],
                   [f[f"conv{k}_b"] for k in range(layers)], [f[f"pool{k}_w"] for k in range(layers)],
                   [f[f"pool{k}_b"] for k in range(layers)], f["head_w"], float(f["head_b"][0]))


def conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 'same' 2-D convolution of ``(C_in, n, n)`` planes by ``(C_out, C_in, k, k)`` weights:
    the k*k shifted copies of the board side by side (im2col: one copy of a strided view of the
    padded planes), then one matrix product."""
    c, n, k = x.shape[0], x.shape[-1], w.shape[-1]
    pad = k // 2
    m = n + 2 * pad
    padded = np.zeros((c, m, m), dtype=np.float32)
    padded[:, pad:pad + n, pad:pad + n] = x
    # windows[ch, dy, dx, i, j] = padded[ch, dy + i, dx + j]; the reshape copies it into columns
    item = padded.itemsize
    windows = np.ndarray((c, k, k, n, n), np.float32, padded, 0, (m * m * item, m * item, item, m * item, item))
    return (w.reshape(w.shape[0], -1) @ windows.reshape(c * k * k, n * n)).reshape(-1, n, n) + b[:, None, None]


@lru_cache(maxsize=1)
def _blas() -> list:
    """The process's BLAS libraries: a thread pool only slows products this small, so the
    refiner runs them on one thread (a busy machine made them 100 times slower)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController().select(user_api="blas").lib_controllers


@contextmanager
def _one_blas_thread():
    """BLAS on one thread inside the block. Each library is asked and set directly: threadpoolctl's
    ``limit`` reads every library's whole description first, which cost 70 us a position."""
    libs = _blas()
    before = [lib.get_num_threads() for lib in libs]
    for lib, threads in zip(libs, before):
        if threads != 1:
            lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, threads in zip(libs, before):
            if threads != 1:
                lib.set_num_threads(threads)


def ownership(refiner: Refiner, planes: np.ndarray, segment: np.ndarray, n_segments: int) -> np.ndarray:
    """Predicted ownership of every point, ``(n, n)`` in [-1, 1] (+ Black), from ``(N_INPUTS, n, n)`` planes."""
    with _one_blas_thread():
        return _ownership(refiner, planes, segment, n_segments)


def _ownership(refiner: Refiner, planes: np.ndarray, segment: np.ndarray, n_segments: int) -> np.ndarray:
    n = planes.shape[-1]
    seg = segment.ravel()
    # Points sorted by segment, so each segment's sum is one slice of a running reduction.
    order = seg.argsort(kind="stable")
    sizes = np.bincount(seg)
    if len(sizes) != n_segments or not sizes.all():
        raise ValueError(f"segment ids must number 0..{n_segments - 1} with no gap")
    starts = np.concatenate([[0], sizes[:-1].cumsum()])
    counts = sizes.astype(np.float32)
    h = np.maximum(conv(planes, refiner.stem_w, refiner.stem_b), 0)
    for w, b, pw, pb in zip(refiner.conv_w, refiner.conv_b, refiner.pool_w, refiner.pool_b):
        flat = h.reshape(h.shape[0], -1)
        means = np.add.reduceat(flat.take(order, axis=1), starts, axis=1) / counts
        mixed = (pw @ means + pb[:, None]).take(seg, axis=1)
        mixed += flat
        h = conv(h, w, b)
        h += mixed.reshape(h.shape)
        np.maximum(h, 0, out=h)
    # the head as ``np.tensordot(head_w, h, axes=(0, 0))`` computes it, without its overhead
    return np.tanh(np.dot(refiner.head_w.reshape(1, -1), h.reshape(len(h), -1)).reshape(n, n) + refiner.head_b)


def inputs(topology: Topology, statuses: dict[int, BlockStatus]) -> np.ndarray:
    """The refiner's ``(N_INPUTS, n, n)`` input: board planes, then every block's cascade verdict."""
    benson = [b for b, st in statuses.items() if st.source == "benson"]
    p = np.array([_p_alive(statuses[b.id]) for b in topology.blocks], dtype=np.float32)
    return np.concatenate([static_planes(topology, benson), status_plane(topology, p)[None]])


def _p_alive(status: BlockStatus) -> float:
    return status.p_alive if status.p_alive is not None else float(status.alive)


def block_p_alive(topology: Topology, owner: np.ndarray) -> np.ndarray:
    """Per block: the mean predicted ownership over its stones, from its own side, mapped to [0, 1]."""
    block_of = topology.block_of.ravel()
    stone = block_of > 0
    colors = topology.grid.ravel()[stone]
    sums = np.bincount(block_of[stone] - 1, owner.ravel()[stone] * colors, minlength=len(topology.blocks))
    sizes = np.bincount(block_of[stone] - 1, minlength=len(topology.blocks))
    return 0.5 * (1.0 + sums / np.maximum(sizes, 1))


def refine(topology: Topology, statuses: dict[int, BlockStatus], refiner: Refiner,
           margin: float) -> dict[int, BlockStatus]:
    """Every block's status after the refiner has read the board with the cascade's verdicts.

    Blocks that are unconditionally alive stay alive; every other block takes the refiner's
    verdict (source 'refiner'), flagged uncertain when ``|p - 0.5| < margin`` or when the cascade
    had already flagged it: two readers in doubt catch more wrong verdicts than either alone.
    """
    seg, n_segments = segments(topology)
    owner = ownership(refiner, inputs(topology, statuses), seg, n_segments)
    p = block_p_alive(topology, owner)
    out = {}
    for block in topology.blocks:
        st = statuses[block.id]
        if st.source == "benson":
            out[block.id] = st
        else:
            q = float(p[block.id])
            doubt = "model" if abs(q - 0.5) < margin or st.uncertain else ""
            out[block.id] = BlockStatus(block.id, block.color, block.points, q > 0.5, "refiner", q, bool(doubt), doubt)
    return out
