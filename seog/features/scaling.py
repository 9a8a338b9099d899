"""Min/max scaling of feature rows, fitted on training data and saved with a model.

The scaler is plain arrays (``to_dict``/``from_dict`` give lists of floats), so a model file can
carry it and the serving path applies it with numpy alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class ScalerError(ValueError):
    """Scaling data that does not match the fitted scaler, or a malformed saved scaler."""


@dataclass
class Scaler:
    """Maps each column linearly so that its training minimum goes to 0 and maximum to 1.

    A column that was constant in training maps to 0. Values outside the training range are
    not clipped (they land below 0 or above 1), so the net still sees how far out they are.
    """

    minimum: np.ndarray
    maximum: np.ndarray
    names: list[str] | None = None

    @classmethod
    def fit(cls, rows: np.ndarray, names: list[str] | None = None) -> Scaler:
        rows = np.asarray(rows, dtype=np.float64)
        if rows.ndim != 2 or len(rows) == 0:
            raise ScalerError(f"fit needs a non-empty 2-D array of rows, got shape {rows.shape}")
        if names is not None and len(names) != rows.shape[1]:
            raise ScalerError(f"{len(names)} names for {rows.shape[1]} columns")
        return cls(rows.min(axis=0), rows.max(axis=0), list(names) if names is not None else None)

    def transform(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1] != len(self.minimum):
            raise ScalerError(f"rows of {rows.shape[-1] if rows.ndim else 0} columns given to a scaler "
                              f"fitted on {len(self.minimum)}")
        span = self.maximum - self.minimum
        safe = np.where(span > 0, span, 1.0)
        return np.where(span > 0, (rows - self.minimum) / safe, 0.0)

    def to_dict(self) -> dict:
        out = {"minimum": [float(v) for v in self.minimum], "maximum": [float(v) for v in self.maximum]}
        if self.names is not None:
            out["names"] = list(self.names)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Scaler:
        try:
            lo = np.asarray(data["minimum"], dtype=np.float64)
            hi = np.asarray(data["maximum"], dtype=np.float64)
        except (KeyError, TypeError, ValueError) as err:
            raise ScalerError(f"not a saved scaler: {err}") from None
        if lo.ndim != 1 or lo.shape != hi.shape or (lo > hi).any():
            raise ScalerError("a saved scaler needs equal-length minimum <= maximum lists")
        names = data.get("names")
        if names is not None and len(names) != len(lo):
            raise ScalerError(f"{len(names)} names for {len(lo)} columns")
        return cls(lo, hi, list(names) if names is not None else None)
