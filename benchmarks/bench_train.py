"""How long training one 33-32-1 net with iRPROP+ on every open block of the training archive takes.

Loads the feature cache (``cache/train.npz``; a synthetic set of the same size when absent), then
in one process:

1. baseline: a plain full-batch epoch over every training row with torch's built-in ``Rprop``;
2. ours: ``train.train_net`` epochs (iRPROP+, plus the test-set error and best-weight keeping);
3. a whole training run to the stopping rule (100 epochs without a better test error, or the limit).

    python benchmarks/bench_train.py [--cache cache/train.npz] [--epochs 3000] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import torch

from seog.classifiers import train
from seog.features import vector
from seog.features.scaling import Scaler


def data(cache_path: Path, hidden_names: list[str], synthetic_rows: int):
    """Scaled training and test rows of the cache's open blocks, or a synthetic stand-in."""
    if cache_path.exists():
        cache = train.load_cache(cache_path)
        tr, te = train.split_rows(cache)
        cols = train.feature_columns(cache, hidden_names)
        x = cache["X"][:, cols].astype(np.float64)
        scaler = Scaler.fit(x[tr])
        source = f"{cache_path} ({len(cache['positions'])} positions, {len(cache['X'])} blocks)"
        return scaler.transform(x[tr]), cache["y"][tr].astype(float), scaler.transform(x[te]), \
            cache["y"][te].astype(float), source
    rng = np.random.default_rng(0)
    x = np.round(rng.random((synthetic_rows, len(hidden_names))) * 8) / 8  # coarse values, like counts
    y = ((x[:, 0] + x[:, 1] * x[:, 2] + 0.2 * rng.standard_normal(len(x))) > 0.8).astype(float)
    cut = len(x) * 9 // 10
    return x[:cut], y[:cut], x[cut:], y[cut:], f"synthetic ({synthetic_rows} rows; no cache at {cache_path})"


def baseline_epoch_seconds(x, y, epochs: int) -> float:
    """Seconds per full-batch epoch with torch.optim.Rprop over all rows (no deduplication)."""
    module = train.torch_net([x.shape[1], 32, 1], seed=0)
    opt = torch.optim.Rprop(module.parameters())
    xt, yt = torch.as_tensor(x, dtype=torch.float32), torch.as_tensor(y, dtype=torch.float32)
    started = time.perf_counter()
    for _ in range(epochs):
        opt.zero_grad()
        loss = torch.sqrt(torch.mean((module(xt).squeeze(1) - yt) ** 2))
        loss.backward()
        opt.step()
    return (time.perf_counter() - started) / epochs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", default="cache/train.npz")
    p.add_argument("--epochs", type=int, default=3000, help="epoch limit of the full run")
    p.add_argument("--timing-epochs", type=int, default=20)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--synthetic-rows", type=int, default=300_000)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    x_tr, y_tr, x_te, y_te, source = data(Path(args.cache), vector.SET_A, args.synthetic_rows)
    print(f"data: {source}")
    print(f"training rows {len(x_tr)}, test rows {len(x_te)}, torch threads {args.threads}, "
          f"load average {os.getloadavg()[0]:.1f}")

    baseline_epoch_seconds(x_tr[:1000], y_tr[:1000], 2)  # warm up torch (lazy imports, thread pool)
    train.train_net(x_tr[:1000], y_tr[:1000], x_te[:100], y_te[:100], train.TrainConfig(max_epochs=2))
    base = baseline_epoch_seconds(x_tr, y_tr, args.timing_epochs)
    quick = train.TrainConfig(method="impro", hidden=32, max_epochs=args.timing_epochs, patience=10**9)
    ours = train.train_net(x_tr, y_tr, x_te, y_te, quick, seed=0).seconds / args.timing_epochs
    print(f"epoch, torch.optim.Rprop on all rows : {base * 1000:8.1f} ms")
    print(f"epoch, train_net iRPROP+ (incl. setup): {ours * 1000:8.1f} ms   ratio ours/baseline {ours / base:.2f}")

    full = train.TrainConfig(method="impro", hidden=32, max_epochs=args.epochs)
    result = train.train_net(x_tr, y_tr, x_te, y_te, full, seed=1)
    print(f"full run 33-32-1 iRPROP+: {result.epochs} epochs (best {result.best_epoch}), "
          f"{result.seconds:.0f} s = {result.seconds / 60:.1f} min, {result.seconds / result.epochs * 1000:.1f} ms/epoch, "
          f"train RMS {result.train_rms:.5f}, test RMS {result.test_rms:.5f}, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
