"""SGF bytes to sgfmill's coarse tree (nodes as lists of raw values), read by seog's own
tokenizer, the same trees and errors as ``sgf_grammar.parse_sgf_collection`` and faster; the limits a
file must keep before any tree is built; the encoding its values are read with.

``parse`` is the entry: one game's tree and its encoding, or an ``SgfError`` naming the problem.
``Parsed`` keeps the tree as parsed for the annotated copy (``features.sgf_copy``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sgfmill import sgf_grammar

from seog import clip

# What a file may hold, checked before any tree is built (``_check_limits``): real games are
# under 100 KB, with at most ~420 nodes and a few thousand property values.
MAX_BYTES = 4 * 1024 * 1024
MAX_NODES = 10_000  # each costs sgfmill a node object
MAX_VALUES = 100_000  # property values (and as many property names); each costs sgfmill a token


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


def parse(data: bytes | str):
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


def check_go(coarse) -> None:
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
    plain = np.frombuffer(ESCAPE.sub(b"..", data), dtype=np.uint8)
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
    ``encoding_note`` says so."""
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


def encoding_note(coarse, encoding: str | None) -> str:
    """A note when the text was not read as ``CA`` says: a file labelled UTF-8 whose bytes are
    not UTF-8 (a name written in Latin-1) lost its letters to U+FFFD without a word."""
    if _declared(coarse) == "utf8" and encoding == LATIN_1:
        written = coarse.sequence[0]["CA"][0].decode("ascii", "replace").strip()
        return f"CA[{clip(written)}] says UTF-8 but the file is not UTF-8; its text was read as Latin-1"
    return ""


def main_line(tree):
    """The property maps of a coarse tree's main line (each branch's first variation)."""
    while tree is not None:
        yield from tree.sequence
        tree = tree.children[0] if tree.children else None


def all_branches(tree):
    """Every branch of a coarse tree (a sequence of nodes and its variations)."""
    stack = [tree]
    while stack:
        branch = stack.pop()
        yield branch
        stack.extend(branch.children)


ESCAPE = re.compile(rb"\\(.)", re.DOTALL)
