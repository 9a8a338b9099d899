"""The agreed-position count (``scoring.agreed``): once the players have said which stones are dead,
a group they left alive that cannot make two eyes is in seki, and its eyes are no one's under
territory rules. goscorer's 91 maps check the convention at length (tests/test_goscorer.py); these
pictures pin down what changes for a request that gives its dead stones."""

import numpy as np

from conftest import board
from seog.features.coords import BLACK, WHITE
from seog.scoring.count import count
from seog.scoring.request import from_board
from seog.scoring.rules import get_rules
from seog.scoring.score import score

# White's corner group (C9, A8, B8, C8, with the two-point eye A9 B9) shares D9 with Black's wall. Black can fill D9 and kill it, but the players left it alive: it
# cannot make two eyes, so by agreement it lives in seki, and its eye A9 B9 counts for nobody.
LEFT_ALIVE = """
    . . O . X . . . .
    O O O X X . . . .
    X X X X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
EYE = [0, 1]  # A9, B9
WHITE_STONES = [2, 9, 10, 11]


def test_a_group_left_alive_without_two_eyes_is_in_seki_when_the_dead_stones_are_given():
    counted = score(from_board(board(LEFT_ALIVE), rules="japanese", komi=0, dead=[]), model=None)
    assert sorted(counted.seki) == WHITE_STONES
    assert len(counted.territory[WHITE]) == 0
    assert {0, 1, 3}.issubset(set(counted.dame))  # its eye and the shared liberty D9
    # Black: every other empty point (81 - 4 white stones - 7 black stones - 3 dame)
    assert len(counted.territory[BLACK]) == 67
    assert counted.result == "B+67"


def test_the_tactical_count_finds_no_seki_where_black_can_fill_the_shared_liberty():
    grid = board(LEFT_ALIVE).grid
    tactical = count(grid, np.zeros(grid.shape, bool), get_rules("japanese"), 0)
    assert len(tactical.seki) == 0
    assert sorted(tactical.territory[WHITE]) == EYE


def test_an_override_makes_the_statuses_given():
    request = from_board(board(LEFT_ALIVE), rules="japanese", komi=0, overrides={2: True})
    assert request.statuses_given
    assert not from_board(board(LEFT_ALIVE), rules="japanese", komi=0).statuses_given
    assert len(score(request, model=None).territory[WHITE]) == 0


def test_area_rules_count_the_eyes_of_a_seki_whoever_decided():
    grid = board(LEFT_ALIVE).grid
    none_dead = np.zeros(grid.shape, bool)
    chinese = get_rules("chinese")
    agreed, tactical = (count(grid, none_dead, chinese, 0, agreed=a) for a in (True, False))
    assert agreed.margin == tactical.margin
    assert sorted(agreed.territory[WHITE]) == EYE


def test_an_engines_dead_stones_count_as_seog_counts_its_own_reading():
    # a teacher's labels train seog's reading, so they are checked with the count that reading gets
    request = from_board(board(LEFT_ALIVE), rules="japanese", komi=0, dead=[], dead_agreed=False)
    assert not request.statuses_given
    assert sorted(score(request, model=None).territory[WHITE]) == EYE
