"""Multilayer perceptrons of sigmoid units, run with numpy alone.

A net maps a block's scaled feature vector to one number: 1 for alive, 0 for dead. Its layers
are ``inputs-H-1`` or, with more hidden layers, ``inputs-H-H/2-...-1`` (each hidden layer half
the size of the one before, as in the study's 33-16-8-4-1). Weights are stored as in a torch
``Linear`` layer (``(out, in)`` matrices) so that trained nets carry over unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def layer_sizes(n_inputs: int, hidden: int, layers: int = 1) -> list[int]:
    """Unit counts from inputs to the output: ``[n_inputs, hidden, hidden/2, ..., 1]``."""
    if n_inputs < 1:
        raise ValueError(f"a net needs at least one input, got {n_inputs}")
    if hidden < 1 or layers < 0:
        raise ValueError(f"hidden units must be >= 1 and hidden layers >= 0, got {hidden} and {layers}")
    sizes = [n_inputs]
    units = hidden
    for _ in range(layers):
        sizes.append(max(1, units))
        units //= 2
    return sizes + [1]


def topology_name(sizes: list[int]) -> str:
    """The study's name for a net, e.g. ``33-32-1``."""
    return "-".join(str(s) for s in sizes)


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow warnings for large negative inputs."""
    return 0.5 * (1.0 + np.tanh(0.5 * z))


@dataclass(eq=False)
class Net:
    """One trained net: ``weights[l]`` is the ``(out, in)`` matrix of layer ``l``, ``biases[l]`` its bias."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]

    def __post_init__(self):
        if len(self.weights) != len(self.biases) or not self.weights:
            raise ValueError("a net needs one bias vector per weight matrix, and at least one layer")
        for w, b, nxt in zip(self.weights, self.biases, self.weights[1:] + [None]):
            if w.ndim != 2 or b.shape != (w.shape[0],):
                raise ValueError(f"layer shapes do not fit: weights {w.shape}, bias {b.shape}")
            if nxt is not None and nxt.shape[1] != w.shape[0]:
                raise ValueError(f"layer of {w.shape[0]} units feeds a layer expecting {nxt.shape[1]} inputs")
        if self.weights[-1].shape[0] != 1:
            raise ValueError("a net has exactly one output unit")

    @property
    def sizes(self) -> list[int]:
        return [self.weights[0].shape[1]] + [w.shape[0] for w in self.weights]

    @property
    def n_inputs(self) -> int:
        return self.weights[0].shape[1]

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The output for each row of ``x`` (shape ``(n, n_inputs)``): probabilities of alive, shape ``(n,)``."""
        a = np.asarray(x, dtype=np.float64)
        if a.ndim != 2 or a.shape[1] != self.n_inputs:
            raise ValueError(f"the net takes {self.n_inputs} inputs per row, got an array of shape {a.shape}")
        for w, b in zip(self.weights, self.biases):
            a = sigmoid(a @ w.T + b)
        return a[:, 0]
