"""Benson's unconditional life on small positions."""

from conftest import board
from seog.features.benson import unconditionally_alive
from seog.features.topology import analyze


def alive_points(picture):
    t = analyze(board(picture).grid)
    return {int(p) for b in unconditionally_alive(t) for p in t.blocks[b].points}


def test_a_group_with_two_real_eyes_is_alive_and_one_eye_is_not():
    two_eyes = alive_points("""
        . X . X .
        X X X X X
        . . . . .
        . . . . .
        . . . . .
    """)
    assert two_eyes == set(range(1, 4, 2)) | set(range(5, 10))
    one_eye = alive_points("""
        . X . . .
        X X . . .
        . . . . .
        . . . . .
        . . . . .
    """)
    assert one_eye == set()



def test_an_edge_wall_with_two_one_point_eyes_is_alive():
    # A5, C5 and E5 hang from the wall below: one block with the row, eyes at B5 and D5.
    pts = alive_points("""
        X . X . X
        X X X X X
        . . . . .
        . . . . .
        . . . . .
    """)
    assert pts == {0, 2, 4} | set(range(5, 10))
