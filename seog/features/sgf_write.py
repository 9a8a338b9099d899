"""sgfmill's coarse tree back to SGF bytes, byte for byte as sgfmill writes it and faster
(``serialise``), and the checks that a written copy reads back as the tree it was made from.
"""

from __future__ import annotations

from sgfmill import sgf_grammar

from seog import clip
from seog.features.sgf_read import ESCAPE, SgfError, all_branches


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


def joined(tree):
    """The coarse tree with a lone variation joined to the sequence before it, as sgfmill
    writes a record: ``(;B[aa](;W[bb]))`` becomes ``(;B[aa];W[bb])``."""
    for branch in all_branches(tree):  # each branch is joined before its variations are walked
        while len(branch.children) == 1:
            only = branch.children[0]
            branch.sequence.extend(only.sequence)
            branch.children = only.children
    return tree


def check_names(tree) -> None:
    """A name of lower-case letters only (``d[qi]``) is read, as sgfmill reads FF[3] names, with
    them left out: as no name at all, which the copy would write as a value with none before it
    and no reader takes back. Refused like a value that would not read back."""
    for branch in all_branches(tree):
        for node in branch.sequence:
            if "" in node:
                written = clip(b"][".join(node[""]).decode("utf-8", "replace"))
                raise SgfError(f"the annotated copy would not read back (a property named in lower-case "
                               f"letters only, with [{written}], reads as no property); the file was left alone")


def check_values(properties: dict) -> None:
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
            check_value(key, value)


def check_value(key: str, value: bytes) -> None:
    if (b"]" in value or value.endswith(b"\\")) and not sgf_grammar.is_valid_property_value(value):
        written = clip(value.decode("utf-8", "replace"))
        raise SgfError(f"the annotated copy would not read back ({key}[{written}] is not a "
                       "well-formed value); the file was left alone")


_KEPT_ESCAPES = b":\n\r"  # escapes that mean something beyond the byte: a compose value's colon, a soft line break


def transcode(raw: bytes, encoding: str) -> bytes:
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
    for match in ESCAPE.finditer(raw):
        if match.group(1) in _KEPT_ESCAPES:
            parts.append((ESCAPE.sub(rb"\1", raw[start:match.start()]), match.group(0)))
            start = match.end()
    parts.append((ESCAPE.sub(rb"\1", raw[start:]), b""))
    for plain, kept in parts:
        text = plain.decode(encoding, "replace").encode("utf-8")
        out.append(text.replace(b"\\", b"\\\\").replace(b"]", b"\\]") + kept)
    return b"".join(out)
