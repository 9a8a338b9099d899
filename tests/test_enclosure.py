"""The area a group is shut in (``seog.reading.enclosure``), on small pictures."""

import pytest

from seog.features import coords
from seog.reading.board import SearchBoard
from seog.reading.enclosure import shut_in, stands

# Three black stones in White's corner: all they reach without crossing White's wall is the
# corner's 16 points.
IN_THE_CORNER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O . . . .
. . . . O . . . .
. X X . O . . . .
. . X . O . . . .
. . . . O . . . .
"""

# Two black stones in the open, White's stones loose around them.
IN_THE_OPEN = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O . . . . .
. . . . X . . . .
. . . . X O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# Black's B3-C3-C4 is shut in White's corner, but White's D3 in the wall has two liberties inside
# (D4, D2), and Black's E3 stands behind it.
WEAK_WALL = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . X . .
O O O O O O X . .
. . X . O X . . .
. X X O X . . . .
. . . . O X . . .
. . . . O X . . .
"""


def read(picture: str):
    b = SearchBoard.from_rows(picture)
    return b, (lambda v: coords.from_gtp(v, b.size))


def test_stones_in_the_opponents_corner_are_shut_in_its_corner():
    b, at = read(IN_THE_CORNER)
    enclosure = shut_in(b, at("C3"), frozenset(), 60)
    corner = {at(c + r) for c in "ABCD" for r in "1234"}
    assert enclosure.points == corner
    assert enclosure.wall == (b.block[at("E1")].stones[0],)  # one white block walls it
    assert stands(b, enclosure)


def test_an_area_larger_than_the_limit_is_open_board():
    b, at = read(IN_THE_CORNER)
    assert shut_in(b, at("C3"), frozenset(), 15) is None


def test_a_group_in_the_open_is_not_shut_in():
    b, at = read(IN_THE_OPEN)
    assert shut_in(b, at("E5"), frozenset(), 60) is None


def test_a_wall_block_read_dead_is_a_hole_in_the_wall():
    b, at = read(IN_THE_CORNER)
    wall = b.block[at("E1")].stones[0]
    assert shut_in(b, at("C3"), frozenset({wall}), 60) is None


def test_taking_a_block_of_the_wall_lets_the_group_out():
    b, at = read(WEAK_WALL)
    enclosure = shut_in(b, at("C3"), frozenset(), 60)
    assert at("D3") not in enclosure.points and len(enclosure.wall) == 3
    assert b.try_play(coords.BLACK, at("D4"))  # D3 in atari: still a wall until it is taken
    assert stands(b, enclosure)
    assert b.try_play(coords.BLACK, at("D2"))  # D3 taken
    assert not stands(b, enclosure)
    b.undo()
    assert stands(b, enclosure)


def test_an_empty_point_has_no_area():
    b, at = read(IN_THE_OPEN)
    with pytest.raises(ValueError):
        shut_in(b, at("A1"), frozenset(), 60)
