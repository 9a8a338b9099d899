"""A model's whole decision measured on the held-out split, pass by pass; where choices are made.

The positions are those of planes caches (``datasets.planes``) on a held-out side of
``datasets.split``; the truth is the teacher's (KataGo's) verdict on every block, the sign of its
mean ownership over the block's stones. For every position the nets read once (``status.read``),
then every pass after the nets runs, and again with each pass left out, so that a pass's worth is
the positions it puts right against those it puts wrong; and the passes the model keeps
(``product``). Flags are measured at several
margins from the same reading: a position is flagged when any block is within the margin of 0.5,
or in doubt for another reason (the cascade's margin, a race, a pass against a sure reader).

    python -m seog.datasets.heldout --model seog/models/default.npz \\
        --planes cache/planes-more.npz cache/planes-train.npz [--side hash] [--out runs/heldout.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from seog.classifiers.model_file import DEFAULT_MODEL as SHIPPED_MODEL
from seog.datasets.labels import teacher_alive

MARGINS = (0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45)
PART_MARGINS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def board_of(planes: np.ndarray) -> np.ndarray:
    """The position a canvas of planes holds: +1 Black, -1 White, 0 empty, cut to its board."""
    n = int(round(float(planes[3].sum()) ** 0.5))
    return (planes[0, :n, :n].astype(np.int8) - planes[1, :n, :n].astype(np.int8))


def labelled_positions(data: dict, rows):
    """``(row, topology, the teacher's verdict per block)`` of every position of ``rows`` in a
    planes cache's arrays (``planes_cache.load``) that holds a stone."""
    from seog.features.topology import analyze

    for row in rows:
        grid = board_of(data["planes"][row])
        n = grid.shape[0]
        topology = analyze(grid)
        if topology.blocks:
            yield row, topology, teacher_alive(topology, data["ownership"][row, :n, :n].astype(np.float32))


def finished_statuses(model, data: dict, side: str):
    """``(row, topology, the teacher's verdict per block, statuses)`` of every finished position of
    ``side`` (``side_mask``), the statuses the model's own path gives (static pass, nets, the passes
    it keeps): what a trial of a change after the passes starts from."""
    from seog.classifiers.status import apply_passes, model_passes, read

    rows = np.flatnonzero(side_mask(data, side) & data["finished"])
    for row, topology, truth in labelled_positions(data, rows):
        yield row, topology, truth, apply_passes(topology, read(topology, model, True), model_passes(model), True)


def any_wrong(topology, statuses: dict, truth: np.ndarray) -> bool:
    """Does a block of the position have a verdict other than the teacher's?"""
    return bool((np.array([statuses[b.id].alive for b in topology.blocks]) != truth).any())


@dataclass
class Tally:
    """Counts over a set of positions for one way of deciding."""

    positions: int = 0
    blocks: int = 0
    wrong_blocks: int = 0
    wrong_positions: int = 0
    wrong_stones: int = 0

    def add(self, alive: np.ndarray, truth: np.ndarray, sizes: np.ndarray) -> bool:
        wrong = alive != truth
        self.positions += 1
        self.blocks += len(truth)
        self.wrong_blocks += int(wrong.sum())
        self.wrong_stones += int(sizes[wrong].sum())
        self.wrong_positions += int(wrong.any())
        return bool(wrong.any())

    def figures(self) -> dict:
        return {"positions": self.positions, "positions_all_right": round(1 - self.wrong_positions / max(self.positions, 1), 5),
                "wrong_positions": self.wrong_positions, "blocks_right": round(1 - self.wrong_blocks / max(self.blocks, 1), 6),
                "wrong_stones": self.wrong_stones}


@dataclass
class Subset:
    """Every way of deciding measured on one subset, and each pass's positions fixed and broken."""

    ways: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    broken: dict = field(default_factory=dict)
    doubt: list = field(default_factory=list)  # (closest |p - 0.5|, other doubt, shipped flag, wrong, parted, part) per position
    calibration: list = field(default_factory=list)  # (p_alive, teacher's alive) per block the nets read
    subsets: dict = field(default_factory=dict)  # passes kept (a tuple) -> (positions wrong, stones wrong)

    def tally(self, way: str) -> Tally:
        return self.ways.setdefault(way, Tally())


def measure(model, planes, ownership, rows, finished, log=None) -> dict:
    """The decision of ``model`` on the positions ``rows`` of the arrays, finished and unfinished apart."""
    from seog.classifiers.status import (
        EYE_SHAPE_PASSES,
        apply_passes,
        cascade_statuses,
        later_passes,
        model_passes,
        read,
    )
    from seog.classifiers.vocabulary import Doubt, Source
    from seog.features.topology import analyze

    names = [name for name, _ in later_passes()]
    subsets = {"finished": Subset(), "unfinished": Subset()}
    start = time.perf_counter()
    for i, row in enumerate(rows):
        grid = board_of(planes[row])
        n = grid.shape[0]
        topology = analyze(grid)
        if not topology.blocks:
            continue
        truth = teacher_alive(topology, ownership[row, :n, :n].astype(np.float32))
        sizes = np.array([len(b.points) for b in topology.blocks])
        done = bool(finished[row])
        sub = subsets["finished" if done else "unfinished"]
        reading = read(topology, model, done)

        def alive_of(statuses):
            return np.array([statuses[b.id].alive for b in topology.blocks])

        sub.tally("nets").add(alive_of(apply_passes(topology, reading, ())), truth, sizes)
        every = apply_passes(topology, reading, None, done)
        every_wrong = sub.tally("every pass").add(alive_of(every), truth, sizes)
        product = apply_passes(topology, reading, model_passes(model), done)
        sub.tally("product").add(alive_of(product), truth, sizes)
        product_wrong = bool((alive_of(product) != truth).any())
        if not done:  # the eye-shape passes on an unfinished board, as a measure
            sub.tally("every pass, on unfinished boards too").add(
                alive_of(apply_passes(topology, reading, None, True)), truth, sizes)
        for name in names:
            if not done and name in EYE_SHAPE_PASSES:
                continue
            without = apply_passes(topology, reading, [m for m in names if m != name], done)
            wrong_without = sub.tally(f"without {name}").add(alive_of(without), truth, sizes)
            sub.fixed[name] = sub.fixed.get(name, 0) + int(wrong_without and not every_wrong)
            sub.broken[name] = sub.broken.get(name, 0) + int(every_wrong and not wrong_without)
        for keep in pass_subsets(names):
            wrong = alive_of(apply_passes(topology, reading, keep, done)) != truth
            positions, stones = sub.subsets.get(keep, (0, 0))
            sub.subsets[keep] = (positions + int(wrong.any()), stones + int(sizes[wrong].sum()))
        ps = [abs(st.p_alive - 0.5) for st in reading.values() if st.p_alive is not None and st.source != Source.BENSON]
        sub.calibration.extend((st.p_alive, bool(truth[b])) for b, st in reading.items()
                               if st.p_alive is not None and st.source != Source.BENSON)
        other = any(st.doubt in (Doubt.RACE, Doubt.RULE, Doubt.UNREAD) for st in product.values()) or any(
            st.doubt == Doubt.MODEL and abs(st.p_alive - 0.5) >= 0.5 for st in product.values() if st.p_alive is not None)
        shipped_doubt = any(st.uncertain for st in product.values())
        cascade = cascade_statuses(topology, model)
        split = [len(b.points) for b in topology.blocks if cascade[b.id].alive != product[b.id].alive]
        part = [abs(cascade[b].p_alive - st.p_alive) for b, st in reading.items()
                if st.p_alive is not None and cascade[b].p_alive is not None and st.source != Source.BENSON]
        sub.doubt.append((min(ps) if ps else 0.5, bool(other), shipped_doubt, product_wrong, max(split, default=0),
                          max(part, default=0.0)))
        if log and (i + 1) % 500 == 0:
            log(f"  {i + 1} of {len(rows)} positions, {time.perf_counter() - start:.0f} s")
    out = {name: report(sub) for name, sub in subsets.items() if sub.ways}
    out["pass_subsets"] = best_subsets(subsets.values())
    return out


def pass_subsets(names: list[str]) -> list[tuple[str, ...]]:
    """Every subset of the passes, in their order, from none to all."""
    return [tuple(n for k, n in enumerate(names) if mask >> k & 1) for mask in range(1 << len(names))]


def best_subsets(subs) -> list[dict]:
    """Every subset of passes with its wrong positions and stones over all the subsets of positions
    measured, best first: fewest wrong positions, then fewest passes, then fewest wrong stones.
    The first is the choice of the passes a model keeps."""
    totals: dict = {}
    for sub in subs:
        for keep, (positions, stones) in sub.subsets.items():
            before = totals.get(keep, (0, 0))
            totals[keep] = (before[0] + positions, before[1] + stones)
    ranked = sorted(totals.items(), key=lambda kv: (kv[1][0], len(kv[0]), kv[1][1]))
    return [{"passes": list(keep), "wrong_positions": wrong, "wrong_stones": stones}
            for keep, (wrong, stones) in ranked]


def report(sub: Subset) -> dict:
    """A subset's figures: every way of deciding, each pass's positions fixed and broken, flags."""
    doubt = np.array(sub.doubt, dtype=float).reshape(-1, 6)
    wrong = doubt[:, 3] > 0
    flags = {}
    for margin in MARGINS:
        for stones in (None, 1, 3, 6):  # also flag a position where the cascade and the product part on a block this big
            flagged = (doubt[:, 0] < margin) | (doubt[:, 1] > 0)
            if stones is not None:
                flagged |= doubt[:, 4] >= stones
            name = str(margin) if stones is None else f"{margin}, parted on {stones}+ stones"
            flags[name] = {"flagged": round(float(flagged.mean()), 4),
                           "wrong_flagged": round(float((flagged & wrong).sum() / max(wrong.sum(), 1)), 4)}
    flagged = doubt[:, 2] > 0 if len(doubt) else np.zeros(0, bool)
    flags["as shipped"] = {"flagged": round(float(flagged.mean()), 4) if len(doubt) else 0.0,
                           "wrong_flagged": round(float((flagged & wrong).sum() / max(wrong.sum(), 1)), 4)}
    for part in PART_MARGINS:  # as shipped, or the cascade's p_alive and the reader's this far apart
        parted = flagged | (doubt[:, 5] > part) if len(doubt) else flagged
        flags[f"as shipped, or the readers part by more than {part}"] = {
            "flagged": round(float(parted.mean()), 4) if len(doubt) else 0.0,
            "wrong_flagged": round(float((parted & wrong).sum() / max(wrong.sum(), 1)), 4)}
    return {"ways": {way: t.figures() for way, t in sub.ways.items()},
            "passes": {name: {"fixed": sub.fixed[name], "broken": sub.broken[name]} for name in sub.fixed},
            "flags": flags, "calibration": calibration(sub.calibration)}


CALIBRATION_BINS = (0.0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0)


def fit_calibration(pairs: list) -> float:
    """The factor on the logit of p_alive that minimises the log loss against the teacher on
    these (p, alive) pairs (``refiner.calibrated``), searched from 0.5 to 8."""
    from seog.classifiers.refiner import calibrated

    p, alive = (np.array(c, dtype=float) for c in zip(*pairs))
    factors = np.round(np.arange(0.5, 8.0001, 0.05), 2)
    losses = []
    for factor in factors:
        q = np.clip(calibrated(p, float(factor)), 1e-7, 1 - 1e-7)
        losses.append(-np.mean(alive * np.log(q) + (1 - alive) * np.log(1 - q)))
    return float(factors[int(np.argmin(losses))])


def calibration(pairs: list) -> dict:
    """Brier score of the nets' p_alive against the teacher, and per bin of p: blocks, mean p,
    and the share the teacher calls alive (a calibrated p has the two alike)."""
    if not pairs:
        return {}
    p, alive = (np.array(c, dtype=float) for c in zip(*pairs))
    bins = np.clip(np.searchsorted(CALIBRATION_BINS, p, side="right") - 1, 0, len(CALIBRATION_BINS) - 2)
    table = {}
    for k in range(len(CALIBRATION_BINS) - 1):
        inside = bins == k
        if inside.any():
            table[f"{CALIBRATION_BINS[k]}-{CALIBRATION_BINS[k + 1]}"] = {
                "blocks": int(inside.sum()), "mean_p": round(float(p[inside].mean()), 4),
                "alive": round(float(alive[inside].mean()), 4)}
    return {"brier": round(float(((p - alive) ** 2).mean()), 6), "bins": table,
            "best_factor": fit_calibration(pairs)}


def add_side_arguments(p: argparse.ArgumentParser) -> None:
    """The options every measure of a held-out side takes: ``--model``, ``--planes``, ``--side``."""
    p.add_argument("--model", default=str(SHIPPED_MODEL))
    p.add_argument("--planes", nargs="+", required=True, help="planes caches (a game in two is taken from the first)")
    p.add_argument("--side", choices=["hash", "year", "all"], default="hash",
                   help="which held-out side (default: hash); 'all' takes every position of the caches, "
                        "for a cache of games no model trained on (the small-board side)")


def side_parser(description: str) -> argparse.ArgumentParser:
    """A parser with the options of ``add_side_arguments``, for a trial's command line."""
    p = argparse.ArgumentParser(description=description)
    add_side_arguments(p)
    return p


def side_mask(data: dict, side: str) -> np.ndarray:
    """Which rows of a planes cache's arrays lie on ``side`` ('all': every row)."""
    return np.ones(len(data["split"]), dtype=bool) if side == "all" else data["split"] == side


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.datasets.heldout", description=__doc__.splitlines()[0])
    add_side_arguments(p)
    p.add_argument("--limit", type=int, help="measure only the first N positions of the side")
    p.add_argument("--out", help="write the figures to this JSON file")
    args = p.parse_args(argv)
    from seog.classifiers import model_file

    model = model_file.load(args.model)
    from seog.classifiers import planes_cache

    try:
        data = planes_cache.load(args.planes)
    except (OSError, ValueError) as exc:
        print(f"error: not a planes cache with a held-out split: {exc}; build it with "
              "python -m seog.datasets.planes", file=sys.stderr)
        return 2
    rows = np.flatnonzero(side_mask(data, args.side))[: args.limit]
    print(f"{args.model}: {len(rows)} positions of the {args.side} side", file=sys.stderr)
    figures = {"model": args.model, "side": args.side,
               **measure(model, data["planes"], data["ownership"], rows, data["finished"],
                         log=lambda m: print(m, file=sys.stderr))}
    write_figures(figures, args.out)
    return 0


def held_out_arguments(p, planes_help: str = "planes caches holding the teacher's ownership",
                       planes_required: bool = True) -> None:
    """The arguments of a measure on a held-out side of the training archives: the archives, the
    side, the model and the planes caches that hold the teacher's read."""
    p.add_argument("archives", nargs="+", help="the training archives (a game two hold is read from the first)")
    p.add_argument("--side", choices=["hash", "year"], default="hash")
    p.add_argument("--model", default=str(SHIPPED_MODEL))
    p.add_argument("--planes", nargs="+", required=planes_required, help=planes_help)


def milliseconds(seconds: list[float], share: float, digits: int = 2) -> float | None:
    """The ``share`` quantile of ``seconds`` (sorted here), in milliseconds; None for none."""
    if not seconds:
        return None
    ordered = sorted(seconds)
    return round(1000 * ordered[min(int(len(ordered) * share), len(ordered) - 1)], digits)


def write_figures(figures: dict, out: str | None) -> None:
    """Print the figures as JSON, and write them to ``out`` when given."""
    text = json.dumps(figures, indent=1)
    if out:
        with open(out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
