"""A group's eye regions and open liberties on positions a Go player can check
(``seog.reading.groups.eye_regions``)."""

from seog.features import coords
from seog.reading.board import SearchBoard
from seog.reading.groups import eye_regions, group_of

# Black's wall fences off the lower-left corner (16 points) and faces open board above and to
# the right, where White has a stone.
WALL_FACING_OPEN_BOARD = """
. . . . . . . . .
. . . . . . . . .
. . . . O . . . .
. . . . . . . . .
X X X X X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
"""

# Black's corner group has three one-point eyes, A1, B2 and D2, and liberties in open board above it.
TWO_EYES_UNDER_OPEN_BOARD = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
X X X X X . . . .
X . X . X . . . .
. X X X X . . . .
"""


def _point(vertex: str) -> int:
    return coords.from_gtp(vertex, 9)


def test_a_wall_facing_open_board_keeps_its_corner_territory_and_every_outer_liberty_open():
    board = SearchBoard.from_rows(WALL_FACING_OPEN_BOARD)
    regions, open_libs = eye_regions(board, group_of(board, _point("A5")))
    assert len(regions) == 1
    corner = regions[0]
    assert len(corner.points) == 16 and corner.enclosed and not corner.walled
    assert open_libs == {_point(v) for v in ("A6", "B6", "C6", "D6", "E6", "F5", "F4", "F3", "F2", "F1")}


def test_two_small_eyes_are_walled_regions_and_the_liberties_above_are_open():
    board = SearchBoard.from_rows(TWO_EYES_UNDER_OPEN_BOARD)
    regions, open_libs = eye_regions(board, group_of(board, _point("A2")))
    assert [r.points for r in regions] == sorted([(_point("A1"),), (_point("B2"),), (_point("D2"),)])
    assert all(r.walled for r in regions)
    assert open_libs == {_point(v) for v in ("A4", "B4", "C4", "D4", "E4", "F3", "F2", "F1")}
