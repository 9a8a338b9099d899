import pytest

from conftest import board
from seog.features import coords
from seog.features.board import Board, IllegalMove


def gtp(b, v):
    return coords.from_gtp(v, b.size)


def test_capture_removes_the_block_and_counts_prisoners():
    b = board("""
        .....
        .XX..
        XOO..
        .XX..
        .....""")
    assert b.play(coords.BLACK, gtp(b, "D3")) == 2
    assert b.grid[2, 1] == coords.EMPTY and b.grid[2, 2] == coords.EMPTY
    assert b.prisoners[coords.BLACK] == 2 and b.ko is None


def test_suicide_is_illegal_and_leaves_the_board_unchanged():
    b = board("""
        .X...
        X....
        .....
        .....
        .....""")
    before = b.stones.copy()
    with pytest.raises(IllegalMove, match="suicide"):
        b.play(coords.WHITE, gtp(b, "A5"))
    assert (b.stones == before).all()


def test_ko_cannot_be_retaken_at_once_but_can_after_a_move_elsewhere():
    b = board("""
        .XO..
        XO.O.
        .XO..
        .....
        .....""")
    b.play(coords.BLACK, gtp(b, "C4"))  # captures B4
    with pytest.raises(IllegalMove, match="ko"):
        b.play(coords.WHITE, gtp(b, "B4"))
    b.play(coords.WHITE, gtp(b, "E1"))
    b.play(coords.BLACK, gtp(b, "E2"))
    assert b.play(coords.WHITE, gtp(b, "B4")) == 1


def test_occupied_point_is_illegal():
    b = Board(9)
    b.play(coords.BLACK, gtp(b, "E5"))
    with pytest.raises(IllegalMove, match="occupied"):
        b.play(coords.WHITE, gtp(b, "E5"))


def test_capturing_one_stone_with_a_connected_stone_is_not_a_ko():
    b = board("""
        OX...
        .....
        X....
        .....
        .....""")
    assert b.play(coords.BLACK, gtp(b, "A4")) == 1  # captures A5; A4 joins A3: no ko
    assert b.ko is None


def test_snapback_the_capturing_block_is_taken_back_at_once():
    b = board("""
        XO..OX
        XOOOOX
        XXXXXX
        ......
        ......
        ......""")
    b.play(coords.BLACK, gtp(b, "C6"))  # the throw-in: a stone in atari
    assert b.play(coords.WHITE, gtp(b, "D6")) == 1  # White takes it...
    assert b.ko is None  # ...with a block, not a single stone: no ko
    assert b.play(coords.BLACK, gtp(b, "C6")) == 7  # ...and Black takes seven back
    assert b.prisoners == {coords.BLACK: 7, coords.WHITE: 1}


def test_multi_stone_suicide_where_the_rules_allow_it_gives_the_opponent_prisoners():
    b = board("""
        .XO..
        XXO..
        OO...
        .....
        .....""")
    before = b.stones.copy()
    with pytest.raises(IllegalMove, match="suicide"):
        b.play(coords.BLACK, gtp(b, "A5"))
    assert (b.stones == before).all()
    assert b.play(coords.BLACK, gtp(b, "A5"), suicide=True) == 0  # New Zealand, Tromp-Taylor
    assert b.to_rows()[:2] == ["..O..", "..O.."] and b.ko is None
    assert b.prisoners == {coords.BLACK: 0, coords.WHITE: 4}


def test_a_move_that_captures_is_no_suicide_even_where_suicide_is_allowed():
    b = board("""
        .XO..
        XOO..
        OO...
        .....
        .....""")
    assert b.play(coords.WHITE, gtp(b, "A5"), suicide=True) == 2  # takes B5 and A4 first
    assert b.to_rows()[:2] == ["O.O..", ".OO.."] and b.prisoners[coords.WHITE] == 2
