"""Annotated copies of real records: the original record plus seog's marks, result and comment.

Every copy must read back as the same game, count to its own RE with its own marks, and keep
what the file held besides (comments, times, variations, root properties, the players' marks).
"""

import re
from dataclasses import replace

import pytest

from conftest import shared_dir
from seog.datasets import annotate as ann
from seog.features import sgf
from seog.scoring.annotated import annotated_sgf
from seog.scoring.score import score_game

KGS = ["2017-01-01-10", "2017-01-01-26", "2017-01-02-19", "2017-01-02-25"]  # 2017-01-01-26 has a handicap


def annotated(data: bytes | str, options: ann.Options = ann.Options()) -> bytes:
    """The copy ``seog annotate`` writes of one file."""
    row, out = ann.annotate_bytes("game.sgf", data, options)
    assert row.status == ann.ANNOTATED, row.error
    return out


def nodes(data: bytes) -> list:
    """Every node of a record, variations included, as sgfmill nodes."""
    from sgfmill import sgf as sgfmill

    stack, out = [sgfmill.Sgf_game.from_bytes(data).get_root()], []
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node)
    return out


def values(data: bytes, key: str) -> list:
    """Every value of ``key`` in the record, in node order, as text."""
    return [str(n.get(key)) for n in nodes(data) if n.has_property(key)]


def assert_same_game(copy: sgf.Game, original: sgf.Game) -> None:
    assert (copy.size, copy.handicap, copy.komi) == (original.size, original.handicap, original.komi)
    assert copy.moves == original.moves and copy.setup == original.setup
    assert copy.later_setup == original.later_setup
    assert (copy.board.grid == original.board.grid).all()
    assert copy.board.prisoners == original.board.prisoners


def test_a_bot_game_keeps_its_comments_times_variation_and_players_marks():
    path = shared_dir("gnugo-regression-games") / "FSGCBot-dr.sgf"  # a KGS bot game, with chat
    data = path.read_bytes()
    original = sgf.loads(data)
    out = annotated(data)
    copy = sgf.loads(out)
    assert_same_game(copy, original)
    assert copy.variations and len(nodes(out)) == len(nodes(data)) + 1  # seog's node, nothing lost
    assert values(out, "C")[:-1] == values(data, "C")  # the root comment and the chat, seog's last
    assert values(out, "C")[-1].startswith("seog: ")
    for key in ("BL", "WL", "CR", "PL"):
        assert values(out, key) == values(data, key)
    root, root_copy = nodes(data)[0], nodes(out)[0]
    assert {k: root.get_raw(k) for k in root.properties() if k != "RE"} == {
        k: root_copy.get_raw(k) for k in root_copy.properties() if k != "RE"}  # AP, ST, TM, OT, ...
    assert values(out, "TB")[0] == values(data, "TB")[0]  # the players' marks stay in their node
    assert score_game(copy, use_markup=True).result == copy.result  # seog's marks are the last
    assert copy.result == score_game(original).result


@pytest.mark.parametrize("name", KGS)
def test_a_kgs_record_comes_back_whole_and_counts_to_its_result_with_its_marks(name):
    data = (shared_dir("kgs-2017-q1") / f"{name}.sgf").read_bytes()
    original = sgf.loads(data)
    out = annotated(data)
    copy = sgf.loads(out)
    assert_same_game(copy, original)
    root, root_copy = nodes(data)[0], nodes(out)[0]
    assert sorted(root_copy.properties()) == sorted(root.properties())
    kept = [k for k in root.properties() if k != "RE"]
    assert [root_copy.get_raw(k) for k in kept] == [root.get_raw(k) for k in kept]
    assert values(out, "TW")[0] == values(data, "TW")[0]  # the players' marks stay in their node
    counted = score_game(copy, use_markup=True)
    assert counted.result == copy.result == score_game(original).result


def test_a_copy_annotated_again_has_one_seog_comment_and_the_file_comments_once():
    data = (shared_dir("gnugo-regression-games") / "FSGCBot-dr.sgf").read_bytes()
    once = annotated(data)
    twice = annotated(once)
    assert len(nodes(twice)) == len(nodes(once))
    assert values(twice, "C")[:-1] == values(data, "C")
    assert [c for c in values(twice, "C") if c.startswith("seog:")] == [values(twice, "C")[-1]]
    recorded = "B+13.50"  # the players' RE as written, not the first copy's count (B+13.5)
    assert f"Recorded result: {recorded}." in values(twice, "C")[-1]
    again = sgf.loads(twice)
    assert again.recorded == recorded and again.territory == sgf.loads(once).territory
    assert score_game(again, use_markup=True).result == again.result


def test_a_copy_annotated_again_with_its_own_marks_keeps_them():
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    once = annotated(data)
    twice = annotated(once, ann.Options(use_markup=True))
    assert sgf.loads(twice).territory == sgf.loads(once).territory
    assert len(nodes(twice)) == len(nodes(once)) and values(twice, "TW")[0] == values(data, "TW")[0]
    assert "Dead stones from the file's own marks." in values(twice, "C")[-1]


def test_annotating_a_copy_leaves_the_record_as_read_so_a_second_copy_is_the_same():
    # the copy shares the record's nodes but those it changes: seog's own node, from a first
    # copy, takes the new marks and comment, and the game read once must not see them
    data = (shared_dir("kgs-2017-q1") / f"{KGS[1]}.sgf").read_bytes()
    once = annotated(data)
    game = sgf.loads(once)
    tree_before = sgf.serialise(game.parsed.tree)
    first = annotated_sgf(game, score_game(game), "first")
    second = annotated_sgf(game, score_game(game), "second")
    assert sgf.serialise(game.parsed.tree) == tree_before
    assert first.replace(b"first", b"second") == second
    assert " first " in values(first, "C")[-1] and len(nodes(first)) == len(nodes(once))


@pytest.mark.parametrize("written, kept", [("", []), ("RE[?]", ["?"]), ("RE[B+R]", ["B+R"])])
def test_a_game_not_played_out_gets_no_result_its_record_does_not_give(written, kept):
    # GNU Go resigned at move 177 with open borders: without a counted RE the position is not a
    # finished one, and its count, an estimate, stays in the marks and the comment
    text = (shared_dir("cases") / "gnugo-19x19-resigned-move-177.sgf").read_text()
    text = re.sub(r"RE\[[^]]*\]", written, text)
    row, copy = ann.annotate_bytes("game.sgf", text)
    assert row.status == ann.ANNOTATED and row.finished is False
    assert values(copy, "RE") == kept
    assert f"seog: {row.result} under japanese rules" in values(copy, "C")[-1]
    assert "not a finished position" in values(copy, "C")[-1]


def with_names(data: bytes, black: str, white: str, chat: str) -> str:
    """A real record's text with other names and a comment on the first move."""
    text = data.decode("utf-8")
    text = re.sub(r"PB\[[^]]*\]", f"PB[{black}]", text)
    text = re.sub(r"PW\[[^]]*\]", f"PW[{white}]", text)
    return text.replace(";B[", f";C[{chat}]B[", 1)


@pytest.mark.parametrize("label, encoding, black, white, chat", [
    ("CA[gb2312]", "gb18030", "李昌镐", "陈耀烨", "好棋"),  # 烨 is beyond GB2312: what servers write
    ("CA[ISO-8859-1]", "latin-1", "Müller", "Sørensen", "schön"),
    ("", "latin-1", "Müller", "Sørensen", "schön"),  # no CA: ISO-8859-1 by the standard
])
def test_a_copy_is_utf8_with_the_names_and_comments_intact(label, encoding, black, white, chat):
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    text = with_names(data, black, white, chat).replace("CA[UTF-8]", label)
    out = annotated(text.encode(encoding))
    out.decode("utf-8")  # strict: every byte is UTF-8
    assert b"CA[UTF-8]" in out and out.count(b"CA[") == 1
    root = nodes(out)[0]
    assert (root.get("PB"), root.get("PW")) == (black, white)
    assert values(out, "C")[0] == chat
    copy = sgf.loads(out)
    assert (copy.properties["PB"], copy.properties["PW"]) == (black, white)
    assert_same_game(copy, sgf.loads(data))


def test_a_fox_komi_copy_carries_the_komi_used_and_keeps_the_rest():
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    fox = (data.replace(b"KM[0.50]", b"KM[375]").replace(b"AP[CGoban:3]", b"AP[foxwq]")
           .replace(b"RU[Japanese]", b"RU[Chinese]"))
    original = sgf.loads(fox)
    assert original.komi == 7.5 and original.komi_note
    out = annotated(fox)
    copy = sgf.loads(out)
    root = nodes(out)[0]
    assert root.get_raw("KM") == b"7.5" and root.get_raw("AP") == b"foxwq"
    assert root.get_raw("RU") == b"Chinese"  # rules seog knows stay as written
    assert copy.komi == 7.5 and copy.komi_note == ""
    assert "Note: KM[375] read as komi 7.5" in values(out, "C")[-1]
    assert score_game(copy, use_markup=True).result == copy.result == score_game(original).result


def test_rules_seog_does_not_know_are_replaced_by_the_rules_counted_by():
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    out = annotated(data.replace(b"RU[Japanese]", b"RU[Moon]"))
    root = nodes(out)[0]
    assert root.get_raw("RU") == b"japanese" and root.get_raw("KM") == b"0.50"  # KM as written
    assert root.get_raw("AP") == b"CGoban:3"


def test_the_api_copy_of_pasted_text_keeps_the_comments():
    from seog.api import positions
    from seog.api.http import score_answer

    data = (shared_dir("gnugo-regression-games") / "FSGCBot-dr.sgf").read_bytes()
    answer = score_answer(positions.from_sgf(data.decode("utf-8")), with_sgf=True)
    out = answer["annotated_sgf"].encode("utf-8")
    assert values(out, "C")[:-1] == values(data, "C") and values(out, "BL") == values(data, "BL")
    assert sgf.loads(out).result == answer["result"]


@pytest.mark.parametrize("label, encoding, black, white", [
    ("CA[Shift_JIS]", "shift_jis", "十段", "能ソ"),  # each of 十 能 ソ ends in the byte of a backslash
    ("CA[Big5]", "big5", "功夫", "許"),
    ("CA[GBK]", "gbk", "乗", "乗乗"),
])
def test_a_copy_of_a_file_whose_characters_end_in_a_backslash_byte_reads_back_whole(label, encoding,
                                                                                   black, white):
    """A byte-level writer escapes that byte (十 is written 8F 5C 5C); the copy must not turn the
    escape into a lone backslash before the closing ']', which would swallow the next property."""
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    text = re.sub(r"PW\[[^]]*\]", "PW[@W@]", re.sub(r"PB\[[^]]*\]", "PB[@B@]", data.decode("utf-8")))
    raw = text.replace("CA[UTF-8]", label).encode(encoding)
    for mark, name in ((b"@B@", black), (b"@W@", white)):
        raw = raw.replace(mark, name.encode(encoding).replace(b"\\", b"\\\\").replace(b"]", b"\\]"))
    original = sgf.loads(raw)
    assert (original.properties["PB"], original.properties["PW"]) == (black, white)
    row, out = ann.annotate_bytes("game.sgf", raw)
    assert row.status == ann.ANNOTATED, row.error
    copy = sgf.loads(out)
    assert (copy.properties["PB"], copy.properties["PW"]) == (black, white)
    assert copy.result == row.result and copy.size == original.size
    assert_same_game(copy, original)


@pytest.mark.parametrize("label, encoding", [
    ("CA[gb2312]", "gb18030"), ("CA[ISO-8859-1]", "latin-1"), ("", "latin-1"), ("CA[UTF-8]", "utf-8")])
def test_the_copy_from_the_tree_read_once_is_the_copy_from_the_text_read_again(label, encoding):
    """``seog annotate`` and the API write the copy from the tree the game was read from; it must
    be byte for byte the copy of a fresh parse, whatever CA says (reading sets CA) and wherever it is."""
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    assert data.index(b"CA[UTF-8]") > data.index(b"(;") + 2  # CA not the root's first property
    raw = with_names(data, "Müller", "Sørensen", "schön").replace("CA[UTF-8]", label).encode(encoding)
    game = sgf.loads(raw)
    assert game.parsed is not None
    score = score_game(game)
    once = annotated_sgf(game, score, "a note")
    assert once == annotated_sgf(replace(game, parsed=None), score, "a note")  # parsed again
    assert annotated_sgf(game, score, "a note") == once  # the tree kept is left as it was read


def main_line_maps(data: bytes) -> list[dict]:
    """The raw property maps of a record's main line, as sgfmill's parser reads the text."""
    from sgfmill import sgf_grammar

    tree, out = sgf_grammar.parse_sgf_game(data), []
    while tree is not None:
        out.extend(tree.sequence)
        tree = tree.children[0] if tree.children else None
    return out


@pytest.mark.parametrize("folder", ["kgs-2017-q1", "gnugo-regression-games", "cases"])
def test_every_copy_of_a_dev_record_parses_back_node_for_node(folder):
    """The copy is checked by the form of its values, not by parsing it again: parsing each one
    here must give the original's main line, each value in UTF-8, plus seog's node at its end."""
    for path in sorted(shared_dir(folder).glob("*.sgf")):
        data = path.read_bytes()
        row, out = ann.annotate_bytes(path.name, data)
        if row.status != ann.ANNOTATED:
            continue
        copy, original = main_line_maps(out), main_line_maps(data)
        assert len(copy) == len(original) + (not original[-1].get("C", [b""])[0].startswith(b"seog:")), path.name
        for before, after in zip(original[1:], copy[1:]):
            if "TB" in after or (after.get("C") or [b""])[0].startswith(b"seog:"):
                break
            assert before.keys() == after.keys(), path.name


def test_a_copy_that_would_not_read_back_is_refused_and_nothing_is_written():
    """A value that would swallow what follows it (an unescaped ']') stops the copy."""
    game = sgf.loads((shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes())
    game.parsed.tree.sequence[0]["PB"] = [b"Black] GN[swallowed"]
    with pytest.raises(sgf.SgfError, match="would not read back.*PB"):
        annotated_sgf(game, score_game(game))


def test_a_move_written_with_a_lower_case_name_refuses_the_copy_and_keeps_the_file():
    """``d[qi]`` for ``W[qi]``: sgfmill, reading FF[3] names, leaves out lower-case letters, so
    the property has no name; the copy would write a bare ``[qi]`` that no reader takes back."""
    data = (shared_dir("kgs-2017-q1") / f"{KGS[0]}.sgf").read_bytes()
    damaged = re.sub(rb";W\[(..)\]", rb";d[\1]", data, count=1)
    row, copy = ann.annotate_bytes("game.sgf", damaged)
    assert row.status == ann.FAILED and copy is None
    assert "would not read back (a property named in lower-case letters only" in row.error


def test_a_lone_variation_is_written_as_part_of_the_line_before_it():
    """``(;..;B[..](;W[..]))`` is one line: the copy writes it as ``(;..;B[..];W[..];seog's node)``."""
    data = b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee](;W[cc];B[gg]))"
    out = annotated(data)
    assert out.count(b"(;") == 1 and b";W[cc];B[gg];" in out
    assert sgf.loads(out).moves == sgf.loads(data).moves
