"""SGF in and out: the rest of seog sees ``Game`` objects, never SGF properties.

The text is read into sgfmill's coarse tree (nodes as lists of raw values) by seog's own reader
and written back from it by seog's own writer, each the same as sgfmill's to the byte
(``parse_collection``, ``serialise``) and faster; sgfmill reads and writes the values.

``load`` replays the main line (the first variation) with captures, ko checks and suicide (taken
off where the record's rules allow it, New Zealand and Tromp-Taylor; refused elsewhere), and
keeps what scoring needs: size, komi, handicap, rules (RU) and result (RE) as written, the
final board, the prisoners taken by each side, and the territory marks (TB/TW) of the last node
that carries them. With KGS-style marks, a stone inside the other colour's marks is dead.

What real files get wrong is read as the servers that wrote them meant it, and said so in
``Game.komi_note``: Fox's komi in hundredths of a stone (``KM[375]`` is 3.75 stones, 7.5
points), UTF-8 text without ``CA`` or labelled gb2312. A file holding several games is refused,
so that none is silently dropped.

``with_score`` writes a scored copy: the record the game was read from (kept in ``Game.source``),
in UTF-8, with seog's RE, marks and comment added, so comments, times and variations survive.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from sgfmill import sgf, sgf_grammar, sgf_properties

from seog import clip
from seog.features import coords
from seog.features.board import Board, IllegalMove
from seog.features.coords import BLACK, WHITE

MAX_HANDICAP = 9  # the most stones servers give (KGS, IGS, OGS, GTP's fixed_handicap): more is a setup
# What a file may hold, checked before any tree is built (``_check_limits``): real games are
# under 100 KB, with at most ~420 nodes and a few thousand property values.
MAX_BYTES = 4 * 1024 * 1024
MAX_NODES = 10_000  # each costs sgfmill a node object
MAX_VALUES = 100_000  # property values (and as many property names); each costs sgfmill a token
COLOR_OF = {"b": BLACK, "w": WHITE}
LETTER_OF = {BLACK: "b", WHITE: "w"}


class SgfError(ValueError):
    """An SGF file that cannot be read or replayed; the message names the problem and where."""


@dataclass(frozen=True)
class Parsed:
    """A record as parsed: sgfmill's coarse tree, the encoding its values are read with (None:
    the one CA declares) and the root's CA as written. Reading a game leaves the tree as parsed
    but for that CA (sgfmill sets it to the encoding it was told), which ``copy`` puts back."""

    tree: sgf_grammar.Coarse_game_tree
    encoding: str | None
    ca: list | None

    def copy(self, values: Callable[[str, list], list]) -> sgf_grammar.Coarse_game_tree:
        """A copy of the tree as parsed, to change freely: new trees, nodes and value lists, each
        what ``values(key, values)`` makes of a node's."""
        top = self._branches(lambda nodes: [{key: values(key, vs) for key, vs in node.items()} for node in nodes])
        self._put_ca(top.sequence[0], None if self.ca is None else values("CA", self.ca))
        return top

    def branches(self) -> sgf_grammar.Coarse_game_tree:
        """A copy of the tree's branches that shares its nodes (each a dict of value lists) but
        the root, whose CA is put back as ``copy`` does: for a caller that replaces the other
        nodes it changes rather than changing them. Copying every node costs a third as much
        as writing the record."""
        top = self._branches(list)
        top.sequence[0] = dict(top.sequence[0])
        self._put_ca(top.sequence[0], None if self.ca is None else list(self.ca))
        return top

    def _branches(self, nodes: Callable[[list], list]) -> sgf_grammar.Coarse_game_tree:
        """The tree's branches copied, each sequence of nodes as ``nodes`` makes it; a stack, not
        recursion, for deeply nested variations."""
        top = sgf_grammar.Coarse_game_tree()
        stack = [(self.tree, top)]
        while stack:
            tree, into = stack.pop()
            into.sequence = nodes(tree.sequence)
            for child in tree.children:
                copied = sgf_grammar.Coarse_game_tree()
                into.children.append(copied)
                stack.append((child, copied))
        return top

    @staticmethod
    def _put_ca(root: dict, ca: list | None) -> None:
        """The root's CA as the file wrote it (in its place: the copy writes the root as read),
        or none where the file had none."""
        if ca is None:
            root.pop("CA", None)
        else:
            root["CA"] = ca


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
    tree, encoding = _parse(data)
    _check_go(tree)
    text_note = _text_note(tree, encoding)  # before sgfmill sets CA to the encoding it was told
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
    game = Game(size, 0.0, 0, _text(root, "RU"), _text(root, "RE"), board, source=data, parsed=parsed)
    game.komi, game.komi_note = _komi(_raw(root, "KM"), _from_fox(root), size)
    game.text_note = text_note
    for key in ("PB", "PW", "BR", "WR", "DT", "EV", "RO", "PC", "GN", "TM", "OT"):
        if root.has_property(key):
            game.properties[key] = _text(root, key)

    line = list(_main_line(tree))
    game.variations = any(len(branch.children) > 1 for branch in _branches(tree))
    move_number = 0
    before_moves: dict[int, int] = {}  # point -> colour of the setup before the first move
    stones = board.view()
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
            raw = values[0]
            # almost every move is two letters on the board; sgfmill reads the rest (a pass, a bad value)
            if len(raw) == 2 and 0 <= (col := raw[0] - 97) < size and 0 <= (row := raw[1] - 97) < size:
                point = (row + 1) * (size + 2) + col + 1  # coords.to_flat
            else:
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
    game.recorded = _players_result(sgf.Node(line[-1], record.presenter), game.result)
    game.handicap = _handicap(_raw(root, "HA"), game.setup, size, game.moves[0][0] if game.moves else None)
    return game


def _parse(data: bytes | str):
    """The one game tree of SGF text (sgfmill's coarse tree, values as written) and the
    encoding to read its values with (None: the one ``CA`` declares)."""
    from_text = isinstance(data, str)
    if from_text:
        data = data.encode("utf-8", "surrogatepass")
    _check_limits(data)
    try:
        games = parse_collection(data)
    except ValueError as exc:
        raise SgfError(f"not a readable SGF file ({_parse_message(exc)}){_utf16_hint(data)}") from None
    if len(games) > 1:
        raise SgfError(f"the file holds {len(games)} games; seog scores one game per file "
                       "(split the collection first)")
    return games[0], _encoding(games[0], data, from_text)


# A property value as sgfmill's tokeniser reads it, between its brackets: no unescaped ']'.
_VALUE_TEXT = rb"[^\\\]]*(?:\\.[^\\\]]*)*"
# A token as sgfmill's tokeniser reads it: (move colour, move value) for a node that holds
# one B or W value and nothing else (most of a record), else a value, a name, a delimiter, or
# "other": a byte that starts no token, where sgfmill stops reading.
_VALUE = rb"\[(" + _VALUE_TEXT + rb")\]"
_TREE_TOKEN = re.compile(rb"\s*(?:;\s*([BW])\s*" + _VALUE + rb"(?=\s*[;()])|" + _VALUE
                         + rb"|([A-Za-z]{1,64})|([;()])|(.))", re.DOTALL)
_LOWER = bytes(range(ord("a"), ord("z") + 1))
FAST_PARSE_BYTES = 1 << 16  # above this (a record with long commentary), sgfmill's own reader


def parse_collection(data: bytes) -> list[sgf_grammar.Coarse_game_tree]:
    """The game trees of SGF bytes, exactly as ``sgf_grammar.parse_sgf_collection`` reads them
    (the same trees, the same errors), from one regular-expression pass that reads a move's
    node as one token, instead of a match per token: a third of the time. The pass holds every
    token of the file at once, so files over ``FAST_PARSE_BYTES`` go to sgfmill, which stops
    where a game does."""
    if len(data) > FAST_PARSE_BYTES:
        return sgf_grammar.parse_sgf_collection(data)
    games: list = []
    position = 0
    while (start := _GAME_START.search(data, position)) is not None:
        try:
            tree, position = _parse_game(data, start.start())
        except ValueError as exc:
            raise ValueError(f"error parsing game {len(games)}: {exc}") from None
        games.append(tree)
        if position is None:  # nothing but blanks after it
            break
    if not games:
        raise ValueError("no SGF data found")
    return games


def _parse_game(data: bytes, start: int) -> tuple[sgf_grammar.Coarse_game_tree, int | None]:
    """One game tree from its '(' at ``start`` and where its text ends (None: only blanks
    follow). The tree is built as sgfmill builds it from its tokens, with its messages."""
    tokens = _TREE_TOKEN.findall(data, start)
    stack: list = []
    tree = sequence = properties = None
    name, values = None, []  # the property whose values are being read
    for index, (move, point, value, ident, delimiter, other) in enumerate(tokens):
        if other:
            break  # sgfmill's tokens end here
        if not (move or ident or delimiter):  # a value (possibly empty)
            if name is None:
                raise ValueError("unexpected value")
            values.append(value)
            continue
        if name is not None:
            _add_property(properties, name, values)
            name = None
        if move:  # a node and its move
            if sequence is None:
                raise ValueError("unexpected node")
            properties = {move.decode(): [point]}
            sequence.append(properties)
        elif ident:
            name, values = ident.translate(None, _LOWER).decode("ascii"), []
        elif delimiter == b";":
            if sequence is None:
                raise ValueError("unexpected node")
            properties = {}
            sequence.append(properties)
        else:
            if sequence is not None:
                if not sequence:
                    raise ValueError("empty sequence")
                tree.sequence = sequence
                sequence = None
            if delimiter == b"(":
                stack.append(tree)
                tree, sequence = sgf_grammar.Coarse_game_tree(), []
            else:
                variation, tree = tree, stack.pop()
                if tree is None:
                    rest = tokens[index + 1:]
                    if not rest or len(rest) == 1 and rest[0][5].isspace():  # blanks to the end
                        return variation, None
                    return variation, sgf_grammar.tokenise(data, start)[1]
                tree.children.append(variation)
            properties = None
    raise ValueError("unexpected end of SGF data")


def _add_property(properties: dict | None, name: str, values: list) -> None:
    """A property read (``_parse_game``), as sgfmill adds it to its node."""
    if not values:
        raise ValueError("property with no values")
    if properties is None:
        raise ValueError("property value outside a node")
    if name in properties:
        properties[name] += values
    else:
        properties[name] = values


def _check_go(coarse) -> None:
    """Refuse a record of another game than Go (``GM`` other than 1): sgfmill reads any SGF, and
    a chess record was scored as a game of Go. A file without GM (or an empty one) is Go, the
    standard's default."""
    written = coarse.sequence[0].get("GM", [b"1"])[0].decode("latin-1").strip()
    if written and written.lstrip("0") != "1":
        raise SgfError(f"GM[{clip(written)}]: the record is not of a game of Go (GM[1]); seog scores only Go")


# One token as sgfmill's tokeniser reads it (``sgf_grammar._tokenise_re``): a value, a property
# name or a delimiter. Each ends in a byte that tells which: ']', a letter, or ';', '(' or ')'.
_TOKEN = re.compile(rb"\s*(?:\[" + _VALUE_TEXT + rb"\]|[A-Za-z]{1,64}|[;()])", re.DOTALL)
_GAME_START = re.compile(rb"\(\s*;")  # where sgfmill starts reading a game
_SEMICOLON, _OPEN, _CLOSE, _BRACKET = b";()]"


def _check_limits(data: bytes) -> None:
    """Refuse a file over MAX_BYTES, MAX_NODES or MAX_VALUES before sgfmill reads it: sgfmill
    keeps every token and node of the whole file (a 10 MB file of short variations costs it
    seconds and a gigabyte). Tokens are counted as sgfmill reads them (games, values with their
    escapes, the end of each game), stopping as soon as a limit is passed."""
    if len(data) > MAX_BYTES:
        # ``read_limited`` stops one byte past the limit: the size is known only beyond that
        size = f"{len(data):,} bytes, " if len(data) > MAX_BYTES + 1 else ""
        raise SgfError(f"the file is {size}more than the {MAX_BYTES:,} bytes ({MAX_BYTES >> 20} MiB) "
                       "seog reads (a real game is under 100 KB)")
    if len(data) <= 2 * MAX_VALUES and data.count(b";") <= MAX_NODES and data.count(b"(") <= MAX_NODES:
        # A file this small holds at most MAX_VALUES values (2 bytes each or more) and names (each
        # parted from the next by a byte), and its ';' and '(' bound its nodes and variations.
        return
    nodes = values = names = trees = 0
    match = _TOKEN.match
    start = _GAME_START.search(data)
    while start:
        position, depth = start.start(), 0
        while (token := match(data, position)) is not None:
            position = token.end()
            last = data[position - 1]
            if last == _BRACKET:
                values += 1
                if values > MAX_VALUES:
                    raise SgfError(f"the file has more than {MAX_VALUES} property values; at most "
                                   f"{MAX_VALUES} are read (a real game has a few thousand)")
            elif last == _SEMICOLON:
                nodes += 1
                if nodes > MAX_NODES:
                    nodes += _nodes_in(data[position:])
                    raise SgfError(f"the record has {nodes} nodes; at most {MAX_NODES} are read "
                                   "(a real game has a few hundred)")
            elif last == _OPEN:
                depth += 1
                trees += 1
                if trees > MAX_NODES + 1:  # each variation opens with a node: more is not SGF
                    raise SgfError(f"the file has more than {MAX_NODES} variations; at most "
                                   f"{MAX_NODES} are read (a real game has a few)")
            elif last == _CLOSE:
                depth -= 1
                if depth == 0:
                    break
            else:
                names += 1
                if names > MAX_VALUES:  # each property has a value: more is not SGF
                    raise SgfError(f"the file has more than {MAX_VALUES} property names; at most "
                                   f"{MAX_VALUES} are read (a real game has a few thousand)")
        if depth:
            return  # sgfmill stops reading here too, and says why
        start = _GAME_START.search(data, position)


def _nodes_in(data: bytes) -> int:
    """The ';' of ``data`` outside property values, counted at array speed, for the message of a
    file over MAX_NODES. Escapes undone, a ';' is inside a value exactly when the last bracket
    before it is a '[' (a value runs from a '[' outside to the next ']')."""
    plain = np.frombuffer(_ESCAPE.sub(b"..", data), dtype=np.uint8)
    brackets = np.flatnonzero((plain == ord("[")) | (plain == ord("]")))
    opening = np.append(plain[brackets] == ord("["), False)  # [-1]: no bracket before the ';'
    semicolons = np.flatnonzero(plain == ord(";"))
    inside = opening[np.searchsorted(brackets, semicolons) - 1]
    return int(len(semicolons) - inside.sum())


def _utf16_hint(data: bytes) -> str:
    """What to do with a file saved as UTF-16 (a byte-order mark, or a NUL after most ASCII
    bytes), which reads as no SGF at all; '' for other files."""
    head = data[:200]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(head) >= 8 and head.count(0) * 3 >= len(head)):
        return "; the file looks like UTF-16 text: save it as UTF-8 (or ASCII) and try again"
    return ""


def _parse_message(exc: ValueError) -> str:
    """sgfmill's parse error, without the collection's 'error parsing game N' for a lone game."""
    text = str(exc) or "malformed"
    match = re.match(r"error parsing game (\d+): (.*)", text)
    if not match:
        return text
    number, why = int(match.group(1)), match.group(2)
    return why if number == 0 else f"game {number + 1} of the file: {why}"


def _encoding(coarse, data: bytes, from_text: bool) -> str | None:
    """The encoding to read the file with, when it is not the one the file declares (None).

    Text that arrives already decoded is UTF-8 whatever ``CA`` says. A file without ``CA``
    defaults to ISO-8859-1 by the standard, but most such files are UTF-8, and Fox labels
    UTF-8 text gb2312: both are read as UTF-8 when they decode as UTF-8. Real gb2312 text is
    read as GB18030, the superset Chinese servers actually write. A file labelled UTF-8 that
    is not is read as one without ``CA`` (ISO-8859-1), not with its bad bytes replaced, and
    ``_text_note`` says so."""
    if from_text:
        return "UTF-8"
    declared = _declared(coarse)
    if declared and declared not in _GB and declared != "utf8":
        return None
    try:
        data.decode("utf-8")
        return "UTF-8"
    except UnicodeDecodeError:
        return "GB18030" if declared in _GB else LATIN_1 if declared else None


_GB = ("gb2312", "gbk", "gb18030", "cp936")
LATIN_1 = "ISO-8859-1"  # the standard's default, and what a file labelled UTF-8 that is not is read as


def _declared(coarse) -> str:
    """The root's CA, lower case without '-' and '_' ('utf8', 'gb2312'); '' without CA."""
    written = coarse.sequence[0].get("CA", [b""])[0].decode("ascii", "replace").strip().lower()
    return written.replace("-", "").replace("_", "")


def _text_note(coarse, encoding: str | None) -> str:
    """A note when the text was not read as ``CA`` says: a file labelled UTF-8 whose bytes are
    not UTF-8 (a name written in Latin-1) lost its letters to U+FFFD without a word."""
    if _declared(coarse) == "utf8" and encoding == LATIN_1:
        written = coarse.sequence[0]["CA"][0].decode("ascii", "replace").strip()
        return f"CA[{clip(written)}] says UTF-8 but the file is not UTF-8; its text was read as Latin-1"
    return ""


_NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")


def _from_fox(root) -> bool:
    return root.has_property("AP") and any(b"foxwq" in v.lower() for v in root.get_raw_list("AP"))


def _komi(text: str, fox: bool, size: int) -> tuple[float, str]:
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
            return f"{key}[{clip(raw)}] is not a point"
    return "bad move value"


def _main_line(tree):
    """The property maps of a coarse tree's main line (each branch's first variation)."""
    while tree is not None:
        yield from tree.sequence
        tree = tree.children[0] if tree.children else None


def _branches(tree):
    """Every branch of a coarse tree (a sequence of nodes and its variations)."""
    stack = [tree]
    while stack:
        branch = stack.pop()
        yield branch
        stack.extend(branch.children)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # what terminals and XML must not get


def _text(node, key: str) -> str:
    """A property's value as text ('' when absent), control characters dropped."""
    if not node.has_property(key):
        return ""
    try:
        value = node.get(key)
    except ValueError:
        value = node.get_raw(key).decode("utf-8", "replace")
    return _CONTROL.sub("", str(value)).strip()


def _raw(node, key: str) -> str:
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


def with_score(game: Game, result: str, territory: dict, comment: str = "") -> bytes:
    """SGF text (UTF-8) of ``game`` with RE set to ``result`` (when there is one), the TB/TW marks
    and a comment in a node after the main line's last. A game read from SGF keeps its whole record (see ``_marked_copy``);
    one made in code (a board, a match) is written from its replayed moves."""
    if game.source is None:
        return _rebuilt(game, result, territory, comment)
    return _marked_copy(game, result, territory, comment)


def _marked_copy(game: Game, result: str, territory: dict, comment: str) -> bytes:
    """The record ``game`` was read from, in UTF-8, with RE, the KM and RU of ``game`` where
    they are not what the file says (Fox komi, rules seog does not know), and the marks and
    comment in a node of their own. Comments, times, variations and other properties stay.
    The copy is made on the parsed tree itself (sgfmill's coarse tree, its nodes wrapped one at
    a time), not on a tree of node objects."""
    parsed = game.parsed
    if parsed is None:
        tree, encoding = _parse(game.source)
        parsed = Parsed(tree, encoding, tree.sequence[0].get("CA"))
    tree = _joined(_utf8_copy(parsed, game.source is not None and game.source.isascii()))
    _check_names(tree)
    presenter = sgf_properties.Presenter(game.size, "UTF-8")
    root = sgf.Node(tree.sequence[0], presenter)
    root.set_raw("CA", b"UTF-8")
    if result:  # none: the record's own RE, if any, stays as written
        root.set("RE", result)
    if _text(root, "RU") != game.rules:
        root.set("RU", game.rules)
    if _komi(_raw(root, "KM"), _from_fox(root), game.size) != (game.komi, ""):
        root.set("KM", game.komi)
    if territory[BLACK] or territory[WHITE] or comment:
        leaf = tree
        while leaf.children:
            leaf = leaf.children[0]
        last = sgf.Node(leaf.sequence[-1], presenter)
        if not _is_seog_node(last):  # a node of its own after the main line's last
            leaf.sequence.append({})
        elif leaf.sequence[-1] is not tree.sequence[0]:  # the copy may share it with the record
            leaf.sequence[-1] = dict(leaf.sequence[-1])
        last = sgf.Node(leaf.sequence[-1], presenter)
        _set_marks(last, territory, comment, game.size)
        if comment:  # the marks are point names from a table, well-formed as they are
            _check_values({"C": last.get_raw_list("C")})
    _check_values(root.get_raw_property_map())
    return serialise(tree)


def serialise(tree: sgf_grammar.Coarse_game_tree, width: int = 79) -> bytes:
    """SGF text of a coarse tree, byte for byte as ``sgf_grammar.serialise_game_tree(tree,
    wrap=width)`` writes it (FF first in a node, then names in order; lines broken between
    pieces before they pass ``width``), without sorting one-property nodes: a move's node."""
    pieces: list[bytes] = []
    add = pieces.append
    stack = [tree]
    while stack:
        branch = stack.pop()
        if branch is None:
            add(b")")
            continue
        add(b"(")
        for properties in branch.sequence:
            add(b";")
            items = properties.items() if len(properties) < 2 else sorted(properties.items(), key=_ff_first)
            for key, values in items:
                add(b"".join((key.encode("ascii"), b"[", b"][".join(values), b"]")) if values
                    else key.encode("ascii"))
        stack.append(None)
        stack.extend(reversed(branch.children))
    add(b"\n")
    lines, line, length = [], [], 0
    for piece in pieces:
        if length + len(piece) > width:
            lines.append(b"".join(line))
            line, length = [], 0
        line.append(piece)
        length += len(piece)
    if length:
        lines.append(b"".join(line))
    return b"\n".join(lines)


def _ff_first(item: tuple) -> tuple:
    return item[0] != "FF", item[0]


def _joined(tree):
    """The coarse tree with a lone variation joined to the sequence before it, as sgfmill
    writes a record: ``(;B[aa](;W[bb]))`` becomes ``(;B[aa];W[bb])``."""
    for branch in _branches(tree):  # each branch is joined before its variations are walked
        while len(branch.children) == 1:
            only = branch.children[0]
            branch.sequence.extend(only.sequence)
            branch.children = only.children
    return tree


def _check_names(tree) -> None:
    """A name of lower-case letters only (``d[qi]``) is read, as sgfmill reads FF[3] names, with
    them left out: as no name at all, which the copy would write as a value with none before it
    and no reader takes back. Refused like a value that would not read back."""
    for branch in _branches(tree):
        for node in branch.sequence:
            if "" in node:
                written = clip(b"][".join(node[""]).decode("utf-8", "replace"))
                raise SgfError(f"the annotated copy would not read back (a property named in lower-case "
                               f"letters only, with [{written}], reads as no property); the file was left alone")


def _check_values(properties: dict) -> None:
    """A copy is written only if it reads back as the tree it was made from: every value in it
    must end where it is meant to (no unescaped ']', no lone '\\' at its end), or the reader
    would take properties or moves into it without a word. The parser's own values are
    well-formed (sgfmill's tokeniser reads no other), so the values checked are those a copy
    changes: turned into UTF-8 (``_utf8_copy``) or set by seog (the root, the marks' node).
    Names come from the parser or from seog, and the writer puts each value between its
    brackets, so well-formed values make the text read back node for node and value for value
    (``tests/test_copies.py`` parses every copy back)."""
    for key, values in properties.items():
        for value in values:
            _check_value(key, value)


def _check_value(key: str, value: bytes) -> None:
    if (b"]" in value or value.endswith(b"\\")) and not sgf_grammar.is_valid_property_value(value):
        written = clip(value.decode("utf-8", "replace"))
        raise SgfError(f"the annotated copy would not read back ({key}[{written}] is not a "
                       "well-formed value); the file was left alone")


def _utf8_copy(parsed: Parsed, ascii_text: bool = False):
    """A copy of the parsed tree (``Parsed.copy``) with every value turned from the file's
    encoding (``parsed.encoding``, or the one sgfmill reads from CA) into UTF-8, in one walk;
    bytes that do not decode are replaced, and a value the turn changes is checked. A text all
    ASCII (``ascii_text``) keeps its nodes (``Parsed.branches``; ``_marked_copy`` replaces those
    it changes): ``_transcode`` keeps an ASCII value."""
    if ascii_text:
        return parsed.branches()
    encoding = parsed.encoding
    if encoding is None:
        root = sgf_grammar.Coarse_game_tree()
        root.sequence = [{} if parsed.ca is None else {"CA": parsed.ca}]
        encoding = sgf.Sgf_game.from_coarse_game_tree(root).get_root().get_encoding()

    def turned(key: str, values: list) -> list:
        out = [_transcode(v, encoding) for v in values]
        for before, after in zip(values, out):
            if after is not before:
                _check_value(key, after)
        return out

    return parsed.copy(turned)


_ESCAPE = re.compile(rb"\\(.)", re.DOTALL)
_KEPT_ESCAPES = b":\n\r"  # escapes that mean something beyond the byte: a compose value's colon, a soft line break


def _transcode(raw: bytes, encoding: str) -> bytes:
    """One property value, as written (escapes included), from ``encoding`` into UTF-8. The
    escapes are undone before decoding and done again after: in Shift_JIS, Big5 or GBK the
    second byte of a character may be a backslash or ']' that the writer escaped, and decoding
    the escaped bytes would leave a lone backslash before the closing ']'."""
    if raw.isascii():
        return raw
    if b"\\" not in raw:
        return raw.decode(encoding, "replace").encode("utf-8")
    out, start = [], 0
    parts = []
    for match in _ESCAPE.finditer(raw):
        if match.group(1) in _KEPT_ESCAPES:
            parts.append((_ESCAPE.sub(rb"\1", raw[start:match.start()]), match.group(0)))
            start = match.end()
    parts.append((_ESCAPE.sub(rb"\1", raw[start:]), b""))
    for plain, kept in parts:
        text = plain.decode(encoding, "replace").encode("utf-8")
        out.append(text.replace(b"\\", b"\\\\").replace(b"]", b"\\]") + kept)
    return b"".join(out)


SEOG_COMMENT = "seog:"  # how seog's own comments start (comment() in seog.scoring.annotated)


_RECORDED = re.compile(r"Recorded result: (.+?)\.(?= |$)")


def _players_result(last, result: str) -> str:
    """The game's result as its players recorded it. A copy seog wrote carries seog's count in RE
    and the players' result in its own comment (none there: they recorded none), so that
    annotating a copy again still compares with the players."""
    if last.get_move()[0] is not None or not _text(last, "C").startswith(SEOG_COMMENT):
        return result
    found = _RECORDED.search(_text(last, "C"))
    return found.group(1) if found else ""


def _is_seog_node(last) -> bool:
    """Whether ``last`` is the node an earlier copy left (no move, a comment starting 'seog:'),
    which takes the marks and comment again, so that copies of copies do not stack."""
    return last.get_move()[0] is None and _text(last, "C").startswith(SEOG_COMMENT)


def _set_marks(node, territory: dict, comment: str, size: int) -> None:
    """TB/TW and C on ``node``, replacing any it had."""
    names = _point_names(size)
    for color, key in ((BLACK, "TB"), (WHITE, "TW")):
        if territory[color]:
            node.set_raw_list(key, sorted({names[i] for i in territory[color]}))  # as sgfmill writes a point list
        elif node.has_property(key):
            node.unset(key)
    if comment:
        node.set("C", comment)
    elif node.has_property("C"):
        node.unset("C")


@cache
def _point_names(size: int) -> tuple[bytes, ...]:
    """Each grid index's SGF point as written (``coords.index_to_sgf``), made once a size."""
    return tuple(coords.index_to_sgf(i, size).encode("ascii") for i in range(size * size))


def _rebuilt(game: Game, result: str, territory: dict, comment: str) -> bytes:
    """A clean record of ``game``'s size, komi, rules, setup and moves, with the score."""
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
    if result:
        root.set("RE", result)
    if game.setup:
        _set_setup(root, game.setup, game.size)
    later = game.setup_between()
    node = root
    for number in range(len(game.moves) + 1):  # setup nodes before each move, and after the last
        if number in later:
            node = node.new_child()
            _set_setup(node, later[number], game.size)
        if number < len(game.moves):
            color, point = game.moves[number]
            node = node.new_child()
            node.set_move(LETTER_OF[color], None if point is None else _sgfmill_rc(point, game.size))
    if node is not root and (territory[BLACK] or territory[WHITE] or comment):
        node = node.new_child()
    _set_marks(node, territory, comment, game.size)
    return record.serialise()


def _set_setup(node, stones: list, size: int) -> None:
    """AB/AW/AE on a node from (colour or 0 for empty, flat point) pairs; for a point set twice
    (two setup nodes between the same moves), the later setting is the one that stands."""
    last = {point: color for color, point in stones}
    points = {BLACK: set(), WHITE: set(), 0: set()}
    for point, color in last.items():
        points[color].add(_sgfmill_rc(point, size))
    node.set_setup_stones(points[BLACK], points[WHITE], points[0] or None)


def _sgfmill_rc(point: int, size: int) -> tuple[int, int]:
    row, col = coords.from_flat(point, size)
    return size - 1 - row, col
