"""Influence maps on hand-drawn positions: Zobrist dilation/erosion, territory, status-aware spread."""

import numpy as np

from seog.features import influence as inf
from tests.conftest import board


def test_one_dilation_of_a_lone_stone_touches_only_its_four_neighbours():
    grid = board("""
        .....
        .....
        ..X..
        .....
        .....""").grid
    v = inf.zobrist(grid, 1, 0)
    assert v[2, 2] == 128
    assert [v[1, 2], v[3, 2], v[2, 1], v[2, 3]] == [1, 1, 1, 1]
    assert (v != 0).sum() == 5


def test_second_dilation_adds_the_number_of_positive_neighbours():
    grid = board("""
        .....
        .....
        ..X..
        .....
        .....""").grid
    v = inf.zobrist(grid, 2, 0)
    assert v[1, 2] == 1 + 1          # touches the stone
    assert v[1, 1] == 2              # diagonal: two positive neighbours
    assert v[0, 2] == 1              # two points away, straight
    assert v[0, 0] == 0


def test_dilation_stops_where_the_colours_meet():
    grid = board("""
        X.O
        ...
        ...""").grid
    v = inf.zobrist(grid, 1, 0)
    assert v[0, 1] == 0              # touched by both: unchanged
    assert v[1, 0] == 1 and v[1, 2] == -1


def test_erosion_wipes_a_thin_halo_and_keeps_the_stone():
    grid = board("""
        .....
        .....
        ..X..
        .....
        .....""").grid
    v = inf.zobrist(grid, 1, 1)
    assert v[2, 2] == 128            # all its neighbours are positive
    assert (v != 0).sum() == 1


def test_erosion_ignores_points_off_the_board():
    grid = board("""
        X..
        ...
        ...""").grid
    v = inf.zobrist(grid, 0, 1)
    assert v[0, 0] == 128 - 2        # two on-board neighbours, both empty


def test_bouzy_territory_of_a_closed_corner():
    grid = board("""
        ...X.....
        ...X.....
        ...X.....
        XXXX.....
        .........
        .....OOOO
        .....O...
        .....O...
        .....O...""").grid
    t = inf.territory(grid)
    assert (t[:3, :3] > 0).all()                 # inside black's wall
    assert (t[6:, 6:] < 0).all()                 # inside white's wall
    assert (t[4, 2:7] == 0).all() and (t[:3, 5:] == 0).all()  # the open middle and far side: no one


def test_influence_and_territory_together_match_the_separate_maps():
    grid = board("""
        ..XO.
        .XXO.
        .XOO.
        .XO..
        .....""").grid
    infl, terr = inf.influence_and_territory(grid)
    assert np.array_equal(infl, inf.influence(grid))
    assert np.array_equal(terr, inf.territory(grid))


def test_status_influence_follows_the_pattern_and_the_status():
    b = board("""
        .......
        .......
        .......
        ...X...
        .......
        .......
        .......""")
    block_of = (b.grid != 0).astype(int)
    alive = inf.status_influence(b.grid, block_of, [1.0])
    assert alive[3, 3] == 4 and alive[2, 3] == 3 and alive[2, 2] == 2 and alive[0, 3] == 1
    assert alive[0, 0] == 0
    dead = inf.status_influence(b.grid, block_of, [0.0])
    assert np.array_equal(dead, -alive)          # a dead stone works for the opponent
    assert not inf.status_influence(b.grid, block_of, [0.5]).any()
