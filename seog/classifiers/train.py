"""Training the cascade from the feature cache, as the study did (torch; only ``seog train`` imports this).

The cache holds a row for every block of every position: static features ``X`` (named by
``feature_names``), the teacher's label ``y`` (1 alive, 0 dead), the static pass's verdict
``static`` (-1 open, 0 dead, 1 alive), the ``position`` of each row and the ``related`` rows of
each of its seven slots. Nets learn the open rows only.

One net is trained full-batch with one of the study's methods (``rprop.METHODS``): each epoch
computes the RMS error over the training rows and over the test rows, then updates every weight
once. Training stops when the test error has not improved for ``patience`` epochs or at the epoch
limit, and keeps the weights with the lowest test error. A cascade trains its nets one after the
other, each to the end; the earlier nets' outputs are computed once and fed to the next as slot
means (``cascade.dynamic_inputs``).
"""

from __future__ import annotations

import copy
import csv
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

from seog.classifiers import model_file
from seog.classifiers.cascade import N_SLOTS, dynamic_inputs
from seog.classifiers.mlp import Net, layer_sizes, topology_name
from seog.classifiers.rprop import METHODS, make_optimizer
from seog.classifiers.settings import DEFAULT
from seog.features.scaling import Scaler

CACHE_KEYS = ("X", "feature_names", "y", "static", "position", "related")
TEST_EVERY = 10  # every 10th example (or position) is the test set


class CacheError(ValueError):
    """A feature cache that lacks what training needs."""


@dataclass
class TrainConfig:
    """How to train one net; the defaults are the study's."""

    method: str = "impro"
    hidden: int = 32
    layers: int = 1
    max_epochs: int = 5000
    patience: int = 100  # stop when the test error has not improved for this many epochs
    drop_solved: bool = False  # skip training rows whose error was below solved_error last epoch
    refresh_dropped: bool = False  # bring skipped rows back the epoch after
    start_on_half_training_set: bool = False  # first epoch on every other training row
    solved_error: float = 0.05
    eta_plus: float = 1.2
    eta_minus: float = 0.5
    step_init: float = 0.1
    step_min: float = 1e-6
    step_max: float = 50.0

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"unknown training method {self.method!r}; choose from {', '.join(METHODS)}")
        if self.max_epochs < 1 or self.patience < 1:
            raise ValueError("the epoch limit and the patience must be at least 1")


@dataclass
class NetResult:
    """One trained net and how it got there: ``curve`` rows are (epoch, train RMS, test RMS)."""

    net: Net
    curve: np.ndarray
    best_epoch: int
    epochs: int
    train_rms: float
    test_rms: float
    seconds: float
    test_accuracy: float = math.nan  # share of test blocks on the right side of 0.5


@dataclass
class CascadeResult:
    """A trained cascade (a ``model_file.Model``) and the result of each of its nets."""

    model: model_file.Model
    nets: list[NetResult] = field(default_factory=list)


# ---------------------------------------------------------------- the cache


def load_cache(path) -> dict[str, np.ndarray]:
    """The arrays of a feature cache file, checked for the entries training reads."""
    path = Path(path)
    cache = model_file.read_arrays(path, "feature cache", CacheError)
    missing = [k for k in CACHE_KEYS if k not in cache]
    if missing:
        raise CacheError(f"{path} lacks {', '.join(missing)}: not a feature cache")
    n = len(cache["X"])
    for key in ("y", "static", "position", "related"):
        if len(cache[key]) != n:
            raise CacheError(f"{path}: '{key}' has {len(cache[key])} rows, 'X' has {n}")
    if cache["related"].ndim != 3 or cache["related"].shape[1] != N_SLOTS:
        raise CacheError(f"{path}: 'related' must have shape (rows, {N_SLOTS}, K), got {cache['related'].shape}")
    return cache


def feature_columns(cache, names) -> np.ndarray:
    """Column indices of ``names`` in the cache's ``X``."""
    index = {str(n): i for i, n in enumerate(cache["feature_names"])}
    missing = [n for n in names if n not in index]
    if missing:
        raise CacheError(f"the cache has no feature(s) {', '.join(missing)}")
    return np.array([index[n] for n in names], dtype=np.int64)


def split_rows(cache, games: int | None = None, split: str = "position") -> tuple[np.ndarray, np.ndarray]:
    """Training and test rows among the open rows of the first ``games`` positions.

    ``split='position'`` holds out every 10th position with all its blocks (neighbouring blocks of
    one position never straddle the split); ``split='example'`` holds out every 10th open row.
    """
    position = cache["position"]
    open_rows = np.flatnonzero((cache["static"] < 0) & ((position < games) if games else True))
    if split == "position":
        test = position[open_rows] % TEST_EVERY == TEST_EVERY - 1
    elif split == "example":
        test = np.arange(len(open_rows)) % TEST_EVERY == TEST_EVERY - 1
    else:
        raise ValueError(f"unknown split {split!r}; use 'position' or 'example'")
    train, held = open_rows[~test], open_rows[test]
    if len(train) == 0 or len(held) == 0:
        raise CacheError(f"{len(open_rows)} open blocks in the chosen games: too few to train and test on")
    return train, held


# ---------------------------------------------------------------- one net


def torch_net(sizes: list[int], seed: int | None = None, dtype=torch.float32) -> torch.nn.Sequential:
    """A fresh sigmoid MLP with the given unit counts (torch's default uniform initialisation)."""
    if seed is not None:
        torch.manual_seed(seed)
    layers = []
    for n_in, n_out in zip(sizes, sizes[1:]):
        layers += [torch.nn.Linear(n_in, n_out, dtype=dtype), torch.nn.Sigmoid()]
    return torch.nn.Sequential(*layers)


def to_numpy_net(module: torch.nn.Sequential) -> Net:
    """The numpy ``Net`` with the module's weights."""
    linears = [m for m in module if isinstance(m, torch.nn.Linear)]
    return Net([m.weight.detach().double().numpy().copy() for m in linears],
               [m.bias.detach().double().numpy().copy() for m in linears])


def _rms(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.sqrt(torch.mean((out - y) ** 2))


def train_net(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, y_test: np.ndarray,
              config: TrainConfig, seed: int = 0, progress=None) -> NetResult:
    """Train one net of ``config``'s topology on scaled inputs; the best weights by test error.

    ``progress(epoch, train_rms, test_rms)`` is called after every epoch when given.
    """
    started = time.perf_counter()
    sizes = layer_sizes(x_train.shape[1], config.hidden, config.layers)
    module = torch_net(sizes, seed)
    xt, yt = torch.as_tensor(x_train, dtype=torch.float32), torch.as_tensor(y_train, dtype=torch.float32)
    xv, yv = torch.as_tensor(x_test, dtype=torch.float32), torch.as_tensor(y_test, dtype=torch.float32)
    opt = make_optimizer(config.method, module.parameters(), seed=seed, eta_plus=config.eta_plus,
                         eta_minus=config.eta_minus, step_init=config.step_init,
                         step_min=config.step_min, step_max=config.step_max)
    n = len(xt)
    subsets = config.drop_solved or config.start_on_half_training_set
    active = torch.ones(n, dtype=torch.bool)
    if config.start_on_half_training_set:
        active[1::2] = False
    last_sq = torch.zeros(n)  # each row's latest squared error (skipped rows keep theirs)
    curve, best, best_epoch, best_state = [], math.inf, 0, None
    epoch = 0
    for epoch in range(1, config.max_epochs + 1):
        opt.zero_grad()
        if subsets:
            idx = torch.nonzero(active).squeeze(1)
            out = module(xt[idx]).squeeze(1)
            sq = (out - yt[idx]) ** 2
            torch.sqrt(sq.mean()).backward()
            with torch.no_grad():
                last_sq[idx] = sq.detach()
                error = math.sqrt(float(last_sq.mean()))
                active = _next_active(active, idx, sq.detach(), config, epoch == 1)
        else:
            loss = _rms(module(xt).squeeze(1), yt)
            loss.backward()
            error = float(loss.detach())
        with torch.no_grad():
            test_error = float(_rms(module(xv).squeeze(1), yv))
        curve.append((epoch, error, test_error))
        if progress is not None:
            progress(epoch, error, test_error)
        if test_error < best:
            best, best_epoch, best_state = test_error, epoch, copy.deepcopy(module.state_dict())
        elif epoch - best_epoch >= config.patience:
            break
        opt.step(error=error)
    module.load_state_dict(best_state)
    with torch.no_grad():
        accuracy = float(((module(xv).squeeze(1) >= 0.5) == (yv >= 0.5)).float().mean())
    curve = np.array(curve, dtype=np.float64)
    return NetResult(to_numpy_net(module), curve, best_epoch, epoch, float(curve[best_epoch - 1, 1]),
                     best, time.perf_counter() - started, accuracy)


def _next_active(active: torch.Tensor, idx: torch.Tensor, sq: torch.Tensor, config: TrainConfig,
                 first: bool) -> torch.Tensor:
    """Rows to train on next epoch: rows solved this epoch sit out; rows sitting out come back when
    ``refresh_dropped`` is set, and the half held back by ``start_on_half_training_set`` after epoch 1."""
    solved = torch.zeros_like(active)
    if config.drop_solved:
        solved[idx] = sq < config.solved_error ** 2
    nxt = ~solved if (config.refresh_dropped or first) else active & ~solved
    return nxt if bool(nxt.any()) else torch.ones_like(active)


# ---------------------------------------------------------------- a cascade


def train_cascade(cache, names: list[str], config: TrainConfig, nets: int = 1, games: int | None = None,
                  split: str = "position", seed: int = 0, uncertain_margin: float = DEFAULT.cascade_margin,
                  progress=None, meta: dict | None = None,
                  rows: tuple[np.ndarray, np.ndarray] | None = None) -> CascadeResult:
    """Train a cascade of ``nets`` nets on the open rows of the cache's first ``games`` positions
    (``split_rows``), or on the (training, test) ``rows`` given.

    ``progress(net, epoch, train_rms, test_rms)`` is called after every epoch when given.
    """
    if not 1 <= nets <= 5:
        raise ValueError(f"a cascade has 1 to 5 nets, got {nets}")
    cols = feature_columns(cache, names)
    train, test = split_rows(cache, games, split) if rows is None else rows
    rows = np.concatenate([train, test])
    x_static = cache["X"][rows][:, cols].astype(np.float64)
    scaler = Scaler.fit(x_static[: len(train)], list(names))
    x_scaled = scaler.transform(x_static)
    y = cache["y"][rows].astype(np.float64)
    p = np.where(cache["static"] > 0, 1.0, 0.0)  # settled rows: their static status
    related = cache["related"][rows] if nets > 1 else None
    results, trained = [], []
    for k in range(nets):
        x = x_scaled if k == 0 else np.hstack([x_scaled, dynamic_inputs(p, related)])
        report = (lambda e, tr, te, k=k: progress(k + 1, e, tr, te)) if progress else None
        result = train_net(x[: len(train)], y[: len(train)], x[len(train):], y[len(train):], config,
                           seed=seed * 10 + k, progress=report)
        results.append(result)
        trained.append(result.net)
        p[rows] = result.net.predict(x)  # computed once, the next net's dynamic inputs
    per_net = [dict(topology=topology_name(r.net.sizes), epochs=r.epochs, best_epoch=r.best_epoch,
                    train_rms=r.train_rms, test_rms=r.test_rms, test_accuracy=r.test_accuracy,
                    seconds=round(r.seconds, 2)) for r in results]
    info = dict(meta or {}, created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                description=f"cascade of {nets} MLP(s) trained with {config.method} on {len(train)} open blocks",
                training=dict(asdict(config), games=games, split=split, seed=seed, train_rows=len(train),
                              test_rows=len(test), nets=per_net))
    model = model_file.Model(trained, list(names), scaler, uncertain_margin, info)
    return CascadeResult(model, results)


# ---------------------------------------------------------------- learning curves


def write_curve_csv(path, results: list[NetResult]) -> Path:
    """One run's learning curves: a row per net and epoch."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["net", "epoch", "train_rms", "test_rms"])
        for k, r in enumerate(results, 1):
            for epoch, tr, te in r.curve:
                w.writerow([k, int(epoch), f"{tr:.6f}", f"{te:.6f}"])
    return path


def write_merged_csv(path, curves: dict[str, np.ndarray]) -> Path:
    """Several runs side by side, one row per epoch (blank where a run had stopped), as a spreadsheet takes them."""
    path = Path(path)
    length = max(len(c) for c in curves.values())
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["epoch"] + [f"{name}_{kind}" for name in curves for kind in ("train", "test")])
        for i in range(length):
            row = [i + 1]
            for c in curves.values():
                row += [f"{c[i, 1]:.6f}", f"{c[i, 2]:.6f}"] if i < len(c) else ["", ""]
            w.writerow(row)
    return path


def mean_curve(curves: list[np.ndarray]) -> np.ndarray:
    """Mean (epoch, train, test) over runs, each run held at its last value after it stopped."""
    length = max(len(c) for c in curves)
    padded = np.stack([np.vstack([c, np.repeat(c[-1:], length - len(c), axis=0)]) for c in curves])
    out = padded.mean(axis=0)
    out[:, 0] = np.arange(1, length + 1)
    return out


def plot_curves(path, curves: dict[str, np.ndarray], title: str) -> Path:
    """A PNG of test (solid) and train (dashed) RMS error against the epoch, one colour per curve."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=90)
    for i, (name, c) in enumerate(curves.items()):
        colour = f"C{i % 10}"
        ax.plot(c[:, 0], c[:, 2], color=colour, lw=1.2, label=name)
        ax.plot(c[:, 0], c[:, 1], color=colour, lw=0.8, ls="--")
    both = np.concatenate([c[:, 1:].ravel() for c in curves.values()])
    lo, hi = float(np.min(both)), float(np.percentile(np.concatenate([c[:, 2] for c in curves.values()]), 95))
    ax.set_ylim(lo - 0.1 * (hi - lo) - 1e-3, hi + 0.1 * (hi - lo) + 1e-3)
    ax.set_xlabel("epoch")
    ax.set_ylabel("RMS error (test solid, train dashed)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2 if len(curves) > 6 else 1)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return Path(path)


# ---------------------------------------------------------------- runs and comparisons


@dataclass
class RunSummary:
    """Mean outcome of several fresh-weight runs of one method on one topology (last net of each cascade)."""

    topology: str
    method: str
    runs: int
    train_rms: float
    test_rms: float
    min_test_rms: float
    test_accuracy: float
    epochs: float
    best_epoch: float
    seconds: float
    model_path: str
    curve: np.ndarray | None = field(default=None, repr=False)  # mean learning curve over the runs

    @staticmethod
    def columns() -> list[str]:
        return [f for f in RunSummary.__dataclass_fields__ if f != "curve"]


def train_runs(cache, names: list[str], config: TrainConfig, out_dir, runs: int = 1, first_net: int = 1,
               nets: int = 1, games: int | None = None, split: str = "position", seed: int = 0,
               uncertain_margin: float = DEFAULT.cascade_margin, meta: dict | None = None,
               report=print) -> RunSummary:
    """Train ``runs`` cascades with fresh weights (run numbers from ``first_net``) and write under ``out_dir``:
    ``run-NNN.csv`` per run, ``curves.csv`` merged across runs, ``curves.png`` and ``model.npz`` (the run
    with the lowest test error). Run ``n`` starts from the weights seeded by (``seed``, ``n``), so every
    method starts from the same nets."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results, best = {}, None
    for n in range(first_net, first_net + runs):
        result = train_cascade(cache, names, config, nets=nets, games=games, split=split,
                               seed=seed * 100_000 + n, uncertain_margin=uncertain_margin,
                               meta=dict(meta or {}, run=n))
        write_curve_csv(out_dir / f"run-{n:03d}.csv", result.nets)
        results[n] = result
        last = result.nets[-1]
        if best is None or last.test_rms < best.nets[-1].test_rms:
            best = result
        if report:
            report(f"{topology_name(last.net.sizes)} {config.method} run {n}: {last.epochs} epochs "
                   f"(best {last.best_epoch}), train {last.train_rms:.5f}, test {last.test_rms:.5f} "
                   f"({100 * last.test_accuracy:.2f}% right), "
                   f"{sum(r.seconds for r in result.nets):.1f} s")
    curves = {f"run{n}" + (f"_net{k}" if nets > 1 else ""): r.curve
              for n, res in results.items() for k, r in enumerate(res.nets, 1)}
    write_merged_csv(out_dir / "curves.csv", curves)
    lasts = [res.nets[-1] for res in results.values()]
    topo = topology_name(lasts[0].net.sizes)
    shown = {f"run {n}": res.nets[-1].curve for n, res in results.items()}
    if len(shown) > 1:
        shown["mean"] = mean_curve(list(shown.values()))
    plot_curves(out_dir / "curves.png", shown, f"{topo} {config.method}: net {nets} of the cascade")
    model_path = model_file.save(out_dir / "model.npz", best.model)
    return RunSummary(topo, config.method, len(lasts), float(np.mean([r.train_rms for r in lasts])),
                      float(np.mean([r.test_rms for r in lasts])), float(np.min([r.test_rms for r in lasts])),
                      float(np.mean([r.test_accuracy for r in lasts])),
                      float(np.mean([r.epochs for r in lasts])), float(np.mean([r.best_epoch for r in lasts])),
                      float(np.mean([sum(x.seconds for x in res.nets) for res in results.values()])),
                      str(model_path), mean_curve([r.curve for r in lasts]))


def write_summary(out_dir, summaries: list[RunSummary]) -> Path:
    """``summary.csv``, ``summary.md`` (one table per topology, as the study's tables) and one
    ``compare-<topology>.png`` per topology with each method's mean learning curve."""
    out_dir = Path(out_dir)
    with open(out_dir / "summary.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(RunSummary.columns())
        for s in summaries:
            w.writerow([getattr(s, f) for f in RunSummary.columns()])
    lines = []
    for topo in dict.fromkeys(s.topology for s in summaries):
        rows = [s for s in summaries if s.topology == topo]
        lines += [f"### {topo} ({rows[0].runs} runs each)", "",
                  ("| method | mean train RMS | mean test RMS | min test RMS | mean test blocks right | mean epochs "
                   "| mean best epoch | mean s/run |"),
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {s.method} | {s.train_rms:.5f} | {s.test_rms:.5f} | {s.min_test_rms:.5f} "
                  f"| {100 * s.test_accuracy:.2f}% | {s.epochs:.0f} "
                  f"| {s.best_epoch:.0f} | {s.seconds:.1f} |" for s in rows]
        lines.append("")
        plot_curves(out_dir / f"compare-{topo}.png", {s.method: s.curve for s in rows},
                    f"{topo}: mean over {rows[0].runs} runs per method")
    path = out_dir / "summary.md"
    path.write_text("\n".join(lines))
    return path
