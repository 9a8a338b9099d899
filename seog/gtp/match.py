"""Matches between two GTP engines, refereed by seog: legality of every move, then the count.

Engine A (``--black``) takes Black in odd games and White in even ones. A game ends after two
passes in a row, a resignation, a forfeit (an illegal or unreadable move, superko included, or
an engine that dies or does not answer in time), or the move limit. Under rules without superko
(Japanese, Korean) a position made for the third time is a ko cycle: no result. A game stopped
at the move limit is unfinished: no result (``Void``), the count of the position it stopped at in
its comment, and out of the win counts. Counted games are scored by ``Referee``; each game is
written as an SGF file with the result, the players and the dead stones (TB/TW). A game passed
out on a position that is not finished (open borders) is counted, and its log line says that
the result is an estimate ("estimate: not finished (open borders)").
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from seog import folders
from seog.features import coords
from seog.features.board import IllegalMove
from seog.features.coords import BLACK, WHITE
from seog.gtp.client import EngineDied, EngineError, EngineRefused, EngineTimeout, GtpEngine
from seog.gtp.referee import Referee
from seog.scoring.rules import get_rules

LETTER = {BLACK: "B", WHITE: "W"}
NAME = {BLACK: "Black", WHITE: "White"}
GAME_FILE = re.compile(r"game-[0-9]+\.sgf")
MOVE_LIMIT = "the move limit"


class MatchAborted(EngineError):
    """The match cannot go on: an engine cannot be started or refuses the game's settings."""


@dataclass
class MatchConfig:
    """What to play: two engine commands, how many games, and the game settings."""

    black: str
    white: str
    games: int = 2
    size: int = 19
    komi: float = 7.5
    rules: str = "chinese"
    out: Path | None = None
    max_moves: int | None = None  # None: three times the number of points
    timeout: float = 60.0  # seconds per engine command
    startup: float = 300.0  # seconds a started engine may take to answer ``name`` (loading its weights)
    model: object = "default"

    def __post_init__(self) -> None:
        coords.check_size(self.size)
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, got {self.games}")
        if self.timeout <= 0:
            raise ValueError(f"--timeout must be positive, got {self.timeout:g}")
        if self.startup <= 0:
            raise ValueError(f"--startup-timeout must be positive, got {self.startup:g}")
        if self.out is not None and self.out.exists() and not self.out.is_dir():
            raise ValueError(f"--out {self.out} is a file: name a folder for the game files")
        get_rules(self.rules)  # an unknown name fails here, before any engine starts
        if not math.isfinite(self.komi):
            raise ValueError(f"--komi must be a finite number, got {self.komi}")
        if self.max_moves is None:
            self.max_moves = 3 * self.size * self.size
        if self.max_moves < 1:
            raise ValueError(f"--max-moves must be at least 1, got {self.max_moves}")
        _check_earlier(self.out)


def earlier_games(folder: Path | None) -> list[str]:
    """The game files (``game-NNN.sgf``) a folder already holds, sorted; the match would write over them."""
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if GAME_FILE.fullmatch(p.name))


@dataclass
class GameRecord:
    """One finished game: who played which colour, the result (SGF RE) and how it ended."""

    number: int
    black: str  # seat label, 'A' or 'B'
    white: str
    result: str
    reason: str
    moves: int
    winner: str | None = None  # seat label, None for jigo or a void game
    unfinished: bool = False  # stopped at the move limit: no result, out of the win counts
    path: Path | None = None
    dead: list = field(default_factory=list)  # GTP vertices of the dead stones


class Seat:
    """One of the two engines of the match, restarted for the next game after it fails."""

    def __init__(self, label: str, command: str, timeout: float, startup: float = 300.0) -> None:
        self.label = label
        self.command = command
        self.timeout = timeout
        self.startup = startup
        self.engine: GtpEngine | None = None
        self.name = label

    def start(self) -> GtpEngine:
        if self.engine is None or not self.engine.alive:
            self.stop()
            try:
                self.engine = GtpEngine(self.command, label=f"engine {self.label}", timeout=self.timeout)
            except EngineError as exc:
                raise MatchAborted(str(exc)) from None
            self.name = self._ask_name() or self.label
        return self.engine

    def _ask_name(self) -> str:
        """The engine's name and version. An engine that dies before answering, or does not
        answer within the start-up time, stops the match (a wrong command line, a missing script
        or weights, weights slower to load than allowed) rather than forfeiting every game."""
        return " ".join(filter(None, (self._ask_at_start(c) for c in ("name", "version"))))

    def _ask_at_start(self, command: str) -> str:
        try:
            return self.engine.send(command, timeout=self.startup)
        except EngineRefused:
            return ""
        except EngineDied as exc:
            raise MatchAborted(f"{exc} (it stopped as soon as it started: check its command)") from None
        except EngineTimeout:
            raise MatchAborted(f"engine {self.label} did not answer {command!r} within {self.startup:g} s "
                               "of starting (allow more with --startup-timeout)") from None

    def stop(self) -> None:
        if self.engine is not None:
            self.engine.close(grace=1.0)
            self.engine = None


class Forfeit(Exception):
    """The side ``color`` loses the game; ``reason`` says why."""

    def __init__(self, color: int, reason: str) -> None:
        super().__init__(reason)
        self.color = color
        self.reason = reason


def play_game(number: int, seats: dict[int, Seat], config: MatchConfig):
    """Play one game between the engines in ``seats`` (keyed by colour).

    Returns (record, referee holding the final position, comment for the SGF, ``Score`` or None
    when the game was not counted).
    """
    referee = Referee(config.size, komi=config.komi, rules=config.rules, model=config.model)
    record = GameRecord(number, seats[BLACK].label, seats[WHITE].label, "", "", 0)
    try:
        _setup(seats, config)
        reason = _move_loop(referee, seats, config)
    except Forfeit as exc:
        winner = -exc.color
        record.result, record.reason = f"{LETTER[winner]}+F", f"{NAME[exc.color]} forfeits: {exc.reason}"
        record.winner = seats[winner].label
        record.moves = len(referee.moves)
        return record, referee, record.reason, None
    record.moves = len(referee.moves)
    if reason.startswith("resign"):
        color = BLACK if reason.endswith("black") else WHITE
        record.result, record.reason = f"{LETTER[-color]}+R", f"{NAME[color]} resigned"
        record.winner = seats[-color].label
        return record, referee, record.reason, None
    if reason.startswith("void"):
        record.result, record.reason = "Void", reason[len("void: "):]
        return record, referee, f"No result: {record.reason}", None
    score = referee.score()
    dead = [coords.index_to_gtp(i, config.size) for i in referee.dead()]
    count = (f"Scored by seog ({score.rules.name} rules, komi {score.komi:g}): Black {score.black:g}, "
             f"White {score.white:g}, {score.result}.")
    if dead:
        count += " Dead stones: " + " ".join(dead) + "."
    if score.uncertain_blocks:
        count += f" {len(score.uncertain_blocks)} block(s) in doubt: ask the players to confirm."
    count += "".join(f" Note: {note}." for note in score.notes)  # Tromp-Taylor's stones read dead yet counted
    if reason.startswith(MOVE_LIMIT):
        record.result, record.unfinished = "Void", True
        record.reason = f"unfinished at {reason}; the position counts {score.result}"
        return record, referee, f"No result: unfinished, stopped at {reason}. {count}", None
    record.result, record.reason, record.dead = score.result, reason, dead
    if not score.finished:  # two passes on open borders: the count is an estimate, and the log says so
        record.reason = f"{reason}; estimate: not finished ({score.unfinished})"
    if score.margin:
        record.winner = seats[BLACK if score.margin > 0 else WHITE].label
    return record, referee, f"Game ended by {reason} after {record.moves} moves. {count}", score


def _setup(seats: dict[int, Seat], config: MatchConfig) -> None:
    for color in (BLACK, WHITE):
        seat = seats[color]
        engine = seat.start()
        for command in (f"boardsize {config.size}", "clear_board", f"komi {config.komi:g}"):
            try:
                engine.send(command)
            except EngineRefused as exc:
                raise MatchAborted(f"engine {seat.label} ({seat.command}) refused {command!r}: "
                                   f"{exc.message}") from None
            except EngineError as exc:
                seat.stop()
                raise Forfeit(color, str(exc)) from None


def _move_loop(referee: Referee, seats: dict[int, Seat], config: MatchConfig) -> str:
    """Alternate genmove/play until the game ends; return how it ended (or raise Forfeit)."""
    size, color, passes = config.size, BLACK, 0
    while len(referee.moves) < config.max_moves:
        mover, other = seats[color], seats[-color]
        try:
            reply = mover.engine.send(f"genmove {LETTER[color].lower()}")
        except EngineRefused as exc:
            raise Forfeit(color, f"engine {mover.label} refused genmove: {exc.message}") from None
        except EngineError as exc:
            mover.stop()
            raise Forfeit(color, str(exc)) from None
        word = reply.split()[0].lower() if reply.split() else ""
        if word == "resign":
            return f"resignation by {NAME[color].lower()}"
        try:
            point = coords.from_gtp(word, size)
        except coords.CoordinateError:
            raise Forfeit(color, f"engine {mover.label} answered genmove with {reply!r}, not a move") from None
        vertex = coords.to_gtp(point, size)
        try:
            referee.play(color, point)
        except IllegalMove as exc:
            raise Forfeit(color, f"illegal move {vertex} at move {len(referee.moves) + 1} ({exc})") from None
        try:
            other.engine.send(f"play {LETTER[color].lower()} {vertex}")
        except EngineRefused as exc:
            return (f"void: engine {other.label} refused {NAME[color]}'s move {vertex}, legal under "
                    f"{referee.rules.name} rules ({exc.message})")
        except EngineError as exc:
            other.stop()
            raise Forfeit(-color, str(exc)) from None
        if referee.rules.superko == "none" and referee.repetitions() >= 3:
            return (f"void: {NAME[color]}'s {vertex} made a position for the third time (a ko cycle), "
                    f"no result under {referee.rules.name} rules")
        passes = passes + 1 if point is None else 0
        if passes == 2:
            return "two passes"
        color = -color
    return f"{MOVE_LIMIT} ({config.max_moves})"


def to_sgf(record: GameRecord, referee: Referee, seats: dict[int, Seat], config: MatchConfig,
           comment: str, score=None) -> bytes:
    """The game as SGF: players, rules, komi, result, and TB/TW marks with the dead stones inside."""
    from seog.features import sgf

    game = sgf.Game(config.size, float(config.komi), 0, referee.rules.name, record.result,
                    referee.board, list(referee.moves))
    game.properties = {
        "PB": f"{seats[BLACK].name} ({seats[BLACK].label})",
        "PW": f"{seats[WHITE].name} ({seats[WHITE].label})",
        "EV": "seog match",
        "GN": f"game {record.number}",
        "DT": _dt.date.today().isoformat(),
    }
    territory = {BLACK: set(), WHITE: set()}
    if score is not None:  # a counted game
        grid = referee.board.grid.ravel()
        for color in (BLACK, WHITE):
            dead_opponent = [int(i) for i in referee.dead() if grid[i] == -color]
            territory[color] = {int(i) for i in score.territory[color]} | set(dead_opponent)
    return sgf.with_score(game, record.result, territory, comment)


def write_atomically(path: Path, data: bytes) -> None:
    """Write a game file whole, never over an existing one (another match in the same folder). A
    disk that is full or read-only stops the match (every later game would fail alike), leaving
    no part-written file."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        tmp.write_bytes(data)
        os.link(tmp, path)
    except FileExistsError:
        raise MatchAborted(f"{path} appeared while the match was playing: another match is writing "
                           "to this folder") from None
    except OSError as exc:
        raise MatchAborted(f"cannot write {path} ({exc.strerror or exc}); the games before it are "
                           "written whole") from None
    finally:
        tmp.unlink(missing_ok=True)


def _check_earlier(out: Path | None) -> None:
    """Refuse a folder holding an earlier match's games (checked again under the folder's lock)."""
    earlier = earlier_games(out)
    if earlier:
        raise ValueError(f"--out {out} already holds the games of an earlier match "
                         f"({earlier[0]}, ...): name another folder, or move them")


def run_match(config: MatchConfig, log: Callable[[str], None] = print) -> tuple[list[GameRecord], dict, str]:
    """Play the match; return the game records, the seats (by label) and why it stopped early ('' if not).
    The games folder is held for the match: a second match into it is refused."""
    if config.out is None:
        return _play_match(config, log)
    with _claimed(config.out):
        _check_earlier(config.out)
        return _play_match(config, log)


@contextmanager
def _claimed(out: Path) -> Iterator[None]:
    """Hold the match's lock on ``out`` (created) while the block runs; a folder seog cannot make
    or write in (under a file, say) is named in one line rather than a bare OSError."""
    with ExitStack() as stack:
        try:
            stack.enter_context(folders.claimed(out, "match"))
        except OSError as exc:
            raise folders.cannot_write("--out", out, exc) from None
        yield


def _play_match(config: MatchConfig, log: Callable[[str], None]) -> tuple[list[GameRecord], dict, str]:
    seats = {label: Seat(label, command, config.timeout, config.startup)
             for label, command in (("A", config.black), ("B", config.white))}
    records: list[GameRecord] = []
    stopped = ""
    try:
        for number in range(1, config.games + 1):
            first, second = (seats["A"], seats["B"]) if number % 2 else (seats["B"], seats["A"])
            by_color = {BLACK: first, WHITE: second}
            try:
                record, referee, comment, score = play_game(number, by_color, config)
                if config.out is not None:
                    path = config.out / f"game-{number:03d}.sgf"
                    write_atomically(path, to_sgf(record, referee, by_color, config, comment, score))
                    record.path = path
            except MatchAborted as exc:
                stopped = str(exc)
                log(f"match stopped at game {number}: {stopped}")
                break
            records.append(record)
            log(f"game {number}: {record.black} (B) vs {record.white} (W): {record.result:<8} "
                f"{record.moves:>4} moves, {record.reason}")
    finally:
        for seat in seats.values():
            seat.stop()
    return records, seats, stopped


def summary(records: list[GameRecord], seats: dict, config: MatchConfig) -> str:
    """A plain-text table of the games, then the wins of each engine over the finished games
    (those stopped at the move limit are counted apart)."""
    lines = [f"{'game':>4}  {'black':<5}  {'white':<5}  {'result':<8}  {'moves':>5}  how it ended"]
    for r in records:
        lines.append(f"{r.number:>4}  {r.black:<5}  {r.white:<5}  {r.result:<8}  {r.moves:>5}  {r.reason}")
    lines.append("")
    finished = [r for r in records if not r.unfinished]
    for label, seat in seats.items():
        wins = sum(r.winner == label for r in finished)
        as_black = sum(r.winner == label and r.black == label for r in finished)
        lines.append(f"{label}: {seat.name} [{seat.command}]: {wins} of {len(finished)} won "
                     f"({as_black} as Black, {wins - as_black} as White)")
    others = sum(r.winner is None for r in finished)
    if others:
        lines.append(f"jigo or no result: {others}")
    unfinished = len(records) - len(finished)
    if unfinished:
        lines.append(f"unfinished at the move limit ({config.max_moves}), not in the win counts: {unfinished}")
    written = any(r.path is not None for r in records)
    lines.append(f"rules {config.rules}, komi {config.komi:g}, {config.size}x{config.size}"
                 + (f"; SGF files in {config.out}" if written else ""))
    return "\n".join(lines)
