"""SGF in and out, through sgfmill: the rest of seog sees ``Game`` objects, never SGF properties.

``load`` replays the main line (the first variation) with captures, suicide and ko checks, and
keeps what scoring needs: size, komi, handicap, rules (RU) and result (RE) as written, the
final board, the prisoners taken by each side, and the territory marks (TB/TW) of the last node
that carries them. With KGS-style marks, a stone inside the other colour's marks is dead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sgfmill import sgf

from seog.features import coords
from seog.features.board import Board, IllegalMove
from seog.features.coords import BLACK, WHITE

COLOR_OF = {"b": BLACK, "w": WHITE}
LETTER_OF = {BLACK: "b", WHITE: "w"}


class SgfError(ValueError):
    """An SGF file that cannot be read or replayed; the message names the problem and where."""


@dataclass
class Game:
    """A game record reduced to what scoring needs.

    Public attributes:
      size, komi, handicap: from SZ, KM, HA (handicap is the count of setup stones if HA is absent).
      rules, result: RU and RE as written ('' when absent).
      board: the final position (dead stones still on it), with ``board.prisoners``.
      moves: the main line as (colour, flat point or None for a pass).
      setup: the root's setup stones as (colour, flat point).
      territory: TB/TW marks as ``{BLACK: set of grid indices, WHITE: ...}`` (empty when unmarked).
      properties: other root properties (PB, PW, BR, WR, DT, ...) as text.
      variations: True when some node has more than one child.
    """

    size: int
    komi: float
    handicap: int
    rules: str
    result: str
    board: Board
    moves: list = field(default_factory=list)
    setup: list = field(default_factory=list)
    territory: dict = field(default_factory=lambda: {BLACK: set(), WHITE: set()})
    properties: dict = field(default_factory=dict)
    variations: bool = False

    @property
    def has_markup(self) -> bool:
        return bool(self.territory[BLACK] or self.territory[WHITE])

    def marked_dead(self) -> np.ndarray:
        """(size, size) bool mask of the stones inside the other colour's territory marks."""
        grid = self.board.grid
        dead = np.zeros(grid.shape, dtype=bool)
        for color in (BLACK, WHITE):
            idx = np.fromiter(self.territory[color], dtype=np.int64)
            if len(idx):
                hit = np.zeros(grid.size, dtype=bool)
                hit[idx] = True
                dead |= hit.reshape(grid.shape) & (grid == -color)
        return dead


def load(path: str | Path) -> Game:
    """Read and replay an SGF file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SgfError(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        return loads(data)
    except SgfError as exc:
        raise SgfError(f"{path.name}: {exc}") from None


_SETUP, _MOVES, _MARKS = {"AB", "AW", "AE"}, {"B", "W"}, {"TB", "TW"}


def loads(data: bytes | str) -> Game:
    """Parse and replay SGF text."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        record = sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        text = str(exc)
        if text.startswith("size out of range"):
            raise SgfError(f"SZ: board size {text.rsplit(' ', 1)[-1]} is not supported "
                           f"(must be {coords.MIN_SIZE}..{coords.MAX_SIZE})") from None
        raise SgfError(f"not a readable SGF file ({text or 'malformed'})") from None
    root = record.get_root()
    size = record.get_size()
    try:
        coords.check_size(size)
    except ValueError as exc:
        raise SgfError(f"SZ: {exc}") from None
    try:
        komi = float(record.get_komi())
    except ValueError:
        komi = _loose_float(_text(root, "KM"))
    handicap_text = _text(root, "HA")

    board = Board(size)
    game = Game(size, komi, 0, _text(root, "RU"), _text(root, "RE"), board)
    for key in ("PB", "PW", "BR", "WR", "DT", "EV", "RO", "PC", "GN", "TM", "OT"):
        if root.has_property(key):
            game.properties[key] = _text(root, key)

    nodes = record.get_main_sequence()
    game.variations = any(len(node) > 1 for node in _walk(root))
    move_number = 0
    for node_number, node in enumerate(nodes):
        # Most nodes hold one move and nothing else: look at the property names first.
        keys = node.get_raw_property_map().keys()
        if not keys.isdisjoint(_SETUP):
            try:
                black, white, empty = node.get_setup_stones()
            except ValueError:
                raise SgfError(f"node {node_number}: bad setup stones") from None
            for color, points in ((BLACK, black), (WHITE, white), (0, empty)):
                for rc in points:
                    point = _flat(rc, size, f"node {node_number}")
                    board.place(color, point)
                    if color and node_number == 0:
                        game.setup.append((color, point))
        move = (None, None)
        if not keys.isdisjoint(_MOVES):
            try:
                move = node.get_move()
            except ValueError:
                raise SgfError(f"move {move_number + 1}: {_bad_move(node, size)}") from None
        if move[0] is not None:
            move_number += 1
            color = COLOR_OF[move[0]]
            point = None if move[1] is None else _flat(move[1], size, f"move {move_number}")
            try:
                board.play(color, point)
            except IllegalMove as exc:
                vertex = coords.to_gtp(point, size)
                raise SgfError(f"move {move_number} ({move[0].upper()} {vertex}) is illegal: {exc}") from None
            game.moves.append((color, point))
        if not keys.isdisjoint(_MARKS):
            game.territory = _territory_marks(node, size)

    game.handicap = _handicap(handicap_text, game.setup)
    return game


def _territory_marks(node, size: int) -> dict:
    """TB/TW marks of a node that has some, as ``{BLACK: set of grid indices, WHITE: ...}``."""
    marks = {BLACK: set(), WHITE: set()}
    for color, key in ((BLACK, "TB"), (WHITE, "TW")):
        if node.has_property(key):
            try:
                points = node.get(key)
            except ValueError:
                raise SgfError(f"bad {key} territory marks") from None
            marks[color] = {coords.flat_to_index(_flat(rc, size, key), size) for rc in points}
    return marks


def _flat(rc, size: int, where: str) -> int:
    """sgfmill's (row from the bottom, col) to a flat point."""
    row, col = rc
    if not (0 <= row < size and 0 <= col < size):
        raise SgfError(f"{where}: point off the {size}x{size} board")
    return coords.to_flat(size - 1 - row, col, size)


def _bad_move(node, size: int) -> str:
    """Why sgfmill refused a node's B/W value: a point off the board, or not a point at all."""
    for key in ("B", "W"):
        if node.has_property(key):
            raw = node.get_raw(key).decode("latin-1")
            if len(raw) == 2 and raw.isalpha():
                return f"{key}[{raw}] is off the {size}x{size} board"
            return f"{key}[{raw}] is not a point"
    return "bad move value"


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n)


def _text(node, key: str) -> str:
    if not node.has_property(key):
        return ""
    try:
        value = node.get(key)
    except ValueError:
        value = node.get_raw(key).decode("utf-8", "replace")
    return str(value).strip()


def _loose_float(text: str) -> float:
    try:
        return float(text) if text else 0.0
    except ValueError:
        raise SgfError(f"KM: komi {text!r} is not a number") from None


def _handicap(text: str, setup: list) -> int:
    if text:
        try:
            value = int(float(text))
        except ValueError:
            raise SgfError(f"HA: handicap {text!r} is not a number") from None
        return value if value >= 2 else 0
    stones = sum(1 for color, _ in setup if color == BLACK)
    has_white = any(color == WHITE for color, _ in setup)
    return stones if stones >= 2 and not has_white else 0


def with_score(game: Game, result: str, territory: dict, comment: str = "") -> bytes:
    """SGF text of ``game`` with its last node carrying RE, the TB/TW marks and a comment.

    The main line is rebuilt from the replayed moves, so the output is always a clean record.
    """
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("KM", game.komi)
    if game.handicap:
        root.set("HA", game.handicap)
    if game.rules:
        root.set("RU", game.rules)
    for key, value in game.properties.items():
        try:
            root.set(key, value)
        except ValueError:
            pass  # a value sgfmill cannot write back (an empty TM[], as old KGS records have) is dropped
    root.set("RE", result)
    if game.setup:
        stones = {BLACK: set(), WHITE: set()}
        for color, point in game.setup:
            stones[color].add(_sgfmill_rc(point, game.size))
        root.set_setup_stones(stones[BLACK], stones[WHITE])
    node = root
    for color, point in game.moves:
        node = node.new_child()
        node.set_move(LETTER_OF[color], None if point is None else _sgfmill_rc(point, game.size))
    if node is root or territory[BLACK] or territory[WHITE] or comment:
        node = node.new_child() if node is not root else node
    for color, key in ((BLACK, "TB"), (WHITE, "TW")):
        pts = {_sgfmill_rc(coords.index_to_flat(i, game.size), game.size) for i in territory[color]}
        if pts:
            node.set(key, pts)
    if comment:
        node.set("C", comment)
    return record.serialise()


def _sgfmill_rc(point: int, size: int) -> tuple[int, int]:
    row, col = coords.from_flat(point, size)
    return size - 1 - row, col
