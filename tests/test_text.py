"""The terminal board: every mark readable as a letter, colour only on top and only for a terminal."""

import io
import re

import pytest

from conftest import LEFT_IN_NOTE, STONES_LEFT_IN, board
from seog.cli import main
from seog.features.coords import gtp_to_index
from seog.scoring.score import score_position
from seog.scoring.text import render, symbols, wants_colour

# Black's wall on the left with a dead white stone at B4, White's wall on the right with a dead
# black stone at H3, a seki at the top (D9-E7 against F9-F7 sharing E9 and E8) and a dame at F1.
SEKI_AND_DEAD = """
    . . X O . X O . .
    . . X O . X O . .
    . . X O O X O . .
    . . X X X O O . .
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . X .
    . . . . X O O . .
    . . . . X . O . .
"""
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def scored(rules="japanese"):
    b = board(SEKI_AND_DEAD)
    dead = [gtp_to_index(v, 9) for v in ("B4", "H3")]
    return b, score_position(b, rules=rules, komi=6.5, dead=dead, model=None)


def mark(marks, vertex):
    return marks.flat[gtp_to_index(vertex, 9)]


def test_marks_show_dead_stones_seki_dame_and_territory_by_letter():
    b, score = scored()
    marks = symbols(b.grid, score)
    assert mark(marks, "B4") == "o" and mark(marks, "H3") == "x"
    assert mark(marks, "D9") == "@" and mark(marks, "F9") == "#"
    assert mark(marks, "E9") == "," and mark(marks, "F1") == ","
    assert mark(marks, "A1") == "b" and mark(marks, "J9") == "w"
    assert mark(marks, "C9") == "X" and mark(marks, "G9") == "O"
    # A dead stone's point is the other side's territory; it keeps its own mark.
    assert (marks == "b").sum() + (marks == "o").sum() == len(score.territory[1])
    assert (marks == "w").sum() + (marks == "x").sum() == len(score.territory[-1])


def test_plain_text_has_no_escape_codes_and_ends_with_the_result():
    b, score = scored()
    text = render(b.grid, score, recorded="B+0.5")
    assert "\x1b" not in text
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHJ")
    assert lines[1].split() == ["9", "b", "b", "X", "@", ",", "#", "O", "w", "w", "9"]
    assert lines[-1].startswith(f"Result: {score.result}") and "(recorded: B+0.5)" in lines[-1]
    assert f"= {score.black:g}" in text and f"= {score.white:g}" in text


def test_colour_only_adds_styles_to_the_same_letters():
    b, score = scored()
    plain = render(b.grid, score)
    coloured = render(b.grid, score, colour=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == plain
    # Dead stones are drawn in a faded grey, not in the bold of live stones, on the board's wood;
    # stones in seki on their own blue, which comes after the wood so that it shows.
    row4, row9 = coloured.splitlines()[6], coloured.splitlines()[1]
    assert "\x1b[0;48;5;180;38;5;252mo" in row4
    assert "\x1b[0;48;5;180;1;38;5;231;48;5;110m@" in row9


def block_at(score, vertex):
    return next(blk for blk in score.blocks if gtp_to_index(vertex, 9) in blk.points)


def test_a_block_in_doubt_keeps_its_seki_or_dead_mark_with_a_question_mark_before_each_stone():
    """A '?' in place of the mark hid that the block was counted in seki, or dead."""
    b, score = scored()
    for vertex, p_alive in (("D9", 0.52), ("B4", 0.4)):
        block_at(score, vertex).doubt, block_at(score, vertex).p_alive = "model", p_alive
    text = render(b.grid, score)
    lines = text.splitlines()
    assert lines[1] == " 9 b b X?@ , # O w w 9" and lines[3] == " 7 b b X?@?@ # O w w 7"
    assert lines[6] == " 4 b?o b b X O w w w 4"  # the dead stone in doubt
    assert "?X: in doubt" in lines[11]  # the legend
    assert "uncertain: white block at D9 (4 stones), counted in seki, p(alive) 0.52" in text
    assert "uncertain: white block at B4 (1 stone), counted dead, p(alive) 0.40" in text
    assert mark(symbols(b.grid, score), "E7") == "@" and mark(symbols(b.grid, score), "B4") == "o"


def test_a_block_in_doubt_is_on_red_in_colour_with_the_same_letters():
    b, score = scored()
    block_at(score, "D9").doubt = "model"
    coloured = render(b.grid, score, colour=True)
    assert ANSI.sub("", coloured) == render(b.grid, score)
    row9 = coloured.splitlines()[1]
    assert "\x1b[0;48;5;180;1;38;5;231;48;5;110;48;5;203m?\x1b[0;48;5;180;1;38;5;231;48;5;110;48;5;203m@" in row9



@pytest.mark.parametrize("rules, b7, h6, note", [
    ("tromp-taylor", "O", "X", f"note: {LEFT_IN_NOTE}"),  # counted as they stand: drawn as stones
    ("chinese", "o", "x", None),                          # taken off: drawn dead
])
def test_the_board_draws_the_stones_as_the_count_takes_them(tmp_path, capsys, rules, b7, h6, note):
    path = tmp_path / "left-in.sgf"
    path.write_text(STONES_LEFT_IN)
    assert main(["score", str(path), "--rules", rules, "--color", "never"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[3].split()[2] == b7 and lines[4].split()[8] == h6  # rows 7 and 6
    assert [line for line in lines if line.startswith("note:")] == ([note] if note else [])
    assert lines[-1] == "Result: W+7.5"


class FakeTty(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("env, stream, expected", [
    ({}, FakeTty(), True),
    ({}, io.StringIO(), False),              # a pipe or a file: no colour
    ({"NO_COLOR": "1"}, FakeTty(), False),
    ({"TERM": "dumb"}, FakeTty(), False),
    ({"FORCE_COLOR": "1"}, io.StringIO(), True),
])
def test_colour_follows_the_terminal_and_no_color(monkeypatch, env, stream, expected):
    for key in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert wants_colour(stream) is expected
