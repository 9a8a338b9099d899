"""``seog train``: train cascades of block-status nets on the feature cache, as the study's trainer did.

With one method and one hidden size it trains ``--runs`` cascades and writes their learning curves
and the best model; with comma-separated lists it trains every combination and writes a comparison
table (``summary.md``) in the shape of the study's tables.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from seog.cli import need_extra

DEFAULT_CACHE = "cache/train.npz"


def register(sub) -> None:
    p = sub.add_parser("train", help="train a cascade of small nets that decide dead blocks",
                       description="Train block-status nets (sigmoid MLPs, full-batch, the RPROP family) on the "
                                   "open blocks of a feature cache. Every 10th position (or example, --split) is "
                                   "the test set; a net trains until its test error has not improved for "
                                   "--patience epochs or --epochs is reached, and keeps its best weights.")
    p.add_argument("--cache", default=DEFAULT_CACHE, help=f"feature cache (.npz; default {DEFAULT_CACHE})")
    p.add_argument("--method", default="impro",
                   help="impro (iRPROP+), rprop, sarp10, sarp15, sarp20, or a comma list to compare (default impro)")
    p.add_argument("--nets", type=int, default=1, help="nets in the cascade, 1-5 (default 1)")
    p.add_argument("--hidden", default="32",
                   help="units in the first hidden layer, or a comma list to compare (default 32)")
    p.add_argument("--layers", type=int, default=1, help="hidden layers, each half the one before (default 1)")
    p.add_argument("--features", choices=["A", "B"], default="A", help="feature set: A (33) or B (all) (default A)")
    p.add_argument("--games", type=int, help="use the first N positions of the cache (default all)")
    p.add_argument("--runs", type=int, default=1, help="cascades to build with fresh weights (default 1)")
    p.add_argument("--first-net", type=int, default=1, help="number of the first run (default 1)")
    p.add_argument("--epochs", type=int, default=5000, help="epoch limit per net (default 5000)")
    p.add_argument("--patience", type=int, default=100,
                   help="stop after this many epochs without a better test error (default 100)")
    p.add_argument("--split", choices=["position", "example"], default="position",
                   help="hold out every 10th position with its blocks, or every 10th example (default position)")
    p.add_argument("--drop-solved", action="store_true", help="skip examples solved with a tiny error last epoch")
    p.add_argument("--refresh-dropped", action="store_true", help="bring skipped examples back the next epoch")
    p.add_argument("--start-on-half", action="store_true", help="train the first epoch on half the training set")
    p.add_argument("--uncertain-margin", type=float, default=0.25,
                   help="flag a decision uncertain when |p - 0.5| is below this (default 0.25)")
    p.add_argument("--seed", type=int, default=0, help="seed of the initial weights (default 0)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads (default 1: on a busy machine more threads wait on each other)")
    p.add_argument("--out", default="runs/train", help="output folder (default runs/train)")
    p.add_argument("--model", help="also copy the best model here (e.g. seog/models/default.npz)")
    p.add_argument("--quiet", action="store_true", help="no line per run")
    p.set_defaults(run=run)


def _list(text: str, kind, what: str) -> list:
    try:
        items = [kind(t.strip()) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ValueError(f"--{what} {text!r}: give one value or a comma list") from None
    if not items:
        raise ValueError(f"--{what} is empty")
    return items


def _sha1(path) -> str:
    import hashlib

    digest = hashlib.sha1()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def run(args: argparse.Namespace) -> int:
    need_extra("training", "torch", "matplotlib")  # the nets, and the PNGs of their learning curves
    import torch

    from seog.classifiers import train
    from seog.datasets.cache import picks
    from seog.features import vector

    methods = _list(args.method, str, "method")
    hiddens = _list(args.hidden, int, "hidden")
    for name, value in (("runs", args.runs), ("epochs", args.epochs), ("patience", args.patience),
                        ("threads", args.threads), ("layers", args.layers)):
        if value < 1:
            raise ValueError(f"--{name} must be at least 1, got {value}")
    if not 1 <= args.nets <= 5:
        raise ValueError(f"--nets must be 1 to 5, got {args.nets}")
    torch.set_num_threads(args.threads)
    names = vector.SET_A if args.features == "A" else vector.SET_B
    configs = [train.TrainConfig(method=m, hidden=h, layers=args.layers, max_epochs=args.epochs,
                                 patience=args.patience, drop_solved=args.drop_solved,
                                 refresh_dropped=args.refresh_dropped,
                                 start_on_half_training_set=args.start_on_half)
               for h in hiddens for m in methods]
    cache = train.load_cache(args.cache)
    built_with = picks(cache)
    if built_with != vector.PICKS:
        print(f"seog train: note: {args.cache} picks neighbours by {built_with}, seog now by {vector.PICKS} "
              "(docs/features.md): rebuild it (python -m seog.datasets.cache) for nets that learn what they "
              "will read", file=sys.stderr)
    fingerprint = _sha1(args.cache)  # which cache (and so which feature definitions) the model learned from
    report = None if args.quiet else (lambda line: print(line, flush=True))
    out = Path(args.out)
    summaries = []
    for config in configs:
        sizes = train.layer_sizes(len(names) + (7 if args.nets > 1 else 0), config.hidden, config.layers)
        folder = out / train.topology_name(sizes) / config.method if len(configs) > 1 else out
        summaries.append(train.train_runs(
            cache, names, config, folder, runs=args.runs, first_net=args.first_net, nets=args.nets,
            games=args.games, split=args.split, seed=args.seed, uncertain_margin=args.uncertain_margin,
            meta={"feature_set": args.features, "cache": Path(args.cache).name, "cache_sha1": fingerprint,
                  "picks": built_with,
                  "command": "seog train " + " ".join(sys.argv[2:])},
            report=report))
    summary = train.write_summary(out, summaries)
    best = min(summaries, key=lambda s: s.test_rms)
    if args.model:
        Path(args.model).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(best.model_path, args.model)
    if report:
        print(summary.read_text(), end="")
        print(f"curves and models under {out}/; best model {args.model or best.model_path}")
    return 0
