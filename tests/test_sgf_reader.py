"""The SGF reader and writer against sgfmill's: the same trees and errors from the same bytes, and
the same text from the same tree, on real records, their damaged copies and random text."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf_grammar

from conftest import DATA
from seog.features import sgf

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.sgf")) + sorted((ROOT / "seog" / "api" / "static" / "examples").glob("*.sgf"))
DEV_RECORDS = sorted(DATA.glob("*/*.sgf"))[:400]  # none where ../shared is not beside the checkout


def trees(read, data: bytes):
    """What a reader makes of ``data``: every tree flattened (nodes, variations), or its error."""
    try:
        games = read(data)
    except ValueError as exc:
        return f"error: {exc}"
    out = []
    for game in games:
        stack = [game]
        while stack:
            tree = stack.pop()
            out.append(([list(node.items()) for node in tree.sequence], len(tree.children)))
            stack.extend(tree.children)
    return out


def same_as_sgfmill(data: bytes) -> None:
    assert trees(sgf.parse_collection, data) == trees(sgf_grammar.parse_sgf_collection, data)


def damaged(data: bytes, rng: random.Random) -> list[bytes]:
    """A record cut short, with a byte dropped or thrown in, and with more text after it."""
    cut, drop, put = (rng.randrange(len(data) + 1) for _ in range(3))
    return [data[:cut], data[:drop] + data[drop + 1:], data[:put] + bytes([rng.choice(b"()[];\\ ]Ab")]) + data[put:],
            data + b"\n junk (;B[aa]", data + data[:cut]]


@pytest.mark.parametrize("path", EXAMPLES + DEV_RECORDS, ids=lambda p: p.name)
def test_real_records_and_their_damaged_copies_read_as_sgfmill_reads_them(path):
    data = path.read_bytes()
    same_as_sgfmill(data)
    for broken in damaged(data, random.Random(path.name)):
        same_as_sgfmill(broken)


@pytest.mark.parametrize("data", [
    b"(;FF[4]SZ[9];B[aa](;W[bb];B[cc])(;W[cc]))",  # variations
    b"(;AddBlack[aa][bb]C[a \\] b\\\\];W[])",  # a long lowercase name, escapes, an empty move
    b"junk (;B[aa]) (;W[bb])", b"(;B[aa] ) \n",  # two games; blanks after one
    b"(;B[aa]C[x];W[bb]", b"(;B[aa];;W)", b"(()", b"(;B[aa]\x00)", b"(;[aa])",  # broken records
    b"(;B[aa]B[bb])", b"no game here", b"(;B[aa])(;C[", b"",
])
def test_variations_lowercase_names_escapes_and_broken_records_read_as_sgfmill_reads_them(data):
    same_as_sgfmill(data)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=40), st.lists(st.sampled_from([b"(;", b"(", b")", b";", b"B", b"W", b"[aa]", b"[",
                                                         b"]", b"\\", b" ", b"\n", b"C", b"ab", b"x"]), max_size=30))
def test_any_text_reads_as_sgfmill_reads_it(noise, pieces):
    same_as_sgfmill(b"(;" + b"".join(pieces))
    same_as_sgfmill(noise + b"".join(pieces))


@pytest.mark.parametrize("path", EXAMPLES + DEV_RECORDS[:100], ids=lambda p: p.name)
def test_records_written_back_are_byte_for_byte_sgfmills_text(path):
    for tree in sgf_grammar.parse_sgf_collection(path.read_bytes()):
        for width in (79, 1, 500):
            assert sgf.serialise(tree, width) == sgf_grammar.serialise_game_tree(tree, wrap=width)


def test_a_root_with_ff_and_empty_or_long_values_is_written_as_sgfmill_writes_it():
    tree, child = sgf_grammar.Coarse_game_tree(), sgf_grammar.Coarse_game_tree()
    tree.sequence = [{"SZ": [b"19"], "FF": [b"4"], "AB": [b"aa", b"bb"], "Z": []}, {}]
    child.sequence = [{"C": [b"x" * 120]}, {"B": [b"cc"]}]
    tree.children = [child, child]
    assert sgf.serialise(tree) == sgf_grammar.serialise_game_tree(tree, wrap=79)
