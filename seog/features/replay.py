"""An SGF record replayed into a ``Game``: what scoring needs of it, never SGF properties.

``load`` and ``loads`` replay the main line (the first variation) with captures, ko checks and
suicide (taken off, and listed for the scorer to judge under the record's rules), and keep size,
komi, handicap, rules (RU) and result (RE) as written, the final board, the prisoners taken by
each side, and the territory marks (TB/TW) of the last node that carries them. What real files
get wrong is read as the servers that wrote them meant it, and said so in ``Game.komi_note``:
Fox's komi in hundredths of a stone (``KM[375]`` is 3.75 stones, 7.5 points).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sgfmill import sgf

from seog import clip
from seog.features import coords
from seog.features.board import Board, IllegalMove
from seog.features.coords import BLACK, WHITE
from seog.features.sgf_read import (
    MAX_BYTES,
    Parsed,
    SgfError,
    all_branches,
    check_go,
    encoding_note,
    main_line,
    parse,
)

MAX_HANDICAP = 9  # the most stones servers give (KGS, IGS, OGS, GTP's fixed_handicap): more is a setup
COLOR_OF = {"b": BLACK, "w": WHITE}
LETTER_OF = {BLACK: "b", WHITE: "w"}


@dataclass
class Game:
    """A game record reduced to what scoring needs.

    Public attributes:
      size, komi, handicap: from SZ, KM, HA (without HA, the black setup stones where they look like a
        handicap: see ``_handicap``).
      rules, result: RU and RE as written ('' when absent).
      board: the final position (dead stones still on it), with ``board.prisoners``.
      moves: the main line as (colour, flat point or None for a pass).
      setup: the setup stones placed before the first move, as (colour, flat point).
      later_setup: setup after a move as (moves played before it, colour or 0 for AE, flat point).
      territory: TB/TW marks as ``{BLACK: set of grid indices, WHITE: ...}`` (empty when unmarked).
      properties: other root properties (PB, PW, BR, WR, DT, ...) as text.
      variations: True when some node has more than one child.
      komi_note: how KM was read when it was not written in points ('' when it was).
      text_note: how the text was read when not as CA says (CA[UTF-8] on Latin-1 bytes; '' else).
      recorded: the players' result: RE, except in a copy seog wrote, whose RE is seog's count
        and whose comment keeps the players' result (so that annotating it again compares with them).
      source: the SGF text the game was read from, as given (None for a game made in code),
        so that annotated copies keep the whole record.
      parsed: the record as parsed (``Parsed``: sgfmill's coarse tree and the encoding to read
        it with), so that the annotated copy is made without parsing the text again.
      suicides: the numbers of the moves that took off their own block (legal under New Zealand
        and Tromp-Taylor rules only: ``seog.scoring.rules.check_suicides``).
    """

    size: int
    komi: float
    handicap: int
    rules: str
    result: str
    board: Board
    moves: list = field(default_factory=list)
    setup: list = field(default_factory=list)
    later_setup: list = field(default_factory=list)
    territory: dict = field(default_factory=lambda: {BLACK: set(), WHITE: set()})
    properties: dict = field(default_factory=dict)
    variations: bool = False
    komi_note: str = ""
    text_note: str = ""
    recorded: str = ""
    source: bytes | str | None = field(default=None, repr=False)
    suicides: list = field(default_factory=list)
    parsed: Parsed | None = field(default=None, repr=False, compare=False)

    def setup_between(self) -> dict[int, list]:
        """``later_setup`` by the number of moves played before it: {n: [(colour or 0, point)]}."""
        out: dict[int, list] = {}
        for before, color, point in self.later_setup:
            out.setdefault(before, []).append((color, point))
        return out

    def move_name(self, number: int, color: int, point: int | None) -> str:
        """How errors name a move: 'move 7 (B B8)'."""
        return f"move {number} ({LETTER_OF[color].upper()} {coords.to_gtp(point, self.size)})"

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
        with path.open("rb") as file:
            data = read_limited(file)
    except OSError as exc:
        raise SgfError(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        return loads(data)
    except SgfError as exc:
        raise SgfError(f"{path.name}: {exc}") from None


def read_limited(stream) -> bytes:
    """The bytes of a binary stream, reading no more than one byte past MAX_BYTES: a file
    too big to be a game is refused by ``loads`` without being read whole."""
    return stream.read(MAX_BYTES + 1)


_SETUP, _MOVES, _MARKS = {"AB", "AW", "AE"}, {"B", "W"}, {"TB", "TW"}


def loads(data: bytes | str) -> Game:
    """Parse and replay SGF text (bytes as stored, or text already decoded). A suicide is taken
    off, as New Zealand and Tromp-Taylor rules have it, and listed in ``Game.suicides``: whether
    the game's rules allow it is for the scorer to say (``seog.scoring.rules.check_suicides``)."""
    tree, encoding = parse(data)
    check_go(tree)
    text_note = encoding_note(tree, encoding)  # before sgfmill sets CA to the encoding it was told
    parsed = Parsed(tree, encoding, tree.sequence[0].get("CA"))
    try:
        record = sgf.Sgf_game.from_coarse_game_tree(tree, encoding)
    except ValueError as exc:
        text = str(exc)
        if text.startswith("size out of range"):
            raise SgfError(f"SZ: board size {clip(text.rsplit(' ', 1)[-1])} is not supported "
                           f"(must be {coords.MIN_SIZE}..{coords.MAX_SIZE})") from None
        if text.startswith("bad SZ"):
            written = tree.sequence[0]["SZ"][0].decode("latin-1")
            raise SgfError(f"SZ: {clip(written)!r} is not a board size") from None
        raise SgfError(f"not a readable SGF file ({clip(text) or 'malformed'})") from None  # CA's value, say
    root = record.get_root()
    size = record.get_size()
    try:
        coords.check_size(size)
    except ValueError as exc:
        raise SgfError(f"SZ: {exc}") from None

    board = Board(size)
    game = Game(size, 0.0, 0, node_text(root, "RU"), node_text(root, "RE"), board, source=data, parsed=parsed)
    game.komi, game.komi_note = read_komi(node_raw(root, "KM"), written_by_fox(root), size)
    game.text_note = text_note
    for key in ("PB", "PW", "BR", "WR", "DT", "EV", "RO", "PC", "GN", "TM", "OT"):
        if root.has_property(key):
            game.properties[key] = node_text(root, key)

    line = list(main_line(tree))
    game.variations = any(len(branch.children) > 1 for branch in all_branches(tree))
    move_number = 0
    before_moves: dict[int, int] = {}  # point -> colour of the setup before the first move
    stones = board.view()
    points = coords.sgf_points(size)
    marked = False  # the territory marks seen so far are standing
    for node_number, properties in enumerate(line):
        # Most nodes hold one move and maybe its time left: look at the property names first,
        # and wrap the node for sgfmill's reading only for what they do not say.
        keys = properties.keys()
        node = None
        if not keys.isdisjoint(_SETUP):
            node = sgf.Node(properties, record.presenter)
            for color, point in _setup_stones(node, size, f"node {node_number}"):
                board.place(color, point)
                if move_number == 0:
                    before_moves.pop(point, None)
                    if color:
                        before_moves[point] = color
                else:
                    game.later_setup.append((move_number, color, point))
        color = point = None
        values = properties.get("B")
        if values is not None:
            if "W" in keys:
                raise SgfError(f"move {move_number + 1}: node {node_number} holds both a B and a W move")
            color = BLACK
        elif (values := properties.get("W")) is not None:
            color = WHITE
        if color is not None:
            # almost every move is two letters on the board; sgfmill reads the rest (a pass, a bad value)
            point = points.get(values[0])
            if point is None:
                node = node or sgf.Node(properties, record.presenter)
                try:
                    rc = node.get_move()[1]
                except ValueError:
                    raise SgfError(f"move {move_number + 1}: {_bad_move(node, size)}") from None
                if rc is not None:
                    point = _flat(rc, size, f"move {move_number + 1}")
            move_number += 1
            try:
                board.play(color, point, suicide=True)
            except IllegalMove as exc:
                raise SgfError(f"{game.move_name(move_number, color, point)} is illegal: {exc}") from None
            game.moves.append((color, point))
            if point is not None and stones[point] == 0:  # its own block was taken off
                game.suicides.append(move_number)
        if not keys.isdisjoint(_MARKS):
            game.territory = _territory_marks(node or sgf.Node(properties, record.presenter), size)
            marked = game.has_markup
        elif marked and point is not None:
            game.territory = {BLACK: set(), WHITE: set()}  # marks left before a stone was played are stale
            marked = False

    game.setup = [(color, point) for point, color in before_moves.items()]
    game.recorded = players_result(sgf.Node(line[-1], record.presenter), game.result)
    game.handicap = _handicap(node_raw(root, "HA"), game.setup, size, game.moves[0][0] if game.moves else None)
    return game


_NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")


def written_by_fox(root) -> bool:
    return root.has_property("AP") and any(b"foxwq" in v.lower() for v in root.get_raw_list("AP"))


def read_komi(text: str, fox: bool, size: int) -> tuple[float, str]:
    """KM as points, and a note when it was not written in points. Fox writes hundredths: of
    points under 200 (``KM[50]`` is 0.5), of stones (two points each) from 200 up when that is
    4 stones or fewer (``KM[375]`` is 7.5); other programs that multiply by 100 (``KM[650]``)
    are caught by size: no komi reaches 150 points."""
    value = _number(text, "KM", "komi")
    note = ""
    if value.is_integer() and (abs(value) >= 150 or (fox and abs(value) >= 25)):
        points = stones = value / 100
        if abs(value) >= 200 and abs(stones) <= 4:
            points = stones * 2
        unit = "a point" if points == stones else f"a stone, 2 points each: {stones:g} stones"
        writer = "Fox writes komi" if fox else "written"
        note = f"KM[{text}] read as komi {points:g} ({writer} in hundredths of {unit})"
        value = points
    if abs(value) > size * size:
        raise SgfError(f"KM: komi {clip(text)} is out of range (-{size * size}..{size * size} points "
                       f"on a {size}x{size} board)")
    return value, note


def _number(text: str, key: str, what: str) -> float:
    """A KM or HA value as written ('' is 0): digits with a point or a comma, and an exponent,
    nothing else (``float`` would take 'nan', 'inf' and '6_5')."""
    if not text:
        return 0.0
    if not _NUMBER.fullmatch(text):
        raise SgfError(f"{key}: {what} {clip(text)!r} is not a number")
    return float(text.replace(",", "."))


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


def _setup_stones(node, size: int, where: str) -> list[tuple[int, int]]:
    """A node's AB, AW and AE as (colour or 0, flat point). A point the node sets twice (AB and
    AW, or AE with either) is refused, as the standard has it: sgfmill keeps both, and the one
    placed last won without a word."""
    try:
        black, white, empty = node.get_setup_stones()
    except ValueError:
        raise SgfError(f"{where}: bad setup stones") from None
    setter: dict[int, str] = {}
    stones = []
    for key, color, points in (("AB", BLACK, black), ("AW", WHITE, white), ("AE", 0, empty)):
        for point in sorted(_flat(rc, size, where) for rc in points):
            if point in setter:
                raise SgfError(f"{where}: {setter[point]} and {key} both set {coords.to_gtp(point, size)}; "
                               "a node may set a point only once")
            setter[point] = key
            stones.append((color, point))
    return stones


def _flat(rc, size: int, where: str) -> int:
    """sgfmill's (row from the bottom, col) to a flat point."""
    if not (0 <= rc[0] < size and 0 <= rc[1] < size):
        raise SgfError(f"{where}: point off the {size}x{size} board")
    return coords.from_sgfmill(rc, size)


def _bad_move(node, size: int) -> str:
    """Why sgfmill refused a node's B/W value: a point off the board, or not a point at all."""
    for key in ("B", "W"):
        if node.has_property(key):
            raw = node.get_raw(key).decode("latin-1")
            if len(raw) == 2 and raw.isalpha():
                return f"{key}[{raw}] is off the {size}x{size} board"
            return f"{key}[{clip(raw)}] is not a point"
    return "bad move value"


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # what terminals and XML must not get


def node_text(node, key: str) -> str:
    """A property's value as text ('' when absent), control characters dropped."""
    if not node.has_property(key):
        return ""
    try:
        value = node.get(key)
    except ValueError:
        value = node.get_raw(key).decode("utf-8", "replace")
    return _CONTROL.sub("", str(value)).strip()


def node_raw(node, key: str) -> str:
    """A property's value as written (sgfmill would read KM[6_5] as 65)."""
    return node.get_raw(key).decode("latin-1").strip() if node.has_property(key) else ""


def _handicap(text: str, setup: list, size: int, first_mover: int | None) -> int:
    """HA when the file has it (below 2 is no handicap: HA[1] is an even game without komi).
    Without HA, the black setup stones when they look like a handicap as servers place it: 2 to
    9 black stones, no white ones, and White moving first. Anything else is a setup position (a
    problem, a board set up by hand), whose 80 stones were counted as 80 points under area rules."""
    if text:
        value = _number(text, "HA", "handicap")
        if not value.is_integer():
            raise SgfError(f"HA: handicap {clip(text)!r} is not a whole number")
        if value > size * size:
            raise SgfError(f"HA: handicap {clip(text)} is more stones than the {size}x{size} board holds")
        return int(value) if value >= 2 else 0
    stones = sum(1 for color, _ in setup if color == BLACK)
    has_white = any(color == WHITE for color, _ in setup)
    plausible = 2 <= stones <= MAX_HANDICAP and not has_white and first_mover == WHITE
    return stones if plausible else 0


SEOG_COMMENT = "seog:"  # how seog's own comments start (comment() in seog.scoring.annotated)


_RECORDED = re.compile(r"Recorded result: (.+?)\.(?= |$)")


def players_result(last, result: str) -> str:
    """The game's result as its players recorded it. A copy seog wrote carries seog's count in RE
    and the players' result in its own comment (none there: they recorded none), so that
    annotating a copy again still compares with the players."""
    if last.get_move()[0] is not None or not node_text(last, "C").startswith(SEOG_COMMENT):
        return result
    found = _RECORDED.search(node_text(last, "C"))
    return found.group(1) if found else ""
