"""The ownership refiner: a small convolutional net that reads the whole board after the cascade.

The cascade judges one block at a time from its features; the refiner sees every block's
verdict at once, as a plane, next to the board planes of ``features.planes``, and predicts who
owns each point (-1 White .. +1 Black). A block is alive when the mean predicted ownership over
its stones has its own sign. Every layer after the first adds a 3x3 convolution and a mix of the
mean over the point's block or empty region, so one layer carries news across a whole group,
and, when the net has them (``glob_w``), a mix of the channels' means over the whole board
(global pooling), so every point sees how the rest of the board stands.
The net is not symmetric: where one pass leaves a block in doubt, ``refine`` takes the mean over
the board's 8 symmetries and the colour swap, so a turned board gets the same verdicts.
Inference is numpy and two of scipy's compiled cores (BLAS's sgemm adds each product in place,
the CSR product takes the block means; threadpoolctl keeps the products on one BLAS thread); ``train_refiner`` trains
the same net with torch.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from seog.classifiers.vocabulary import BlockStatus, Doubt, Source
from seog.features.compiled import extension
from seog.features.planes import COLOR_SWAP, PLANES, segments, static_planes, status_plane
from seog.features.topology import Topology

_sgemm = extension("linalg", "_fblas").sgemm
_csr_matvecs = extension("sparse", "_sparsetools").csr_matvecs

NEVER_PARTED = 1.0  # no two probabilities lie further apart: a model without a part margin flags no part
N_INPUTS = len(PLANES) + 1  # the board planes and the cascade's status plane
# A refiner may take one more plane, 1 on every point of a finished position and 0 on an
# unfinished one (a resignation, a time loss, open borders), so that it reads a finished board
# as players count it and an unfinished one as a forecast.
FINISHED_PLANE = N_INPUTS
# The input planes of the colour-swapped position: the status plane is each block's own p_alive,
# colour-blind, and so is the finished plane.
SWAP_INPUTS = np.array(COLOR_SWAP + [N_INPUTS - 1, FINISHED_PLANE])
# (quarter turns, mirrored) of the 8 symmetries of a square board
SYMMETRIES = tuple((turns, mirror) for turns in range(4) for mirror in (False, True))


@dataclass(eq=False)
class Refiner:
    """Weights as torch stores them: ``stem_w`` ``(C, N_INPUTS, k, k)``; per layer ``conv_w[l]``
    ``(C, C, 3, 3)``, ``pool_w[l]`` ``(C, C)`` with their biases, and ``glob_w[l]`` ``(C, C)``
    when the net pools the whole board (an empty list when it does not); ``head_w`` ``(C,)``, ``head_b``;
    ``calibration``, the factor on the logit of a block's raw probability that makes it calibrated
    (1: none; it keeps every verdict's side)."""

    stem_w: np.ndarray
    stem_b: np.ndarray
    conv_w: list[np.ndarray]
    conv_b: list[np.ndarray]
    pool_w: list[np.ndarray]
    pool_b: list[np.ndarray]
    head_w: np.ndarray
    head_b: float
    glob_w: list[np.ndarray] = field(default_factory=list)
    calibration: float = 1.0  # p_alive = sigmoid(calibration * logit(raw p)): fitted on held-out blocks

    def __post_init__(self):
        c = self.stem_w.shape[0]
        if self.stem_w.ndim != 4 or self.stem_w.shape[1] not in (N_INPUTS, N_INPUTS + 1):
            raise ValueError(f"the refiner's first layer takes {self.stem_w.shape[1:2]} planes, "
                             f"expected {N_INPUTS} or {N_INPUTS + 1}")
        for w, b, pw, pb in zip(self.conv_w, self.conv_b, self.pool_w, self.pool_b):
            if w.shape != (c, c, 3, 3) or b.shape != (c,) or pw.shape != (c, c) or pb.shape != (c,):
                raise ValueError(f"a refiner layer does not match {c} channels")
        if self.glob_w and (len(self.glob_w) != self.layers or any(g.shape != (c, c) for g in self.glob_w)):
            raise ValueError(f"the refiner's global pooling does not match {self.layers} layers of {c} channels")
        if self.head_w.shape != (c,):
            raise ValueError(f"the refiner's head takes {self.head_w.shape} weights, expected ({c},)")

    @cached_property
    def prepared(self) -> _Prepared:
        """The weights as ``_ownership`` multiplies them, derived on first use (weights are not
        changed after a refiner is made)."""
        return _Prepared.of(self)

    @property
    def reads_finished(self) -> bool:
        """Does the net take the finished plane (``FINISHED_PLANE``)?"""
        return self.stem_w.shape[1] == N_INPUTS + 1

    @property
    def channels(self) -> int:
        return int(self.stem_w.shape[0])

    @property
    def layers(self) -> int:
        return len(self.conv_w)

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights as named float32 arrays, for a model file."""
        out = {"stem_w": self.stem_w, "stem_b": self.stem_b, "head_w": self.head_w,
               "head_b": np.array([self.head_b]), "calibration": np.array([self.calibration])}
        for k in range(self.layers):
            out.update({f"conv{k}_w": self.conv_w[k], f"conv{k}_b": self.conv_b[k],
                        f"pool{k}_w": self.pool_w[k], f"pool{k}_b": self.pool_b[k]})
            if self.glob_w:
                out[f"glob{k}_w"] = self.glob_w[k]
        return {name: np.asarray(a, dtype=np.float32) for name, a in out.items()}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], layers: int) -> Refiner:
        f = {name: np.asarray(a, dtype=np.float32) for name, a in arrays.items()}
        return cls(f["stem_w"], f["stem_b"], [f[f"conv{k}_w"] for k in range(layers)],
                   [f[f"conv{k}_b"] for k in range(layers)], [f[f"pool{k}_w"] for k in range(layers)],
                   [f[f"pool{k}_b"] for k in range(layers)], f["head_w"], float(f["head_b"][0]),
                   [f[f"glob{k}_w"] for k in range(layers)] if "glob0_w" in f else [],
                   float(f["calibration"][0]) if "calibration" in f else 1.0)


def _taps(w: np.ndarray) -> list[np.ndarray]:
    """Torch's ``(C_out, C_in, k, k)`` conv weights as ``_Padded.convolve`` multiplies them: one
    ``(C_out, C_in)`` Fortran-order slice per window point, in (dy, dx) order (sgemm's layout)."""
    c_out, c_in, k, _ = w.shape
    return [piece.T for piece in np.ascontiguousarray(w.transpose(2, 3, 1, 0), dtype=np.float32).reshape(k * k, c_in, c_out)]


@dataclass(frozen=True)
class _Prepared:
    """A refiner's weights as ``_ownership`` multiplies them, float32: per layer ``(conv taps, bias,
    pool_w)`` with the residual folded into the conv's centre tap (h + conv(h) is one conv) and the
    pool's bias into the conv's (the pool adds it at every point alike); the global pooling's
    ``(C, C)`` mix, transposed, or None."""

    stem: list[np.ndarray]
    stem_b: np.ndarray
    layers: list[tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray | None]]
    head_w: np.ndarray
    head_b: float

    @classmethod
    def of(cls, refiner: Refiner) -> _Prepared:
        layers = []
        globs = refiner.glob_w or [None] * refiner.layers
        for w, b, pw, pb, gw in zip(refiner.conv_w, refiner.conv_b, refiner.pool_w, refiner.pool_b, globs):
            w = w.copy()
            w[:, :, 1, 1] += np.eye(len(w), dtype=w.dtype)
            g = None if gw is None else np.ascontiguousarray(gw.T, dtype=np.float32)
            layers.append((_taps(w), (b + pb).astype(np.float32), np.ascontiguousarray(pw.T, dtype=np.float32), g))
        return cls(_taps(refiner.stem_w), refiner.stem_b.astype(np.float32), layers,
                   refiner.head_w.astype(np.float32), float(refiner.head_b))


class _Padded:
    """A zero-padded stack of points, and the shifted views a k x k convolution of it multiplies.

    Point (i, j) of an n x n board is row ``i * width + j`` of ``points`` (``(n * width, C)``); the
    rows with j >= n and the margins above and below stay zero: the padding a window reaching off
    the board reads (``width >= n + k // 2`` keeps the left and right reaches apart). So the
    convolution is a sum of products of the stack shifted to each point of the window by the
    weights' slices: no window is copied (no im2col).
    """

    def __init__(self, n: int, width: int, channels: int, k: int):
        self.width = width
        margin = k // 2 * (width + 1)
        length = n * width
        self.padded = np.zeros((length + 2 * margin, channels), dtype=np.float32)
        self.points = self.padded[margin:margin + length]
        # the shifted stacks transposed: (C, points) in Fortran order, as sgemm takes them
        self._shifted = [self.padded[shift:shift + length].T for shift in
                         (dy * width + dx for dy in range(k) for dx in range(k))]

    def convolve(self, weights: list[np.ndarray], out: np.ndarray) -> None:
        """Adds the convolution by ``weights`` (``_taps``) to ``out``, a C-contiguous ``(points, C_out)``:
        BLAS adds each product in place (sgemm's beta), into ``out`` seen transposed, so nothing is copied."""
        into = out.T
        for shifted, w in zip(self._shifted, weights):
            _sgemm(1.0, w, shifted, 1.0, into, 0, 0, True)  # trans_a, trans_b, overwrite_c (positional: faster)


class _Means:
    """The matrix whose product with the layers' stack is each segment's mean, as CSR arrays (a
    row per segment, one entry a point, column indices sorted within each row), refilled in place
    for each position; the product is scipy's compiled one, without the sparse package's checks."""

    def __init__(self, points: int, rows: int):
        self.data = np.zeros(points, dtype=np.float32)
        self.indices = np.zeros(points, dtype=np.int32)
        self.indptr = np.arange(points + 1, dtype=np.int32)
        self.rows = 0  # the segments of the position the arrays hold
        self.columns = rows

    def __matmul__(self, h: np.ndarray) -> np.ndarray:
        """The segments' means of ``h``, ``(segments, C)`` float32 (``h``: C-contiguous rows)."""
        out = np.zeros((self.rows, h.shape[1]), dtype=np.float32)
        _csr_matvecs(self.rows, self.columns, h.shape[1], self.indptr, self.indices, self.data,
                     h.reshape(-1), out.reshape(-1))
        return out


class _Workspace:
    """One thread's buffers for one board size and net shape, with their views and the means'
    matrix, reused from call to call: making them again would cost every position (docs/benchmarks.md,
    "Small costs")."""

    def __init__(self, n: int, planes: int, channels: int, k: int):
        # rows as narrow as each window's reach allows (the 3x3 layers' products are the bulk),
        # the stem's at least as wide as the layers', whose width ``relu_into_layer`` cuts it to
        self.stem = _Padded(n, n + max(k // 2, 1), planes, k)
        self.layer = _Padded(n, n + 1, channels, 3)
        self.stem_out = np.empty((len(self.stem.points), channels), dtype=np.float32)
        self.out = np.empty_like(self.layer.points)
        # sgemm adds in place only into a float32 array it sees as Fortran-ordered; into anything
        # else it would return a copy and leave the output as it was, without a word
        assert all(a.dtype == np.float32 and a.T.flags.f_contiguous for a in (self.stem_out, self.out))
        self._board = (n, n + 1, channels)  # the layers' points as (board rows, width, C)
        self._into = self.layer.points.reshape(self._board)
        self._zero = np.zeros(self._board, dtype=np.float32)
        self._gaps = self._into[:, n:]
        i = np.arange(n * n)
        self._rows = (i + i // n).astype(np.int32)  # each point's row in the layers' stack, in board order
        self._mean = _Means(n * n, len(self.out))
        self._segment_rows = np.zeros(len(self.out), dtype=np.intp)

    def segments(self, segment: np.ndarray, n_segments: int) -> tuple[_Means, np.ndarray]:
        """The matrix of segment means (rows past ``n_segments`` empty) and every row's segment
        (0 for padding rows, which the ReLU zeroes)."""
        seg = segment.ravel()
        sizes = np.bincount(seg)
        if len(sizes) != n_segments or not sizes.all():
            raise ValueError(f"segment ids must number 0..{n_segments - 1} with no gap")
        order = seg.argsort(kind="stable")
        mean = self._mean
        (1 / sizes).astype(np.float32).take(seg[order], out=mean.data)
        self._rows.take(order, out=mean.indices)
        sizes.cumsum(out=mean.indptr[1:n_segments + 1])
        mean.indptr[n_segments + 1:] = len(seg)
        mean.rows = n_segments
        self._segment_rows[self._rows] = seg
        return mean, self._segment_rows

    def relu_into_layer(self, out: np.ndarray) -> None:
        """The layers' input ``max(out, 0)``, its padding rows kept zero; ``out``: rows of the
        layers' width, or of the stem's, one padding point wider, whose last one is dropped."""
        n, width, channels = self._board
        # against an array of zeros, not the scalar 0: numpy's fast loop (docs/benchmarks.md, "Small costs")
        np.maximum(out.reshape(n, -1, channels)[:, :width], self._zero, out=self._into)
        self._gaps[...] = 0


_threads = threading.local()


def _workspace(n: int, planes: int, refiner: Refiner) -> _Workspace:
    """This thread's workspace for the board size and net shape."""
    spaces = _threads.__dict__.setdefault("spaces", {})
    key = (n, planes, refiner.channels, refiner.stem_w.shape[-1])
    if key not in spaces:
        spaces[key] = _Workspace(*key)
    return spaces[key]


@lru_cache(maxsize=1)
def _blas() -> list:
    """The process's BLAS libraries (numpy's and scipy's, both loaded by this module's imports): a
    thread pool only slows products this small, so the refiner runs them on one thread."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController().select(user_api="blas").lib_controllers


def one_blas_thread_for_good() -> None:
    """BLAS on one thread for the rest of the process, for a server that scores in several threads
    at once: the per-call switch below is process-wide, so one thread could restore the count
    while another multiplies. Once every library is on one thread, that switch does nothing. Call
    it from the main thread: OpenBLAS ignores a count set in another one after the main thread set one."""
    for lib in _blas():
        lib.set_num_threads(1)


@contextmanager
def _one_blas_thread():
    """BLAS on one thread inside the block, for a caller in one thread (the CLI, GTP, a batch
    worker). Each library is asked and set directly: threadpoolctl's ``limit`` reads every
    library's whole description first, which costs far more than the setting (docs/benchmarks.md,
    "Small costs")."""
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
    """The forward pass on points-major stacks (a row per point, its channels along it) in this
    thread's buffers: each layer is a few large products and about ten cheap array calls."""
    net, n = refiner.prepared, planes.shape[-1]
    space = _workspace(n, planes.shape[0], refiner)
    mean, segment_rows = space.segments(segment, n_segments)
    h, out = space.layer.points, space.out
    space.stem.points.reshape(n, space.stem.width, -1)[:, :n] = planes.transpose(1, 2, 0)
    space.stem_out[...] = net.stem_b
    space.stem.convolve(net.stem, space.stem_out)
    space.relu_into_layer(space.stem_out)
    for conv, bias, pool_w, glob_w in net.layers:
        mixed = (mean @ h) @ pool_w
        mixed += bias
        if glob_w is not None:  # padding rows are zero: the sum over rows is the board's
            mixed += (h.sum(axis=0) / (n * n)) @ glob_w
        mixed.take(segment_rows, axis=0, out=out, mode="clip")  # "clip": not buffered (rows are in range)
        space.layer.convolve(conv, out)
        space.relu_into_layer(out)
    return np.tanh(h.dot(net.head_w).reshape(n, space.layer.width)[:, :n] + net.head_b)


def rotate(a: np.ndarray, turns: int, mirror: bool) -> np.ndarray:
    """``a`` (its last two axes a board) turned a quarter ``turns`` times, then mirrored left-right."""
    a = np.rot90(a, turns, axes=(-2, -1))
    return a[..., ::-1] if mirror else a


def _unrotate(a: np.ndarray, turns: int, mirror: bool) -> np.ndarray:
    """The inverse of ``rotate``."""
    return np.rot90(a[..., ::-1] if mirror else a, -turns, axes=(-2, -1))


def symmetric_ownership(refiner: Refiner, planes: np.ndarray, segment: np.ndarray, n_segments: int) -> np.ndarray:
    """``ownership`` averaged over the board's 8 symmetries, each with the colours as they are and
    swapped (that ownership negated): the net is neither symmetric nor colour-blind, this mean is.
    The 16 terms are summed sorted, so any orientation of the board, giving the same terms, gives
    the same sum to the last bit."""
    terms = np.empty((2 * len(SYMMETRIES),) + segment.shape, dtype=np.float32)
    with _one_blas_thread():
        for i, (turns, mirror) in enumerate(SYMMETRIES):
            turned, turned_segment = rotate(planes, turns, mirror), rotate(segment, turns, mirror)
            terms[2 * i] = _unrotate(_ownership(refiner, turned, turned_segment, n_segments), turns, mirror)
            swapped = _ownership(refiner, turned[SWAP_INPUTS[:len(planes)]], turned_segment, n_segments)
            terms[2 * i + 1] = _unrotate(np.negative(swapped, out=swapped), turns, mirror)
    terms.sort(axis=0)
    return (terms.sum(axis=0, dtype=np.float64) / len(terms)).astype(np.float32)


def inputs(topology: Topology, statuses: dict[int, BlockStatus]) -> np.ndarray:
    """The refiner's ``(N_INPUTS, n, n)`` input: board planes, then every block's cascade verdict."""
    benson = [b for b, st in statuses.items() if st.source == Source.BENSON]
    p = np.array([_p_alive(statuses[b.id]) for b in topology.blocks], dtype=np.float32)
    return np.concatenate([static_planes(topology, benson), status_plane(topology, p)[None]])


def _p_alive(status: BlockStatus) -> float:
    return status.p_alive if status.p_alive is not None else float(status.alive)


def calibrated(p: np.ndarray, factor: float) -> np.ndarray:
    """``p`` with its logit multiplied by ``factor`` (temperature scaling): the same side of 0.5,
    nearer 0 or 1 for a factor above 1."""
    if factor == 1.0:
        return p
    q = np.clip(p, 1e-7, 1 - 1e-7)
    return 1.0 / (1.0 + np.exp(-factor * np.log(q / (1 - q))))


def block_p_alive(topology: Topology, owner: np.ndarray) -> np.ndarray:
    """Per block: the mean predicted ownership over its stones, from its own side, mapped to [0, 1]."""
    block_of = topology.block_of.ravel()
    stone = block_of > 0
    colors = topology.grid.ravel()[stone]
    sums = np.bincount(block_of[stone] - 1, owner.ravel()[stone] * colors, minlength=len(topology.blocks))
    sizes = np.bincount(block_of[stone] - 1, minlength=len(topology.blocks))
    return 0.5 * (1.0 + sums / np.maximum(sizes, 1))


def refine(topology: Topology, statuses: dict[int, BlockStatus], refiner: Refiner, margin: float,
           finished: bool = True, part_margin: float = NEVER_PARTED,
           flag_margin: float | None = None) -> dict[int, BlockStatus]:
    """Every block's status after the refiner has read the board with the cascade's verdicts.

    Blocks that are unconditionally alive stay alive; every other block takes the refiner's
    verdict (source 'refiner'), flagged uncertain when ``|p - 0.5| < flag_margin`` (``margin``
    when None) or when the cascade had already flagged it: two readers in doubt catch more wrong
    verdicts than either alone. When one pass leaves a block within ``margin``, ``p`` is the mean
    over the 16 symmetries (``symmetric_ownership``), so a turned, mirrored or colour-swapped
    board gets the same verdicts; a block either pass puts within the flag margin is flagged.
    A block whose cascade probability and refined one lie more than ``part_margin`` apart is
    flagged too (``parted``): where the two readers part, one of them is wrong.
    """
    seg, n_segments = segments(topology)
    x = inputs(topology, statuses)
    if refiner.reads_finished:
        x = np.concatenate([x, np.full((1,) + x.shape[1:], float(finished), dtype=np.float32)])
    once = calibrated(block_p_alive(topology, ownership(refiner, x, seg, n_segments)), refiner.calibration)
    flag_margin = margin if flag_margin is None else flag_margin
    near, doubted = np.abs(once - 0.5) < margin, np.abs(once - 0.5) < flag_margin
    p = once
    if any(near[b.id] and statuses[b.id].source != Source.BENSON for b in topology.blocks):
        p = calibrated(block_p_alive(topology, symmetric_ownership(refiner, x, seg, n_segments)), refiner.calibration)
        doubted |= np.abs(p - 0.5) < flag_margin
    p, doubted = p.tolist(), doubted.tolist()
    out = {}
    for block in topology.blocks:
        st = statuses[block.id]
        if st.source == Source.BENSON:
            out[block.id] = st
        else:
            q = p[block.id]
            doubt = Doubt.MODEL if doubted[block.id] or st.uncertain else Doubt.NONE
            if not doubt and st.p_alive is not None and abs(st.p_alive - q) > part_margin:
                doubt = Doubt.PARTED
            out[block.id] = BlockStatus(block.id, block.color, block.points, q > 0.5, Source.READER, q, doubt)
    return out
