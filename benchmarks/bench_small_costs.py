"""The small costs that choices in the code rest on, each timed in this process, best of rounds.

    python benchmarks/bench_small_costs.py [--rounds 5]

- the refiner's workspace for a 19x19 board (``refiner._Workspace``), which a thread makes once
  and keeps;
- ``np.maximum`` into a layer against an array of zeros and against the scalar 0
  (``_Workspace.relu_into_layer``);
- threadpoolctl's ``threadpool_limits(1)`` against setting each BLAS library directly
  (``refiner._one_blas_thread``);
- importing ``hashlib`` in a fresh interpreter (``model_file.cascade_sha1`` imports it late);
- a block-id list made from an array one item at a time against ``np.asarray`` of the array
  (``vector._ids``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import timeit

import numpy as np


def best_us(statement, number: int, rounds: int) -> float:
    """Microseconds one call of ``statement`` takes, the best of ``rounds`` rounds."""
    return min(timeit.repeat(statement, number=number, repeat=rounds)) / number * 1e6


def import_ms(module: str, rounds: int) -> float:
    """Milliseconds ``import module`` adds to a fresh interpreter's start, best of rounds."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout) for _ in range(rounds)) * 1e3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args(argv).rounds
    from threadpoolctl import threadpool_limits

    from seog.classifiers import refiner as r
    from seog.classifiers.model_file import load_default

    shipped = load_default().refiner
    key = (19, shipped.stem_w.shape[1], shipped.channels, shipped.stem_w.shape[-1])  # as refiner._workspace
    space = r._Workspace(*key)
    print(f"refiner workspace, 19x19: {best_us(lambda: r._Workspace(*key), 200, rounds):8.1f} us")
    n, width, channels = space._board
    out = np.random.default_rng(0).standard_normal((n * (width + 1), channels)).astype(np.float32)
    view = out.reshape(n, -1, channels)[:, :width]
    zeros = np.zeros_like(space._into)
    array = best_us(lambda: np.maximum(view, zeros, out=space._into), 2000, rounds)
    scalar = best_us(lambda: np.maximum(view, 0, out=space._into), 2000, rounds)
    print(f"relu, against zeros / against 0: {array:6.1f} / {scalar:6.1f} us ({scalar / array:.1f}x)")
    libs = r._blas()

    def limit():
        with threadpool_limits(limits=1, user_api="blas"):
            pass

    def direct():
        with r._one_blas_thread():
            pass

    print(f"one BLAS thread, threadpoolctl limit / direct: {best_us(limit, 200, rounds):7.1f} / "
          f"{best_us(direct, 2000, rounds):5.1f} us ({len(libs)} libraries)")
    print(f"import hashlib: {import_ms('hashlib', rounds):5.1f} ms")
    ids = np.arange(40)
    listed = best_us(lambda: np.asarray(list(ids), dtype=np.intp), 5000, rounds)
    whole = best_us(lambda: np.asarray(ids, dtype=np.intp), 5000, rounds)
    print(f"40 block ids, listed / as an array: {listed:5.1f} / {whole:5.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
