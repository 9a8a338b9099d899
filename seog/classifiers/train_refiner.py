"""Train the ownership refiner (``classifiers.refiner``) with torch, and put it into a model file.

The data is one or more planes caches (``python -m seog.datasets.planes``) built with the
model's own cascade; a game that two caches hold is taken from the first. Each position carries
its side of the held-out split (``datasets.split``): the net learns from the ``train`` side,
and its figures are measured on the ``hash`` side (where choices are made) and the ``year``
side (a check), finished and unfinished games apart. Positions smaller than the 19x19 canvas
(9x9, 13x13) are repeated ``--small-weight`` times in each epoch, since they are few. Training
is mini-batch Adam with a one-cycle learning rate and gradient clipping, each batch turned by a
random board symmetry (8) and colour swap; the loss is the squared error to the teacher's
ownership, stones weighted 1 and empty points 0.3. A block's verdict is the sign of its mean
ownership, the rule the teacher's labels use.

    python -m seog.classifiers.train_refiner --planes cache/planes-more.npz cache/planes-train.npz \\
        --model seog/models/default.npz --save seog/models/default.npz
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from seog.classifiers import model_file, planes_cache
from seog.classifiers.model_file import DEFAULT_MODEL as SHIPPED_MODEL
from seog.classifiers.refiner import N_INPUTS, SWAP_INPUTS, Refiner

EMPTY_WEIGHT = 0.3


class RefinerNet(nn.Module):
    """The torch twin of ``Refiner``: same layers, same names of weights."""

    def __init__(self, channels: int = 32, layers: int = 6, stem: int = 5, global_pool: bool = False,
                 finished_plane: bool = False):
        super().__init__()
        self.stem = nn.Conv2d(N_INPUTS + finished_plane, channels, stem, padding=stem // 2)
        self.convs = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(layers))
        self.pools = nn.ModuleList(nn.Linear(channels, channels) for _ in range(layers))
        self.globs = nn.ModuleList(nn.Linear(channels, channels, bias=False) for _ in range(layers)) if global_pool else None
        self.head = nn.Conv2d(channels, 1, 1)

    def forward(self, x: torch.Tensor, seg: torch.Tensor) -> torch.Tensor:
        """Ownership ``(B, n, n)`` of planes ``(B, N_INPUTS, n, n)`` with segment ids ``(B, n, n)``."""
        batch, _, n, _ = x.shape
        flat = (seg.reshape(batch, -1) + torch.arange(batch).reshape(batch, 1) * (n * n)).reshape(-1)
        counts = torch.zeros(batch * n * n).index_add_(0, flat, torch.ones(batch * n * n)).clamp(min=1)
        board = x[:, 3:4]  # on_board: a smaller board in the corner of the canvas sees zeros beyond its edge
        area = board.sum(dim=(2, 3))  # (B, 1): the points of each board
        h = F.relu(self.stem(x)) * board
        for k, (conv, pool) in enumerate(zip(self.convs, self.pools)):
            c = h.shape[1]
            sums = torch.zeros(batch * n * n, c).index_add_(0, flat, h.permute(0, 2, 3, 1).reshape(-1, c))
            mixed = pool(sums / counts[:, None])[flat].reshape(batch, n, n, c).permute(0, 3, 1, 2)
            if self.globs is not None:
                mixed = mixed + self.globs[k](h.sum(dim=(2, 3)) / area)[:, :, None, None]
            h = F.relu(h + conv(h) + mixed) * board
        return torch.tanh(self.head(h)).squeeze(1)


def to_refiner(net: RefinerNet) -> Refiner:
    """The numpy refiner with the torch net's weights."""
    def a(t):
        return t.detach().cpu().numpy().astype(np.float32)
    return Refiner(a(net.stem.weight), a(net.stem.bias), [a(c.weight) for c in net.convs], [a(c.bias) for c in net.convs],
                   [a(p.weight) for p in net.pools], [a(p.bias) for p in net.pools],
                   a(net.head.weight).reshape(-1), float(net.head.bias.item()),
                   [a(g.weight) for g in net.globs] if net.globs is not None else [])


def augment(x, seg, y, rng: np.random.Generator):
    """One of the 8 board symmetries, and half the time the colours swapped (ownership negated)."""
    k = int(rng.integers(4))
    x, seg, y = torch.rot90(x, k, (2, 3)), torch.rot90(seg, k, (1, 2)), torch.rot90(y, k, (1, 2))
    if rng.random() < 0.5:
        x, seg, y = x.flip(3), seg.flip(2), y.flip(2)
    if rng.random() < 0.5:
        x, y = x[:, SWAP_INPUTS[:x.shape[1]].tolist()], -y
    return x.contiguous(), seg.contiguous(), y.contiguous()


def block_figures(x: np.ndarray, seg: np.ndarray, owner: np.ndarray, target: np.ndarray) -> tuple[int, int, int]:
    """(blocks, blocks whose verdict differs from the target's, 1 if any does) for one position;
    a block's verdict is the sign of its mean ownership from its own side."""
    color = (x[0] - x[1]).ravel()
    stone = color != 0
    s = seg.ravel()[stone]
    ours = np.bincount(s, owner.ravel()[stone] * color[stone])
    theirs = np.bincount(s, target.ravel()[stone] * color[stone])
    used = np.bincount(s) > 0
    wrong = int((((ours > 0) != (theirs > 0)) & used).sum())
    return int(used.sum()), wrong, int(wrong > 0)


def block_loss(owner: torch.Tensor, x: torch.Tensor, seg: torch.Tensor, y: torch.Tensor,
               sharpness: float = 4.0) -> torch.Tensor:
    """The mean over the batch's blocks of the logistic loss of each block's verdict: the block's
    mean ownership from its own side, against the sign of the teacher's (blocks the teacher
    leaves at 0 do not count). It weighs a block by its verdict, not by its points."""
    batch, _, n, _ = x.shape
    color = (x[:, 0] - x[:, 1]).reshape(-1)
    stone = color != 0
    flat = (seg.reshape(batch, -1) + torch.arange(batch).reshape(batch, 1) * (n * n)).reshape(-1)[stone]
    size = batch * n * n
    count = torch.zeros(size).index_add_(0, flat, torch.ones(len(flat)))
    ours = torch.zeros(size).index_add_(0, flat, (owner.reshape(-1) * color)[stone])
    theirs = torch.zeros(size).index_add_(0, flat, (y.reshape(-1) * color)[stone])
    used = (count > 0) & (theirs != 0)
    margin = torch.sign(theirs[used]) * ours[used] / count[used]
    return F.softplus(-sharpness * margin).mean() if len(margin) else owner.sum() * 0


def held_out(net: RefinerNet, x, seg, y, rows, cascade: bool = True) -> dict:
    """Refiner (and cascade) against the teacher on the positions ``rows``: blocks right,
    positions with every block right, and how many positions."""
    net.eval()
    totals = np.zeros((2, 3))
    with torch.no_grad():
        for i in range(0, len(rows), 128):
            j = rows[i:i + 128]
            owner = net(x[j], seg[j]).numpy()
            for k, row in enumerate(j):
                xs, ss, ys = x[row].numpy(), seg[row].numpy(), y[row].numpy()
                totals[0] += block_figures(xs, ss, owner[k], ys)
                if cascade:
                    totals[1] += block_figures(xs, ss, xs[N_INPUTS - 1] * (xs[0] - xs[1]), ys)  # the status plane as ownership
    net.train()
    out = {}
    for name, (blocks, wrong, positions) in zip(("refiner", "cascade")[:1 + cascade], totals):
        out[name] = {"blocks_right": round(1 - wrong / max(blocks, 1), 5),
                     "positions_all_right": round(1 - positions / max(len(rows), 1), 5)}
    out["positions"] = len(rows)
    return out


def subsets(split: np.ndarray, finished: np.ndarray) -> dict[str, np.ndarray]:
    """The held-out rows measured after training: each held-out side, finished and unfinished apart."""
    out = {}
    for side in ("hash", "year"):
        for name, keep in (("finished", finished), ("unfinished", ~finished)):
            rows = np.flatnonzero((split == side) & keep)
            if len(rows):
                out[f"{side}_{name}"] = rows
    return out


def train(planes: np.ndarray, segments: np.ndarray, ownership: np.ndarray, split: np.ndarray, finished: np.ndarray, *,
          channels: int = 32, layers: int = 6, global_pool: bool = False, epochs: int = 12, lr: float = 1e-3,
          batch: int = 32, seed: int = 1, threads: int = 2, small_weight: int = 1, train_positions: int | None = None,
          finished_only: bool = False, finished_plane: bool = False, block_weight: float = 0.0,
          finished_weight: int = 1, log=print) -> tuple[Refiner, dict]:
    """Train on the ``train`` side of ``split`` (its finished games alone with ``finished_only``;
    its first ``train_positions`` in a fixed shuffle when given); returns the numpy refiner and the training record, with the held-out figures
    of every epoch on the ``hash`` side and the last epoch's on every held-out subset."""
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    x = torch.tensor(planes.astype(np.float32))
    if finished_plane:  # 1 on the board of a finished position, 0 elsewhere
        x = torch.cat([x, x[:, 3:4] * torch.tensor(finished, dtype=torch.float32)[:, None, None, None]], dim=1)
    seg = torch.tensor(segments.astype(np.int64))
    y = torch.tensor(ownership.astype(np.float32) / 100)
    train_rows = np.flatnonzero((split == "train") & (finished if finished_only else True))
    if train_positions:
        train_rows = np.sort(np.random.default_rng(seed).permutation(train_rows)[:train_positions])
    test = np.flatnonzero(split == "hash")
    small = x[:, 3].sum(dim=(1, 2)).numpy() < x.shape[-1] ** 2
    n_train = len(train_rows)
    train_rows = np.concatenate([train_rows] + [train_rows[small[train_rows]]] * (small_weight - 1)
                                + [train_rows[finished[train_rows]]] * (finished_weight - 1))
    net = RefinerNet(channels, layers, global_pool=global_pool, finished_plane=finished_plane)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    steps = epochs * ((len(train_rows) + batch - 1) // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    start = time.perf_counter()
    curve = []
    for epoch in range(epochs):
        total = 0.0
        order = rng.permutation(train_rows)
        for i in range(0, len(order), batch):
            j = order[i:i + batch]
            xb, sb, yb = augment(x[j], seg[j], y[j], rng)
            weight = (1 - (1 - EMPTY_WEIGHT) * xb[:, 2]) * xb[:, 3]
            owner = net(xb, sb)
            loss = (weight * (owner - yb) ** 2).mean()
            if block_weight:
                loss = loss + block_weight * block_loss(owner, xb, sb, yb)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            schedule.step()
            total += loss.item() * len(j)
        figures = held_out(net, x, seg, y, test, cascade=epoch == 0)
        curve.append({"epoch": epoch + 1, "train_loss": round(total / len(train_rows), 6), **figures,
                      "seconds": round(time.perf_counter() - start, 1)})
        log(json.dumps(curve[-1]))
    measured = {name: held_out(net, x, seg, y, rows) for name, rows in subsets(split, finished).items()}
    log(json.dumps(measured))
    record = {"channels": channels, "layers": layers, "global_pool": global_pool, "finished_only": finished_only,
              "finished_plane": finished_plane, "block_weight": block_weight,
              "finished_weight": finished_weight,
              "epochs": epochs, "lr": lr,
              "batch": batch, "seed": seed, "small_weight": small_weight, "positions": n_train,
              "small_positions": int(small[split == "train"].sum()), "held_out_positions": len(test),
              "curve": curve, "held_out": measured, "seconds": round(time.perf_counter() - start, 1)}
    return to_refiner(net), record


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.classifiers.train_refiner", description=__doc__.splitlines()[0])
    p.add_argument("--planes", nargs="+", default=["cache/planes.npz"],
                   help="planes caches from python -m seog.datasets.planes (a game in two is taken from the first)")
    p.add_argument("--model", default=str(SHIPPED_MODEL), help="the model whose cascade built the cache")
    p.add_argument("--save", required=True, help="where to write the model with the refiner in it")
    p.add_argument("--channels", type=int, default=32)
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--global-pool", action="store_true", help="mix the channels' board means into every layer")
    p.add_argument("--train-positions", type=int, help="learn from this many training positions only (sweeps)")
    p.add_argument("--finished-only", action="store_true", help="learn from finished games alone (no resignations)")
    p.add_argument("--finished-plane", action="store_true", help="tell the net whether the game was finished")
    p.add_argument("--record", help="write the training record (curve and held-out figures) to this JSON file")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--small-weight", type=int, default=1, help="repeat boards smaller than 19x19 this often per epoch")
    p.add_argument("--finished-weight", type=int, default=1,
                   help="repeat the positions of finished games this often per epoch")
    p.add_argument("--block-weight", type=float, default=0.0,
                   help="add this times the blocks' verdict loss (block_loss) to the points' loss")
    p.add_argument("--margin", type=float, default=0.25, help="flag a verdict uncertain when |p - 0.5| < margin")
    args = p.parse_args(argv)
    try:
        data = planes_cache.load(args.planes)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    model = model_file.load(args.model)
    sha1 = model_file.cascade_sha1(model)
    for path, meta in zip(args.planes, data["metas"]):
        if meta["cascade_sha1"] != sha1:
            print(f"{path} was built with another cascade than {args.model}'s: "
                  f"rebuild it with python -m seog.datasets.planes --model {args.model}", file=sys.stderr)
            return 2
    refiner, record = train(data["planes"], data["segments"], data["ownership"], data["split"], data["finished"],
                            channels=args.channels, layers=args.layers, global_pool=args.global_pool,
                            epochs=args.epochs, lr=args.lr, seed=args.seed, threads=args.threads,
                            small_weight=args.small_weight, train_positions=args.train_positions,
                            finished_only=args.finished_only, finished_plane=args.finished_plane,
                            block_weight=args.block_weight, finished_weight=args.finished_weight)
    if args.record:
        with open(args.record, "w") as f:
            json.dump(record, f, indent=1)
    model.refiner = refiner
    model.refiner_margin = args.margin
    record.pop("curve")
    model.meta["refiner"] = dict(record, cascade_sha1=sha1, data=[m["teacher"] for m in data["metas"]])
    model_file.save(args.save, model)
    print(f"{args.save}: refiner {args.channels}x{args.layers}, held out {record['held_out']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
