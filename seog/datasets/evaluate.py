"""How well a scorer's dead stones match the truth of a labelled set, and whether its count
prints the recorded result.

Per position: blocks and stones judged wrong, whether every block is right, whether the
result string equals RE (positions with a counted RE only), whether the truth itself
reproduces RE (the ceiling), the time taken, and whether seog flagged the position uncertain.
A scorer is seog (static pass + model) or a GTP engine (GNU Go), whose dead stones are counted
by the same scorer so that only the dead-stone decision differs; a position the engine does not
answer is left out of every column, so that the scorers are compared on the same positions.
GNU Go's raw answers go to a JSON cache keyed by position (by default in the user's cache
folder), so a rerun does not ask it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from seog import folders
from seog.datasets.devsets import Position, Skipped
from seog.datasets.labels import (
    TEACHER_TIMEOUT,
    EngineError,
    GtpTeacher,
    block_labels,
    mask_from_sgf,
    sgf_points,
)
from seog.features.board import IllegalPosition
from seog.features.topology import analyze
from seog.scoring.result import parse_result, same_result
from seog.scoring.rules import rules_from_sgf


def default_engine_cache() -> Path:
    """Where GNU Go's answers are kept between runs: ``$XDG_CACHE_HOME/seog`` or ``~/.cache/seog``,
    never a folder made in whatever directory the command runs from."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "seog" / "gnugo-answers.json"


@dataclass
class Outcome:
    """One scorer on one position."""

    blocks: int
    wrong_blocks: int
    stones: int
    wrong_stones: int
    result: str  # the result our count prints with this scorer's dead stones ('' without RE)
    result_ok: bool | None  # None when the position has no counted RE
    seconds: float
    flagged: bool | None = None  # seog only: any block near the model's decision boundary
    wrong: list = field(default_factory=list)  # SGF points of one stone per wrong block, with the truth

    @property
    def all_right(self) -> bool:
        return self.wrong_blocks == 0


@dataclass
class Row:
    """A position and every scorer's outcome on it."""

    name: str
    size: int
    rules: str
    recorded: str
    ceiling: bool | None  # do the true dead stones reproduce RE with our count?
    outcomes: dict


def compare(position: Position, dead: np.ndarray, topology=None) -> tuple[int, int, int, int, list]:
    """(blocks, wrong blocks, stones, wrong stones, wrong list) of a dead mask against the truth."""
    topology = topology or analyze(position.board.grid)
    truth, _ = block_labels(topology, position.dead)
    guess, _ = block_labels(topology, dead)
    stones = position.board.grid != 0
    wrong_stones = int(((position.dead != dead) & stones).sum())
    wrong = []
    for b in np.flatnonzero(truth != guess):
        block = topology.blocks[int(b)]
        point = sgf_points(_one(block.points[0], position.size))[0]
        wrong.append(f"{point}:{len(block.points)}{'alive' if truth[b] else 'dead'}")
    return len(topology.blocks), int((truth != guess).sum()), int(stones.sum()), wrong_stones, wrong


def _one(index, size):
    m = np.zeros((size, size), dtype=bool)
    m.flat[int(index)] = True
    return m


def counted(position: Position) -> bool:
    return bool(position.rules or position.result) and parse_result(position.result).counted


def score_with(position: Position, dead: np.ndarray | None, model, with_result: bool = False,
               dead_agreed: bool = True):
    """Our score of a position: with the given dead stones, or deciding them with ``model``; with
    its record, when it has one, as ``seog score`` reads it (a count far from the record is in doubt),
    blind unless ``with_result``: then its counted result settles the groups in doubt.
    ``dead_agreed``: the dead stones are the players' (counted as agreed), else an engine's."""
    from seog.scoring.request import from_board
    from seog.scoring.score import score

    return score(from_board(position.board, rules=rules_from_sgf(position.rules), komi=position.komi,
                            handicap=position.handicap, prisoners=position.prisoners, dead=dead,
                            game=position.game, result=position.result if with_result else None,
                            dead_agreed=dead_agreed), model)


WITH_RESULT = "seog+RE"  # seog with the record's counted result, where it has one (blind elsewhere)


def seog_outcome(position: Position, model, with_result: bool = False) -> Outcome:
    start = time.perf_counter()
    score = score_with(position, None, model, with_result)
    seconds = time.perf_counter() - start
    dead = np.zeros((position.size, position.size), dtype=bool)
    dead.flat[score.read_dead] = True  # the reading, which Tromp-Taylor's count leaves on the board
    return _outcome(position, dead, score.result, seconds, flagged=score.in_doubt)


def _outcome(position, dead, result, seconds, flagged=None) -> Outcome:
    blocks, wrong_blocks, stones, wrong_stones, wrong = compare(position, dead)
    ok = same_result(result, position.result) if counted(position) else None
    return Outcome(blocks, wrong_blocks, stones, wrong_stones, result if counted(position) else "", ok,
                   seconds, flagged, wrong)


def read_answers(text: str) -> tuple[dict, str]:
    """The answers of an engine cache's text, and '' or what is wrong with it. A damaged file (cut
    short, say) still gives every whole entry before the damage."""
    try:
        answers = json.loads(text)
    except json.JSONDecodeError as exc:
        return _whole_entries(text), f"{exc.msg}, line {exc.lineno}"
    if not isinstance(answers, dict):
        return {}, "not a JSON object"
    return answers, ""


def _whole_entries(text: str) -> dict:
    """The ``"key": {...}`` entries of a JSON object's text, up to the first that does not read."""
    decoder, gap, out = json.JSONDecoder(), re.compile(r"[\s,:]*"), {}
    i = text.find("{") + 1
    while i:
        try:
            key, i = decoder.raw_decode(text, gap.match(text, i).end())
            value, i = decoder.raw_decode(text, gap.match(text, i).end())
        except json.JSONDecodeError:
            break
        if not (isinstance(key, str) and isinstance(value, dict) and {"dead", "seconds"} <= set(value)):
            break
        out[key] = value
    return out


class EngineScorer:
    """A GTP engine's dead stones for positions, with a JSON cache of its raw answers.

    A damaged cache is set aside (``NAME.damaged``) and its readable answers kept; ``note`` says so.
    """

    def __init__(self, name: str = "gnugo", level: int = 10, cache: Path | None = None,
                 timeout: float = TEACHER_TIMEOUT, command: list[str] | str | None = None):
        self.name, self.level, self.timeout, self.command = name, level, timeout, command
        self.cache_path = Path(cache) if cache else None
        self.cache, self.note = {}, ""
        self.teacher = None
        self.unsaved = 0
        self.unanswered: list[str] = []  # positions it gave no answer for, left out of every column
        if self.cache_path and self.cache_path.exists():
            self.cache, problem = read_answers(self.cache_path.read_bytes().decode("utf-8", "replace"))
            if problem:
                aside = folders.set_aside(self.cache_path)
                self.note = (f"{self.cache_path} was damaged ({problem}): moved to {aside}; kept its "
                             f"{len(self.cache)} whole answer(s) before the damage, the others are asked again")
                self.unsaved = len(self.cache)
                self.save()

    def key(self, position: Position, area: bool) -> str:
        digest = hashlib.sha1(position.sgf_data).hexdigest()[:16]
        return f"{self.name}-{self.level}{'-chinese' if area else ''}:{digest}"

    def answer(self, position: Position) -> tuple[np.ndarray, float]:
        """The engine's dead stones and seconds; raises EngineError when it gives none."""
        area = rules_from_sgf(position.rules).area if position.rules else False
        key = self.key(position, area)
        if key not in self.cache:
            if self.teacher is None:
                self.teacher = GtpTeacher(self.level, self.command, self.timeout, self.name)
            dead, seconds = self.teacher.dead(position.sgf_data, position.size, area, position.name)
            self.cache[key] = {"name": position.name, "dead": sgf_points(dead), "seconds": round(seconds, 4)}
            self.unsaved += 1
            if self.unsaved >= 20:
                self.save()
        entry = self.cache[key]
        return mask_from_sgf(entry["dead"], position.size), float(entry["seconds"])

    def outcome(self, position: Position) -> Outcome:
        dead, seconds = self.answer(position)
        dead &= position.board.grid != 0
        # an engine's reading, counted as seog's own is
        result = score_with(position, dead, None, dead_agreed=False).result if counted(position) else ""
        return _outcome(position, dead, result, seconds)

    def save(self) -> None:
        if self.cache_path and self.unsaved:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.cache, indent=0), encoding="utf-8")
            tmp.replace(self.cache_path)
            self.unsaved = 0

    def close(self) -> None:
        self.save()
        if self.teacher:
            self.teacher.close()


def evaluate_one(position: Position, model="default", engine: EngineScorer | None = None) -> Row | Skipped:
    """Every scorer on one position, or why the position is left out: an illegal position, or
    one the engine gave no answer for (left out of seog's column too, so both cover the same)."""
    try:
        theirs = engine.outcome(position) if engine is not None else None
        ceiling = None
        if counted(position):
            ceiling = same_result(score_with(position, position.dead, None).result, position.result)
        outcomes = {"seog": seog_outcome(position, model)}
        blind = outcomes["seog"]  # a count that gives the record already is what the record settles
        outcomes[WITH_RESULT] = blind if blind.result_ok is not False else seog_outcome(position, model, True)
    except EngineError as exc:
        engine.unanswered.append(position.name)
        return Skipped(position.name, str(exc))
    except IllegalPosition as exc:
        return Skipped(position.name, str(exc))
    if theirs is not None:
        outcomes[engine.name] = theirs
    return Row(position.name, position.size, position.rules, position.result, ceiling, outcomes)


def evaluate(positions: Iterable[Position], model="default", engine: EngineScorer | None = None,
             progress: Callable | None = None) -> tuple[list[Row], list[Skipped]]:
    """Run seog (and the engine, if given) on every position: the rows, and the positions left out."""
    rows, skipped = [], []
    for position in positions:
        done = evaluate_one(position, model, engine)
        (rows if isinstance(done, Row) else skipped).append(done)
        if progress:
            progress()
    return rows, skipped


def summary(rows: list[Row], scorer: str) -> dict:
    """The figures of one scorer over rows: accuracies, exact results with the ceiling, timing, flags."""
    outs = [r.outcomes[scorer] for r in rows]
    if not outs:
        return {"positions": 0}
    blocks = sum(o.blocks for o in outs)
    stones = sum(o.stones for o in outs)
    with_re = [(r, o) for r, o in zip(rows, outs) if o.result_ok is not None]
    out = {
        "positions": len(outs),
        "blocks": blocks,
        "block_accuracy": 1 - sum(o.wrong_blocks for o in outs) / blocks if blocks else 1.0,
        "stone_accuracy": 1 - sum(o.wrong_stones for o in outs) / stones if stones else 1.0,
        "positions_all_right": sum(o.all_right for o in outs) / len(outs),
        "with_result": len(with_re),
        "results_exact": sum(o.result_ok for _, o in with_re) / len(with_re) if with_re else None,
        "results_not_the_record": sum(not o.result_ok for _, o in with_re),
        "ceiling": sum(bool(r.ceiling) for r, _ in with_re) / len(with_re) if with_re else None,
        "median_seconds": statistics.median(o.seconds for o in outs),
        "total_seconds": sum(o.seconds for o in outs),
        "wrong_positions": [r.name for r, o in zip(rows, outs) if not o.all_right],
    }
    flags = [o.flagged for o in outs]
    if all(f is not None for f in flags):
        wrong = [o for o in outs if not o.all_right]
        out["flagged"] = sum(flags) / len(flags)
        out["wrong_flagged"] = sum(o.flagged for o in wrong) / len(wrong) if wrong else None
        if with_re:  # what an archive's curator would look at: flagged, or the count is not the record
            def check(o: Outcome) -> bool:
                return o.flagged or o.result_ok is False
            out["to_check"] = sum(map(check, outs)) / len(outs)
            out["wrong_to_check"] = sum(map(check, wrong)) / len(wrong) if wrong else None
    return out


def by_size(rows: list[Row]) -> dict[int, list[Row]]:
    sizes = {}
    for r in rows:
        sizes.setdefault(r.size, []).append(r)
    return dict(sorted(sizes.items()))


def write_csv(rows: list[Row], path: Path) -> None:
    """One line per position: the truth's ceiling, then each scorer's figures."""
    import csv

    scorers = list(rows[0].outcomes) if rows else ["seog"]
    fields = ["name", "size", "rules", "recorded", "ceiling"]
    per = ["result", "result_ok", "blocks", "wrong_blocks", "stones", "wrong_stones", "all_right", "seconds",
           "flagged", "wrong"]
    fields += [f"{s}_{f}" for s in scorers for f in per]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for r in rows:
            line = {"name": r.name, "size": r.size, "rules": r.rules, "recorded": r.recorded, "ceiling": r.ceiling}
            for s, o in r.outcomes.items():
                d = asdict(o)
                d["all_right"] = o.all_right
                d["seconds"] = round(o.seconds, 6)
                d["wrong"] = " ".join(o.wrong)
                line.update({f"{s}_{f}": d[f] for f in per})
            w.writerow(line)


def plot(rows: list[Row], path: Path, title: str = "") -> None:
    """Two panels: the accuracy figures side by side per scorer, and the time per position (log)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scorers = list(rows[0].outcomes)
    sums = {s: summary(rows, s) for s in scorers}
    metrics = [("block_accuracy", "blocks"), ("stone_accuracy", "stones"),
               ("positions_all_right", "positions\nall right"), ("results_exact", "results\nexact")]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    width = 0.8 / (len(scorers) + 1)
    x = np.arange(len(metrics))
    for i, s in enumerate(scorers):
        vals = [100 * (sums[s][m] or 0) for m, _ in metrics]
        ax1.bar(x + i * width, vals, width, label=s)
    ceiling = sums[scorers[0]].get("ceiling")
    if ceiling is not None:
        ax1.bar(x[-1] + len(scorers) * width, 100 * ceiling, width, label="players' marks", color="grey")
    ax1.set_xticks(x + width * (len(scorers) - 1) / 2, [label for _, label in metrics])
    low = min(100 * (sums[s][m] or 1) for s in scorers for m, _ in metrics)
    ax1.set_ylim(max(0, low - 5), 100.5)
    ax1.set_ylabel("%")
    ax1.legend(loc="lower left", fontsize=8)
    ax1.set_title(f"{title} ({len(rows)} positions)")
    for s in scorers:
        times = np.array([max(r.outcomes[s].seconds, 1e-6) for r in rows])
        ax2.hist(times, bins=np.logspace(-5, 2, 50), alpha=0.6, label=f"{s} (median {np.median(times):.4f} s)")
    ax2.set_xscale("log")
    ax2.set_xlabel("seconds per position")
    ax2.set_ylabel("positions")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
