"""The Japanese ruling on bent four in the corner, where the count meets it: a group whose only
eye space is four points bent round the corner point is dead without play under Japanese rules
(the attacker fills the outside liberties, removes every ko threat, then starts the ko the
defender can never start first); the other presets take it as read. The same shape on the side
or in the middle is two eyes, and a group with another eye, or shut in by stones that are not
alive, is not this ruling."""

import numpy as np
import pytest

from conftest import BENT_FOUR_CORNER, at, board, verdicts
from seog.classifiers.vocabulary import Source
from seog.features.topology import analyze
from seog.scoring.rules import RULES
from seog.scoring.rulings import bent_four_in_the_corner, ruled_groups
from seog.scoring.score import score_position

CORNER = BENT_FOUR_CORNER
# The same four points bent round D9 on the top edge (D9 E9 F9 D8): two eyes whoever moves first.
SIDE = """
    . X O . . . O X .
    . X O . O O O X .
    . X O O O X X X .
    . X X X X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
# The bent four in the middle (D6 E6 F6 D5), inside a white ring shut in by Black's: two eyes.
MIDDLE = """
    . . . . . . . . .
    . X X X X X X X .
    . X O O O O O X .
    . X O . . . O X .
    . X O . O O O X .
    . X O O O X X X .
    . X X X X X . . .
    . . . . . . . . .
    . . . . . . . . .
"""
# The corner group with one more eye at E9: alive, the bent four or not.
SECOND_EYE = """
    . . . O . O X . .
    . O O O O O X . .
    O O X X X X X . .
    X X X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
# The corner group with a dame at E9 left open: Black fills it joining two of his blocks (no
# self-atari), so it saves nothing.
OPEN_DAME = """
    . . . O . X . . .
    . O O O X . . . .
    O O X X X . . . .
    X X X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""

# Black's stone at E9 is in atari: White takes it at F9 and has an eye there beside the corner.
ATARI_IN_THE_WALL = """
    . . . O X . X . .
    . O O O O X X . .
    O O X X X X . . .
    X X X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def ruled(picture: str, dead=()) -> list[list[int]]:
    """The groups the ruling kills, every block read alive but the ids in ``dead``."""
    topo = analyze(board(picture).grid)
    return ruled_groups(topo, list(verdicts(topo, dead).values()))


@pytest.mark.parametrize("picture", [CORNER, OPEN_DAME])
def test_a_group_whose_only_eye_space_is_bent_four_in_the_corner_is_ruled_dead(picture):
    topo = analyze(board(picture).grid)
    assert ruled(picture) == [[at(topo, 0, 3).id]]


@pytest.mark.parametrize("picture", [SIDE, MIDDLE, SECOND_EYE, ATARI_IN_THE_WALL])
def test_bent_four_on_the_side_in_the_middle_beside_another_eye_or_a_stone_to_take_is_no_ruling(picture):
    assert ruled(picture) == []


def test_bent_four_in_the_corner_shut_in_by_dead_stones_is_no_ruling():
    topo = analyze(board(CORNER).grid)
    assert ruled(CORNER, dead={at(topo, 0, 4).id}) == []


def test_only_rules_with_the_ruling_turn_the_group():
    topo = analyze(board(CORNER).grid)
    statuses = list(verdicts(topo).values())
    white = at(topo, 0, 3).id
    for name, rules in RULES.items():
        out = bent_four_in_the_corner(topo, statuses, rules)
        if name == "japanese":
            assert [(st.block, st.source) for st in out if not st.alive] == [(white, Source.RULING)]
        else:
            assert out is statuses


# Counted with the shipped model, which reads the white group alive: Japanese rules take it off
# (Black: 67 empty points, the 6 stones' points and the 6 stones as prisoners; White: komi).
# Chinese rules count it as it stands (White: 6 stones, 4 points of eye space and komi 7.5).
@pytest.mark.parametrize("rules, counted, alive", [("japanese", (79, 6.5), False), ("chinese", (71, 17.5), True)])
def test_bent_four_in_the_corner_counted_under_japanese_and_chinese_rules(rules, counted, alive):
    s = score_position(board(CORNER), rules=rules)
    white = [st for st in s.read if st.color == -1]
    assert (s.black, s.white) == counted
    assert [st.alive for st in white] == [alive]
    ruling = [n for n in s.notes if "bent four in the corner" in n]
    assert ruling == ([] if alive else ["dead by the Japanese ruling on bent four in the corner: 6 stones "
                                        "(D9, B8, C8, D8, A7, B7), whose only eye space is that shape"])


def test_bent_four_on_the_side_lives_under_japanese_and_chinese_rules():
    # White: 4 points of eye space (and 9 stones under area rules); Black: 55 points (and 13 stones).
    assert (score_position(board(SIDE), rules="japanese").white, score_position(board(SIDE), rules="chinese").white) \
        == (10.5, 20.5)


def test_the_players_word_stands_where_the_dead_stones_are_given():
    s = score_position(board(CORNER), rules="japanese", dead=np.zeros((9, 9), dtype=bool))
    assert all(st.alive for st in s.read) and (s.black, s.white) == (63, 10.5)


def test_the_callers_override_keeps_the_group_alive_under_japanese_rules():
    s = score_position(board(CORNER), rules="japanese", overrides={3: True})  # D9
    assert all(st.alive for st in s.read) and s.white == 10.5
