"""Dead-stone labels for finished games, and the check that keeps only labels we can trust.

Three sources: the players' own marks (TB/TW, see ``sgf.Game.marked_dead``), a teacher's
answers stored as JSON lines (KataGo's ``katago_dead``, GNU Go's ``gnugo_dead``), or a GTP
engine asked live (``loadsgf`` then ``final_status_list dead``). ``check`` is the consistency
filter: labels are kept only when our own scorer, fed those dead stones, prints the recorded
result under the game's rules.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from seog.features import coords
from seog.features.topology import Topology
from seog.gtp import client
from seog.gtp.client import EngineError, EngineRefused

GNUGO = "/usr/games/gnugo"
TEACHER_FIELDS = {"katago": "katago_dead", "gnugo": "gnugo_dead"}


class LabelError(ValueError):
    """Labels that do not fit their position (a dead stone on an empty point, a bad file...)."""


# ---- masks and per-block labels ---------------------------------------------------------------

def mask_from_sgf(points: Iterable[str], size: int) -> np.ndarray:
    """(size, size) bool mask of SGF points such as ``"cd"``."""
    mask = np.zeros((size, size), dtype=bool)
    for p in points:
        index = coords.sgf_to_index(p, size)
        if index is None:
            raise LabelError(f"dead stone at {p!r} is a pass, not a point")
        mask.flat[index] = True
    return mask


def mask_from_gtp(vertices: Iterable[str], size: int) -> np.ndarray:
    """(size, size) bool mask of GTP vertices such as ``"D4"``."""
    mask = np.zeros((size, size), dtype=bool)
    for v in vertices:
        index = coords.gtp_to_index(v, size)
        if index is not None:
            mask.flat[index] = True
    return mask


def sgf_points(mask: np.ndarray) -> list[str]:
    size = mask.shape[0]
    return [coords.index_to_sgf(int(i), size) for i in np.flatnonzero(mask)]


def check_on_stones(grid: np.ndarray, dead: np.ndarray, where: str = "") -> None:
    """Raise LabelError when a dead mark sits on an empty point."""
    stray = dead & (grid == 0)
    if stray.any():
        size = grid.shape[0]
        first = coords.index_to_sgf(int(np.flatnonzero(stray)[0]), size)
        raise LabelError(f"{where}{int(stray.sum())} dead mark(s) on empty points, e.g. {first!r}")


def block_labels(topology: Topology, dead: np.ndarray) -> tuple[np.ndarray, int]:
    """Per block (id order): 1 alive, 0 dead, and how many blocks were only partly marked.

    A block is dead when most of its stones are marked dead; partly marked blocks are counted
    so that callers can report labels that do not follow block boundaries.
    """
    flat = np.asarray(dead, dtype=bool).ravel()
    y = np.ones(len(topology.blocks), dtype=np.int8)
    mixed = 0
    for block in topology.blocks:
        hit = int(flat[block.points].sum())
        if hit and hit < len(block.points):
            mixed += 1
        if 2 * hit > len(block.points):
            y[block.id] = 0
    return y, mixed


def block_mask(topology: Topology, y: np.ndarray) -> np.ndarray:
    """Dead-stone mask of the blocks labelled 0."""
    mask = np.zeros(topology.grid.shape, dtype=bool)
    for block in topology.blocks:
        if not y[block.id]:
            mask.flat[block.points] = True
    return mask


def teacher_alive(topology: Topology, owner: np.ndarray) -> np.ndarray:
    """Per block: does the teacher's mean ownership over its stones have the block's own sign?
    (KataGo's labels call a block dead by this rule, with no threshold; the reader's verdict is
    the same rule on its own map, ``refiner.block_p_alive``.)"""
    from seog.classifiers.refiner import block_p_alive  # the scoring nets, loaded only where labels are read

    return block_p_alive(topology, owner) > 0.5


# ---- teacher files -----------------------------------------------------------------------------

@dataclass
class TeacherLabel:
    """One game's teacher answer: dead stones as SGF points, and the file's own consistency flag."""

    name: str
    dead: list[str]
    consistent: bool | None
    record: dict


def read_teacher(path: str | Path, source: str | None = None) -> dict[str, TeacherLabel]:
    """Read a teacher JSON-lines file (gzip or plain), keyed by game name.

    ``source`` 'katago' or 'gnugo' picks the dead-stone field; by default the first of them found.
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    out = {}
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise LabelError(f"{path.name}: line {n} is not JSON ({exc.msg})") from None
                fields = [TEACHER_FIELDS[source]] if source else list(TEACHER_FIELDS.values())
                key = next((f for f in fields if f in record), None)
                if key is None or "name" not in record:
                    raise LabelError(f"{path.name}: line {n} has no name or dead-stone field")
                out[record["name"]] = TeacherLabel(record["name"], list(record[key]),
                                                   record.get("result_consistent"), record)
    except OSError as exc:
        raise LabelError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return out


def game_key(entry_name: str) -> str:
    """Teacher files key games by file name without folder or ``.sgf``."""
    return Path(entry_name).name.rsplit(".", 1)[0]


# ---- the consistency filter --------------------------------------------------------------------

@dataclass
class Check:
    """What our scorer prints with the given dead stones, against the recorded result."""

    ours: str
    recorded: str
    consistent: bool
    gap: float | None  # our margin minus the recorded one (Black's view); None if RE is not a count


def check(game, dead: np.ndarray, rules=None, komi: float | None = None) -> Check:
    """Score ``game`` with the dead stones ``dead`` and compare with its RE, counted as seog counts
    its own reading (``dead_agreed=False``): the labels train that reading."""
    from seog.scoring.result import parse_result
    from seog.scoring.rules import rules_from_sgf
    from seog.scoring.score import score_position

    rules = rules_from_sgf(game.rules) if rules is None else rules
    score = score_position(game.board, rules=rules, komi=game.komi if komi is None else komi,
                           handicap=game.handicap, prisoners=game.board.prisoners, dead=dead, dead_agreed=False)
    recorded = parse_result(game.result)
    gap = None if recorded.margin is None else score.margin - recorded.margin
    return Check(score.result, game.result, gap == 0, gap)


# ---- GTP engines ---------------------------------------------------------------------------------

TEACHER_TIMEOUT = 300.0  # seconds per GTP answer: GNU Go reads some 19x19 positions for a minute on a loaded machine
GIVE_UP = 3  # an engine that fails this many positions in a row is dropped for the rest of the run


class GtpEngine(client.GtpEngine):
    """A GTP engine in a subprocess (``seog.gtp.client``: every answer waited for with a
    timeout), named by its second argument as the data tools call it."""

    def __init__(self, command: list[str] | str, name: str = "", timeout: float = TEACHER_TIMEOUT):
        super().__init__(command, label=name or None, timeout=timeout)


def gnugo_command(level: int = 10, chinese: bool = False, extra: Iterable[str] = ()) -> list[str]:
    cmd = [GNUGO, "--mode", "gtp", "--level", str(level)]
    if chinese:
        cmd.append("--chinese-rules")
    return cmd + list(extra)


def gnugo_available() -> bool:
    return os.access(GNUGO, os.X_OK)


class GtpTeacher:
    """Dead stones from GTP engines: ``loadsgf`` then ``final_status_list dead``.

    GNU Go takes its rules on the command line, so one engine per rules family (territory or
    area) is started when first needed. ``command`` may hold ``{chinese}``-free custom commands;
    by default GNU Go at ``level``. A position the engine refuses, or does not answer within
    ``timeout`` seconds, raises ``EngineError`` naming the game and the answer; an engine that
    hung or died is restarted for the next position, and after ``GIVE_UP`` such positions in a
    row it is dropped: every later position raises at once.
    """

    def __init__(self, level: int = 10, command: list[str] | str | None = None,
                 timeout: float = TEACHER_TIMEOUT, name: str = "gnugo"):
        self.level = level
        self.custom = command
        self.timeout = timeout
        self.name = name
        self.engines: dict[bool, GtpEngine] = {}
        self.failures = 0  # positions in a row the engine hung or died on
        self.dropped = ""  # why the engine was given up, once it is

    def engine(self, area: bool) -> GtpEngine:
        if self.custom is not None:
            area = False  # a custom engine gets one process for all rules
        if area not in self.engines:
            cmd = self.custom if self.custom is not None else gnugo_command(self.level, chinese=area)
            self.engines[area] = GtpEngine(cmd, self.name, self.timeout)
        return self.engines[area]

    def dead(self, sgf_data: bytes, size: int, area: bool = False, game: str = "the game"
             ) -> tuple[np.ndarray, float]:
        """The engine's dead stones for an SGF record (bytes), and the seconds it took.

        ``game`` names the record in error messages (the engine only sees a temporary file).
        """
        if self.dropped:
            raise EngineError(f"{self.name} was dropped for the rest of the run ({self.dropped})")
        with tempfile.NamedTemporaryFile(suffix=".sgf", delete=False) as fh:
            fh.write(sgf_data)
            path = fh.name
        step = "cannot load it"
        try:
            engine = self.engine(area)  # started before the clock: its start-up is not the position's time
            start = time.perf_counter()
            engine.send(f"loadsgf {path}")
            step = "refused final_status_list dead"
            answer = engine.send("final_status_list dead")
            seconds = time.perf_counter() - start
        except EngineRefused as exc:
            raise EngineError(f"{self.name} {step} ({exc.message.replace(path, game)})") from None
        except EngineError as exc:  # it hung, died or did not start
            raise EngineError(self._restart(area, str(exc).replace(path, game))) from None
        finally:
            os.unlink(path)
        self.failures = 0
        return mask_from_gtp(answer.split(), size), seconds

    def _restart(self, area: bool, problem: str) -> str:
        """Stop an engine that hung or died (the next position starts a new one); give it up after
        ``GIVE_UP`` positions in a row. Returns the message for this position."""
        engine = self.engines.pop(False if self.custom is not None else area, None)
        if engine is not None:
            engine.close()
        self.failures += 1
        if self.failures >= GIVE_UP:
            self.dropped = f"{self.failures} positions in a row without an answer"
            self.close()
            return f"{problem}; {self.name} dropped for the rest of the run ({self.dropped})"
        return f"{problem}; {self.name} restarted"

    def close(self) -> None:
        for engine in self.engines.values():
            engine.close()
        self.engines.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def teacher_check(game, points: Iterable[str]) -> tuple[np.ndarray | None, Check | None, str]:
    """A teacher's dead stones (SGF points) for ``game``: (mask, check, problem).

    ``problem`` is '' when the labels fit the position, else why they do not (then mask and
    check are None).
    """
    try:
        mask = mask_from_sgf(points, game.size)
        check_on_stones(game.board.grid, mask)
    except (LabelError, coords.CoordinateError) as exc:
        return None, None, str(exc)
    return mask, check(game, mask), ""
