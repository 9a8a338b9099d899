"""seog as a GTP version 2 engine that referees: it follows the moves of a game and scores the end.

``Referee`` holds the game (board, moves, komi, rules, handicap) and answers in Python;
``GtpReferee`` puts the Go Text Protocol in front of it (``handle(line) -> reply``) and ``serve``
runs it on a pair of streams, so match runners can use ``seog gtp`` as their referee.
Every failure becomes a ``? message`` reply: no input line ends the conversation except ``quit``.

Private commands (prefix ``seog-``): ``seog-rules [NAME]`` (``kgs-rules NAME`` is accepted too,
as KGS servers send it to engines), ``seog-score`` (the scored board as text) and
``seog-score-json`` (the JSON object of ``seog score --json`` on one line).
GNU Go's reading commands (``attack``, ``defend``, ``trymove``/``popgo``...) come from
``seog.gtp.reading``, its life-and-death commands (``owl_attack``, ``owl_defend``,
``owl_does_attack``/``owl_does_defend``, ``dragon_status``) from ``seog.gtp.life``; ``loadsgf`` answers the side to move, as GNU Go's does.

``final_score`` answers in the standard form (``= B+3.5``) even when the position is not a
finished one; that its count is then an estimate, and why, goes to the log (standard error).
Under rules without superko (Japanese, Korean) a game that made one position for the third time
went round a ko cycle: it has no result, and ``final_score`` answers ``Void`` (SGF's RE for it).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from typing import BinaryIO, TextIO

import numpy as np

from seog import installed_version
from seog.features import coords
from seog.features.board import Board, IllegalMove, IllegalPosition
from seog.features.coords import BLACK, WHITE
from seog.gtp.eyes import eval_eye
from seog.gtp.life import LifeCommands
from seog.gtp.protocol import GtpFailure, parse_color, vertex
from seog.gtp.reading import ReadingCommands
from seog.gtp.semeai import analyze_semeai_reply
from seog.scoring.request import ScoreRequest, from_board
from seog.scoring.rules import Rules, UnknownRules, check_suicides, get_rules, parse_komi, sgf_rules

DEFAULT_MODEL = "default"
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")
STATUSES = ("alive", "dead", "seki")


def handicap_points(size: int, stones: int) -> list[int]:
    """Flat points of the fixed handicap placement of the GTP specification (4-4 points from 13x13)."""
    if size < 7:
        raise GtpFailure("invalid number of stones (no fixed handicap below 7x7)")
    limit = 4 if size % 2 == 0 or size == 7 else 9
    if not 2 <= stones <= limit:
        raise GtpFailure(f"invalid number of stones (2..{limit} on {size}x{size})")
    lo = 3 if size >= 13 else 2
    hi, mid = size - 1 - lo, size // 2
    # (row, col), row 0 at the top: lower-left, upper-right, upper-left, lower-right,
    # then the side points, then the centre (which goes in for odd counts).
    corners = [(hi, lo), (lo, hi), (lo, lo), (hi, hi)]
    sides = [(mid, lo), (mid, hi), (hi, mid), (lo, mid)]
    centre = (mid, mid)
    chosen = corners[:min(stones, 4)]
    if stones >= 5:
        if stones % 2:
            chosen.append(centre)
        chosen += sides[:(stones - 4) // 2 * 2]
    return [coords.to_flat(r, c, size) for r, c in chosen]


class Referee:
    """The state of the refereed game: a board with its moves, komi, rules and handicap.

    ``komi`` None means the rules' komi for the game (``effective_komi``). ``model`` is passed on to the scorer
    ('default' for the shipped model, None for the static pass and heuristic alone).
    ``own_rules`` are the rules the referee was given (``--rules``, ``seog-rules``); ``rules``
    those of the game on the board: a loaded file's RU holds for that game only.
    """

    def __init__(self, size: int = 19, *, komi: float | None = None, rules: Rules | str = "japanese",
                 model=DEFAULT_MODEL) -> None:
        self.own_rules = get_rules(rules) if isinstance(rules, str) else rules
        self.komi = komi
        self.model = model
        self.size = coords.check_size(size)
        self.clear()

    # ---- state ------------------------------------------------------------------------
    def clear(self) -> None:
        """An empty board, no moves, no handicap, the referee's own rules."""
        self.rules = self.own_rules
        self.board = Board(self.size)
        self.moves: list[tuple[int, int | None]] = []
        self.setup: list[tuple[int, int]] = []
        self.handicap = 0
        self.to_move = BLACK  # the side to move: after the last move, or as a loaded file says
        self._history: list[Board] = []
        # Superko: how often each (stones, side to move) has occurred, the start and every move on
        # the board (a pass adds none); per move the key it added (None for a pass), for undo.
        self._seen: Counter = Counter()
        self._keys: list[tuple[bytes, int] | None] = []
        self._cached = None

    def set_size(self, size: int) -> None:
        self.size = coords.check_size(size)
        self.clear()

    @property
    def effective_komi(self) -> float:
        """The komi set, or without one the rules' even-game komi, 0.5 with handicap stones
        (``Rules.komi_for``: the API's board and ``seog score`` read a missing komi the same way)."""
        return self.rules.komi_for(self.handicap) if self.komi is None else float(self.komi)

    def play(self, color: int, point: int | None, *, superko: bool = True) -> int:
        """Play a move (None passes); return the stones it captured. Raises IllegalMove, also for
        a move the rules' superko forbids (unless ``superko`` is False: a recorded game is
        replayed as played, its positions still remembered)."""
        before = self.board.copy()
        captured = self.board.play(color, point, self.rules.suicide)
        if not self._seen:  # the position the game starts from: empty, handicap, setup stones, or a loaded end
            self._seen = Counter({(before.grid.tobytes(), color): 1})
        key = None if point is None else (self.board.grid.tobytes(), -color)
        if key and superko and self._repeats(key):
            self.board = before
            raise IllegalMove(f"it repeats an earlier position, against {self.rules.superko} superko")
        if key:
            self._seen[key] += 1
        self._keys.append(key)
        self._history.append(before)
        self.moves.append((color, point))
        self.to_move = -color
        self._cached = None
        return captured

    def _repeats(self, key: tuple[bytes, int]) -> bool:
        """Would the position ``key`` (stones, side to move) break the rules' superko?"""
        stones, _ = key
        if self.rules.superko == "positional":
            return self._seen[(stones, BLACK)] + self._seen[(stones, WHITE)] > 0
        return self.rules.superko == "situational" and self._seen[key] > 0

    @property
    def void(self) -> bool:
        """Has the game no result: under rules without superko (Japanese, Korean), a position made
        for the third time with the same side to move (a triple ko or another cycle that neither
        side broke)?"""
        return self.rules.superko == "none" and max(self._seen.values(), default=0) >= 3

    def repetitions(self) -> int:
        """How often the current position, with the same side to move, has occurred in the game
        (the start and moves on the board); 0 after a pass or a position loaded without its moves."""
        key = self._keys[-1] if self._keys else None
        return self._seen[key] if key else 0

    def undo(self) -> None:
        if not self._history:
            raise GtpFailure("cannot undo")
        self.board = self._history.pop()
        self.to_move = self.moves.pop()[0]
        key = self._keys.pop()
        if key and self._seen[key] > 0:  # not when a setup node in between started superko again
            self._seen[key] -= 1
        if not self.moves:
            self._seen.clear()  # back at the start, which may still change (handicap stones)
        self._cached = None

    def place_handicap(self, points: list[int]) -> None:
        """Put Black's handicap stones on an empty board."""
        if self.moves or np.any(self.board.grid != 0):
            raise GtpFailure("board not empty")
        for point in points:
            self.board.place(BLACK, point)
            self.setup.append((BLACK, point))
        self.handicap = len(points)
        self.to_move = WHITE
        self._cached = None

    def load(self, game, move_number: int | None = None) -> None:
        """Take a loaded SGF ``Game``: its size, komi, handicap, setup and the moves before
        ``move_number`` (all of them when None). Its rules too, when RU names rules seog knows.
        The side to move is the colour of move ``move_number`` when the record has it (as GNU Go
        sets it), else the other side of the last move played.

        Setup nodes between moves are placed where they stand. Raises GtpFailure, leaving the
        current game as it was, when the moves before ``move_number`` cannot be replayed."""
        saved = dict(self.__dict__)
        try:
            self._load(game, move_number)
        except IllegalMove as exc:
            self.__dict__.update(saved)
            raise GtpFailure(f"cannot load file: its moves cannot be replayed here ({exc})") from None

    def _load(self, game, move_number: int | None) -> None:
        self.size = game.size
        self.clear()
        self.komi = game.komi
        if game.rules:  # rules seog does not know leave the referee's own
            self.rules = sgf_rules(game.rules) or self.rules
        for color, point in game.setup:
            self.board.place(color, point)
        self.setup = list(game.setup)
        self.handicap = game.handicap
        moves = game.moves if move_number is None else game.moves[:max(move_number - 1, 0)]
        later = game.setup_between()
        try:
            for number, (color, point) in enumerate(moves):
                self._place_setup(later.get(number, ()))
                self.play(color, point, superko=False)
            if move_number is None:
                self._place_setup(later.get(len(moves), ()))
            replayed = np.array_equal(self.board.grid, game.board.grid)
        except IllegalMove:
            if move_number is not None:
                raise
            replayed = False
        if move_number is not None and move_number <= len(game.moves):
            self.to_move = game.moves[move_number - 1][0]
        elif moves:
            self.to_move = -moves[-1][0]
        elif game.handicap:
            self.to_move = WHITE
        if move_number is None and not replayed:
            # A record this board cannot replay: only its final position is kept, with no undo.
            self.board = game.board.copy()
            self.moves = list(game.moves)
            self._history.clear()
            self._keys.clear()
            self._seen.clear()
        self._cached = None

    def _place_setup(self, stones) -> None:
        """Setup stones of a recorded game between its moves: the position changes, and superko
        starts again from it (as it does from a loaded end position)."""
        if not stones:
            return
        for color, point in stones:
            self.board.place(color, point)
        self._seen.clear()  # the next move records the new start

    # ---- scoring ----------------------------------------------------------------------
    def score(self):
        """The ``Score`` of the current position (computed once per position)."""
        if self._cached is None:
            from seog.scoring.score import score
            self._cached = score(self.request(), self.model)
        return self._cached

    def request(self) -> ScoreRequest:
        """The current position as a scoring request: the board, the game's rules, komi, handicap
        and prisoners."""
        return from_board(self.board, rules=self.rules, komi=self.effective_komi, handicap=self.handicap,
                          prisoners=self.board.prisoners)

    def dead(self) -> np.ndarray:
        """Grid indices of the stones the count takes off as dead (none under Tromp-Taylor, which
        counts every stone: ``scoring.count.as_counted``), so that what is reported is what is counted."""
        return np.sort(self.score().dead)

    def status_list(self, status: str) -> list[list[int]]:
        """Blocks (as sorted grid indices) whose final status is ``alive``, ``dead`` or ``seki``,
        as counted: under Tromp-Taylor no block is dead."""
        score = self.score()
        seki = {int(i) for i in score.seki}
        out = []
        for block in score.blocks:
            points = sorted(int(i) for i in block.points)
            in_seki = points[0] in seki
            kind = "dead" if not block.alive else ("seki" if in_seki else "alive")
            if kind == status:
                out.append(points)
        out.sort(key=lambda pts: (pts[0] // self.size, pts[0] % self.size))
        return out


class GtpReferee:
    """The GTP front of a ``Referee``: one input line in, one reply (with its blank line) out."""

    def __init__(self, referee: Referee | None = None, *, name: str = "seog", version: str | None = None,
                 log: TextIO | None = None) -> None:
        self.referee = referee or Referee()
        self.log = log  # where notes outside the protocol go; None: standard error
        self.name = name
        self.version = version or installed_version()
        self.done = False
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: self.name,
            "version": lambda a: self.version,
            "known_command": self._known_command,
            "list_commands": lambda a: "\n".join(self.commands),
            "quit": self._quit,
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "undo": self._undo,
            "fixed_handicap": self._fixed_handicap,
            "set_free_handicap": self._set_free_handicap,
            "loadsgf": self._loadsgf,
            "showboard": self._showboard,
            "final_score": self._final_score,
            "final_status_list": self._final_status_list,
            "seog-rules": self._rules,
            "kgs-rules": self._rules,
            "seog-score": self._seog_score,
            "seog-score-json": self._seog_score_json,
            "eval_eye": lambda a: eval_eye(self.referee, a),
            "analyze_semeai": lambda a: analyze_semeai_reply(self.referee, a),
        }
        self.reading = ReadingCommands(self)
        self.commands.update(self.reading.table())
        self.commands.update(LifeCommands(self).table())

    # ---- protocol ---------------------------------------------------------------------
    def handle(self, line: str) -> str | None:
        """The reply to one input line, ending with a blank line; None for a line with no command."""
        text = _CONTROL.sub("", line.replace("\t", " ").replace("\n", "")).split("#", 1)[0].strip()
        if not text:
            return None
        words = text.split()
        ident = ""
        if re.fullmatch("[0-9]{1,18}", words[0]):
            ident = str(int(words[0]))
            words = words[1:]
            if not words:
                return f"?{ident} syntax error: an id without a command\n\n"
        name, args = words[0].lower(), words[1:]
        command = self.commands.get(name)
        if command is None:
            return f"?{ident} unknown command\n\n"
        try:
            result = command(args)
        except GtpFailure as exc:
            return f"?{ident} {_one_block(str(exc))}\n\n"
        except Exception as exc:  # noqa: BLE001 - a referee must answer, whatever went wrong
            return f"?{ident} internal error in {name}: {_one_block(str(exc)) or type(exc).__name__}\n\n"
        result = _one_block(result)
        return f"={ident} {result}\n\n" if result else f"={ident}\n\n"

    def serve(self, stdin: BinaryIO | TextIO, stdout: TextIO) -> None:
        """Answer commands from ``stdin`` until ``quit`` or the end of input."""
        for raw in stdin:
            line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            reply = self.handle(line)
            if reply is None:
                continue
            try:
                stdout.write(reply)
                stdout.flush()
            except (BrokenPipeError, OSError):
                return
            if self.done:
                return

    # ---- commands ---------------------------------------------------------------------
    def _known_command(self, args: list[str]) -> str:
        _need(args, 1, "known_command NAME")
        return "true" if args[0].lower() in self.commands else "false"

    def _quit(self, args: list[str]) -> str:
        self.done = True
        return ""

    def _boardsize(self, args: list[str]) -> str:
        _need(args, 1, "boardsize SIZE")
        size = _int(args[0], "boardsize SIZE")
        if not coords.MIN_SIZE <= size <= coords.MAX_SIZE:
            raise GtpFailure("unacceptable size")
        self.referee.set_size(size)
        self.reading.reset()
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.referee.clear()
        self.reading.reset()
        return ""

    def _komi(self, args: list[str]) -> str:
        _need(args, 1, "komi FLOAT")
        try:
            value = parse_komi(args[0])
        except ValueError as exc:
            raise GtpFailure(f"syntax error: {exc}") from None
        self.referee.komi = value
        self.referee._cached = None
        return ""

    def _play(self, args: list[str]) -> str:
        _need(args, 2, "play COLOUR VERTEX")
        color = parse_color(args[0])
        point = self._vertex(args[1])
        try:
            self.referee.play(color, point)
        except IllegalMove:
            raise GtpFailure("illegal move") from None
        return ""

    def _undo(self, args: list[str]) -> str:
        self.referee.undo()
        return ""

    def _fixed_handicap(self, args: list[str]) -> str:
        _need(args, 1, "fixed_handicap NUMBER")
        points = handicap_points(self.referee.size, _int(args[0], "fixed_handicap NUMBER"))
        self.referee.place_handicap(points)
        return " ".join(coords.to_gtp(p, self.referee.size) for p in points)

    def _set_free_handicap(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpFailure("bad vertex list (at least two stones)")
        points = []
        for word in args:
            try:
                point = coords.from_gtp(word, self.referee.size)
            except coords.CoordinateError as exc:
                raise GtpFailure(f"bad vertex list ({exc})") from None
            if point is None or point in points:
                raise GtpFailure(f"bad vertex list ({word} repeated or a pass)")
            points.append(point)
        if len(points) >= self.referee.size ** 2:
            raise GtpFailure("bad vertex list (the board would be full)")
        self.referee.place_handicap(points)
        return ""

    def _loadsgf(self, args: list[str]) -> str:
        from seog.features import sgf
        _need(args, 1, "loadsgf FILE [MOVENUMBER]")
        number = _int(args[1], "loadsgf FILE [MOVENUMBER]") if len(args) > 1 else None
        if number is not None and number < 1:
            raise GtpFailure(f"syntax error: the move number is 1 or more, not {number}")
        try:
            game = check_suicides(sgf.load(args[0]), self.referee.own_rules)  # where RU does not say
        except sgf.SgfError as exc:
            raise GtpFailure(f"cannot load file: {exc}") from None
        self.referee.load(game, number)
        self.reading.reset()
        return coords.COLOR_NAMES[self.referee.to_move]  # as GNU Go answers: the side to move

    def _showboard(self, args: list[str]) -> str:
        ref = self.referee
        size = ref.size
        letters = "   " + " ".join(coords.GTP_COLUMNS[:size])
        chars = {BLACK: "X", WHITE: "O", 0: "."}
        lines = [letters]
        for r, row in enumerate(ref.board.grid):
            number = size - r
            lines.append(f"{number:>2} " + " ".join(chars[int(v)] for v in row) + f" {number}")
        lines.append(letters)
        lines.append(f"captured by Black (X): {ref.board.prisoners[BLACK]}, by White (O): "
                     f"{ref.board.prisoners[WHITE]}; komi {ref.effective_komi:g}, rules {ref.rules.name}"
                     + (f", handicap {ref.handicap}" if ref.handicap else ""))
        return "\n" + "\n".join(lines)

    def _final_score(self, args: list[str]) -> str:
        if self.referee.void:
            print(f"seog: final_score Void: a position was made for the third time (a ko cycle), no result "
                  f"under {self.referee.rules.name} rules", file=self.log or sys.stderr, flush=True)
            return "Void"
        score = self._score()
        if not score.finished:
            print(f"seog: final_score {score.result} is an estimate: not finished ({score.unfinished})",
                  file=self.log or sys.stderr, flush=True)
        return score.result

    def _final_status_list(self, args: list[str]) -> str:
        _need(args, 1, "final_status_list alive|dead|seki")
        status = args[0].lower()
        if status not in STATUSES:
            raise GtpFailure(f"syntax error: status must be alive, dead or seki, not {args[0]!r}")
        self._score()
        size = self.referee.size
        return "\n".join(" ".join(coords.index_to_gtp(i, size) for i in block)
                         for block in self.referee.status_list(status))

    def _rules(self, args: list[str]) -> str:
        if not args:
            return self.referee.rules.name
        try:
            self.referee.rules = self.referee.own_rules = get_rules(" ".join(args))
        except UnknownRules as exc:
            raise GtpFailure(str(exc)) from None
        self.referee._cached = None
        return ""

    def _seog_score(self, args: list[str]) -> str:
        from seog.scoring.text import render
        score = self._score()
        return "\n" + render(self.referee.board.grid, score)

    def _seog_score_json(self, args: list[str]) -> str:
        from seog.scoring.report import to_dict
        return json.dumps(to_dict(self._score()))

    # ---- helpers ----------------------------------------------------------------------
    def _score(self):
        try:
            return self.referee.score()
        except (IllegalPosition, ValueError) as exc:
            raise GtpFailure(f"cannot score: {exc}") from None

    def _vertex(self, word: str) -> int | None:
        return vertex(word, self.referee.size)


def _need(args: list[str], count: int, usage: str) -> None:
    if len(args) < count:
        raise GtpFailure(f"syntax error: usage {usage}")


def _int(word: str, usage: str) -> int:
    if not _INTEGER.fullmatch(word):
        raise GtpFailure(f"syntax error: {word!r} is not an integer (usage {usage})")
    return int(word)


def _one_block(text: str) -> str:
    """Reply text without empty lines inside (an empty line ends a GTP reply)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text.strip()
    head, rest = lines[0].strip(), [ln.rstrip() for ln in lines[1:] if ln.strip()]
    return "\n".join([head] + rest)


def main(stdin=None, stdout=None, **referee_options) -> int:
    """Run the referee on the process's standard streams."""
    server = GtpReferee(Referee(**referee_options))
    out = stdout or sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="replace")  # a byte echoed back never ends the conversation on an ASCII terminal
    server.serve(stdin or sys.stdin.buffer, out)
    return 0
