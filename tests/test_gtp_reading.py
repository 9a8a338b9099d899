"""GNU Go's reading commands in ``seog gtp``: attack and defend with GNU Go's answers, moves tried
and taken back, loadsgf at a move number, and cases of GNU Go's own reading suite."""

import re
import sys

import pytest
from test_gtp import fails, ok

from conftest import DATA
from seog.gtp.client import GtpEngine
from seog.gtp.referee import GtpReferee, Referee

SUITES = DATA / "gnugo-regression"


@pytest.fixture
def gtp():
    return GtpReferee(Referee(model=None))


def ladder(gtp: GtpReferee) -> None:
    """A black stone in atari at E5 on 9x9 whose escape at E4 runs into a working ladder."""
    ok(gtp, "boardsize 9")
    for move in ("black E5", "white E6", "white D5", "white F5", "white F4"):
        ok(gtp, f"play {move}")


def test_attack_and_defend_answer_with_gnu_gos_codes_and_moves(gtp):
    ladder(gtp)
    assert ok(gtp, "attack E5") == "1 E4"
    assert ok(gtp, "defend E5") == "0"
    assert fails(gtp, "attack E4") == "vertex must not be empty"
    assert fails(gtp, "defend").startswith("syntax error")


def test_a_tried_ladder_breaker_saves_the_stone_until_it_is_taken_back(gtp):
    ladder(gtp)
    ok(gtp, "trymove black B2")
    assert ok(gtp, "defend E5") == "1 E4"
    ok(gtp, "popgo")
    assert ok(gtp, "defend E5") == "0"
    assert fails(gtp, "popgo") == "Stack empty."


def test_the_old_play_commands_and_the_depth_commands(gtp):
    ladder(gtp)
    ok(gtp, "black B2")  # GNU Go's old form of play black B2
    ok(gtp, "white J9")
    assert ok(gtp, "defend E5") == "1 E4"
    budget = gtp.reading.nodes
    ok(gtp, "increase_depths")  # a search of twice the nodes
    assert gtp.reading.nodes == 2 * budget
    ok(gtp, "decrease_depths")
    assert gtp.reading.nodes == budget


def test_loadsgf_at_a_move_number_answers_the_side_to_move(gtp, tmp_path):
    path = tmp_path / "short.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gg];W[cg])")
    assert ok(gtp, f"loadsgf {path} 2") == "white"  # the position before White's move 2
    assert gtp.referee.board.to_rows()[4] == "....X...."
    assert ok(gtp, f"loadsgf {path} 3") == "black"
    assert ok(gtp, f"loadsgf {path}") == "black"  # after the last move, White's


@pytest.mark.skipif(not SUITES.is_dir(), reason="GNU Go's regression suites are in ../shared")
def test_seog_gtp_answers_the_first_cases_of_gnu_gos_reading_suite():
    # reading.tst 1-9 on the position before move 212 of incident2: as GNU Go expects.
    expected = {"attack E3": "0", "attack F1": "1 G1", "defend F1": "1 G1", "attack E19": "2 D19",
                "defend E19": "1 D19", "attack S5": "1 (S4|T5)", "defend S5": "0", "attack O3": "1 O4",
                "defend O3": "0"}
    engine = GtpEngine([sys.executable, "-m", "seog", "gtp", "--no-model"], cwd=str(SUITES), timeout=60)
    try:
        assert engine.send("loadsgf games/incident2.sgf 212") == "white"
        answers = {command: engine.send(command) for command in expected}
    finally:
        engine.close()
    assert {c: a for c, a in answers.items() if not re.fullmatch(expected[c], a)} == {}
