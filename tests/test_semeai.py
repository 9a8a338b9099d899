"""Capturing races on positions a Go player can count: liberties outside, liberties shared, eyes,
seki. GNU Go 3.8's ``analyze_semeai`` gives the same two codes on each picture, but where a
test says otherwise."""

import re
import sys

import pytest
from test_gtp import fails, ok

from conftest import DATA, SEKI_WITH_EYES
from seog.features import coords
from seog.gtp.client import GtpEngine
from seog.gtp.referee import GtpReferee, Referee
from seog.reading.board import SearchBoard
from seog.reading.results import Code
from seog.reading.semeai import Race, analyze_semeai, count_group, static_race

SUITES = DATA / "gnugo-regression"

# Two groups side by side, each walled in by the other's wall: Black's A3-F3 has D2, E2 and F2,
# White's A4-F4 has D5, E5 and F5; no liberty is shared.
RACE_THREE_AGAINST_THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X X . .
    X X X . . . X . .
    O O O O O O X . .
    X X X X X X O . .
    O O O . . . O . .
    O O O O O O O . .
"""

# The same race with a fourth liberty for Black (C2).
RACE_FOUR_AGAINST_THREE = RACE_THREE_AGAINST_THREE.replace("O O O . . . O . .", "O O . . . . O . .")

# Black's corner group has one eye (A1) and two liberties shared with White's group (C1, D2),
# which has no eye and no other liberty.
ONE_EYE_AGAINST_NONE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X . . .
    O O O O O X . . .
    X X X . O X . . .
    . X . O O X . . .
"""

# Black's corner group walls in a square four (A1, B1, A2, B2): one big eye, five liberties to
# fill. White's group has a one-point eye (A5) and one liberty of its own (E4); they share D3,
# D2 and D1. Black needs five moves to take White (E4, the three shared, A5), White eight.
BIG_EYE_AGAINST_SMALL = """
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X . . .
    O O O O O X . . .
    . O O O O X . . .
    O O O O . X . . .
    X X X . O X . . .
    . . X . O X . . .
    . . X . O X . . .
"""

# Black's nine stones in the corner and White's group share D1, D2 and D3 and have no eye: the
# side that fills the second shared liberty is taken, and the nine stones taken would give
# White room to live.
SEKI_WITHOUT_EYES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X . . .
    O O O O O X . . .
    X X X . O X . . .
    X X X . O X . . .
    X X X . O X . . .
"""


# The race of RACE_THREE_AGAINST_THREE, but Black's group has two liberties (A2, C2) and White's
# B1-C1 inside has A1 and C2. White's throw-in at A2 puts Black in atari; Black takes it at A1,
# a ko, and White needs a threat to take back.
RACE_ON_A_KO = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X X . .
    X X X . . . X . .
    O O O O O O X . .
    X X X X X X O . .
    . X . X O O O . .
    . O O X O O O . .
"""


def race(picture: str, a: str, b: str):
    board = SearchBoard.from_rows(picture)

    def at(vertex: str) -> int:
        return coords.from_gtp(vertex, board.size)

    before = board.to_rows()
    result = analyze_semeai(board, at(a), at(b))
    assert board.to_rows() == before and board.depth() == 0  # the search leaves the board as it was
    return result, at


def test_equal_liberties_the_side_to_move_wins_the_race():
    result, at = race(RACE_THREE_AGAINST_THREE, "A3", "A4")
    assert (result.defend, result.attack) == (Code.WIN, Code.WIN)
    assert result.move in {at("D5"), at("E5"), at("F5")}  # filling one of White's liberties
    result, at = race(RACE_THREE_AGAINST_THREE, "A4", "A3")
    assert (result.defend, result.attack) == (Code.WIN, Code.WIN)
    assert result.move in {at("D2"), at("E2"), at("F2")}


def test_four_liberties_against_three_win_even_moving_second():
    result, _ = race(RACE_FOUR_AGAINST_THREE, "A3", "A4")
    assert result.race == Race.B_DIES
    result, _ = race(RACE_FOUR_AGAINST_THREE, "A4", "A3")
    assert (result.defend, result.attack, result.move) == (Code.LOSS, Code.LOSS, None)


def test_one_eye_beats_no_eye_whoever_moves_first():
    result, _ = race(ONE_EYE_AGAINST_NONE, "B1", "A3")
    assert result.race == Race.B_DIES
    result, _ = race(ONE_EYE_AGAINST_NONE, "A3", "B1")
    assert result.race == Race.A_DIES
    board = SearchBoard.from_rows(ONE_EYE_AGAINST_NONE)
    black = count_group(board, coords.from_gtp("B1", 9))
    assert [sorted(coords.to_gtp(p, 9) for p in eye) for eye in black.eyes] == [["A1"]]


def test_a_big_eye_beats_a_small_eye_whoever_moves_first():
    result, _ = race(BIG_EYE_AGAINST_SMALL, "A3", "A4")
    assert result.race == Race.B_DIES
    # White moving first still loses (GNU Go answers 1 0, a seki, here): a stone it throws in
    # the square four is taken while Black fills the shared liberties.
    result, _ = race(BIG_EYE_AGAINST_SMALL, "A4", "A3")
    assert (result.defend, result.attack, result.move) == (Code.LOSS, Code.LOSS, None)


def test_a_race_that_hangs_on_a_ko():
    # Black first fills a liberty of White's and wins by the ko, which it takes first.
    result, at = race(RACE_ON_A_KO, "A3", "A4")
    assert (result.defend, result.attack) == (Code.KO_A, Code.KO_A)
    assert result.move in {at("D5"), at("E5"), at("F5")}
    # White first throws in at A2 at once; Black takes the ko, and White must find a threat.
    result, at = race(RACE_ON_A_KO, "A4", "A3")
    assert (result.defend, result.attack, result.move) == (Code.KO_B, Code.KO_B, at("A2"))


def test_a_seki_with_eyes_and_a_shared_liberty_needs_no_move():
    for a, b in (("B7", "D7"), ("D7", "B7")):
        result, _ = race(SEKI_WITH_EYES, a, b)
        assert (result.defend, result.attack, result.move) == (Code.WIN, Code.LOSS, None)


def test_a_seki_without_eyes_when_neither_can_fill_a_shared_liberty():
    for a, b in (("A1", "A4"), ("A4", "A1")):
        result, _ = race(SEKI_WITHOUT_EYES, a, b)
        assert result.race == Race.SEKI and result.move is None


def test_the_static_count_agrees_with_the_search_on_plain_races():
    board = SearchBoard.from_rows(RACE_FOUR_AGAINST_THREE)
    a3, a4 = coords.from_gtp("A3", 9), coords.from_gtp("A4", 9)
    assert static_race(board, a3, a4, to_move=-1) == Race.B_DIES  # White first still loses
    board = SearchBoard.from_rows(SEKI_WITHOUT_EYES)
    a1, a4 = coords.from_gtp("A1", 9), coords.from_gtp("A4", 9)
    assert static_race(board, a1, a4, to_move=1) == Race.SEKI


def test_analyze_semeai_needs_stones_of_both_colours():
    board = SearchBoard.from_rows(RACE_THREE_AGAINST_THREE)
    with pytest.raises(ValueError, match="opposite colours"):
        analyze_semeai(board, coords.from_gtp("A3", 9), coords.from_gtp("B3", 9))


# ---- GTP -------------------------------------------------------------------------------------
def test_gtp_analyze_semeai_answers_in_gnu_gos_format():
    gtp = GtpReferee(Referee(model=None))
    ok(gtp, "boardsize 9")
    for row, line in zip(range(9, 0, -1), RACE_FOUR_AGAINST_THREE.split("\n")[1:]):
        for col, stone in zip("ABCDEFGHJ", line.split()):
            if stone != ".":
                ok(gtp, f"play {'black' if stone == 'X' else 'white'} {col}{row}")
    assert re.fullmatch("1 1 [DEF]5", ok(gtp, "analyze_semeai A3 A4"))
    assert ok(gtp, "analyze_semeai A4 A3") == "0 0 PASS"
    assert fails(gtp, "analyze_semeai A3") == "syntax error: usage analyze_semeai VERTEX VERTEX"
    assert fails(gtp, "analyze_semeai A3 H9") == "vertex must not be empty"
    assert fails(gtp, "analyze_semeai A3 B3") == "the two groups must be of opposite colours"


@pytest.mark.skipif(not SUITES.is_dir(), reason="GNU Go's regression suites are in ../shared")
def test_seog_gtp_reads_races_of_gnu_gos_semeai_suite():
    # semeai.tst 1, 5, 13 and 14: a seki in the corner, a race the side to move wins, and a race
    # that one side wins whoever moves (its first two numbers, as GNU Go expects).
    cases = [("games/semeai/semeai6.sgf", "analyze_semeai C1 E1", "1 0"),
             ("games/semeai/semeai6.sgf", "analyze_semeai A14 A12", "1 1"),
             ("games/semeai/semeai8.sgf", "analyze_semeai C1 E1", "0 0"),
             ("games/semeai/semeai8.sgf", "analyze_semeai E1 C1", "1 1")]
    engine = GtpEngine([sys.executable, "-m", "seog", "gtp", "--no-model"], cwd=str(SUITES), timeout=60)
    try:
        answers = []
        for game, command, _ in cases:
            engine.send(f"loadsgf {game}")
            answers.append(" ".join(engine.send(command).split()[:2]))
    finally:
        engine.close()
    assert answers == [want for _, _, want in cases]
