"""The search board: play and undo in place give back the position, its blocks and its hash;
captures, suicide and simple ko follow the rules of the analysis board."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import board
from seog.features import coords
from seog.features.board import IllegalMove
from seog.features.coords import BLACK, EMPTY, WHITE
from seog.reading.board import SearchBoard


def at(vertex: str, size: int) -> int:
    return coords.from_gtp(vertex, size)


def snapshot(b: SearchBoard) -> tuple:
    """What a position is: stones, hash, ko, captures, and each stone's block as (stones, liberties)."""
    blocks = tuple((p, tuple(sorted(b.block[p].stones)), tuple(sorted(b.block[p].libs)))
                   for p in b.points if b.color[p] != EMPTY)
    return tuple(b.color), b.hash, b.ko, dict(b.captures), blocks


def rebuilt(b: SearchBoard) -> SearchBoard:
    """The same stones labelled from scratch."""
    return SearchBoard.from_board(b.to_board())


def test_a_capture_takes_the_block_off_and_undo_puts_it_back():
    b = SearchBoard.from_rows("""
        . X O .
        X O . .
        . X . .
        . . . .
    """)
    before = snapshot(b)
    assert b.play(BLACK, at("C3", 4)) == 1  # B3 had one liberty left
    assert b.color[at("B3", 4)] == EMPTY and b.captures[BLACK] == 1
    assert sorted(b.block[at("C3", 4)].libs) == sorted(at(v, 4) for v in ("B3", "D3", "C2"))
    assert sorted(b.block[at("A3", 4)].libs) == sorted(at(v, 4) for v in ("A4", "A2", "B3"))
    b.undo()
    assert snapshot(b) == before


def test_the_board_tells_the_stones_the_last_move_took():
    b = SearchBoard.from_rows("""
        O X X .
        . O O .
        . . . .
        . . . .
    """)
    assert b.last_captured() == []
    b.play(WHITE, at("D4", 4))  # the pair's last liberty
    assert sorted(b.last_captured()) == sorted(at(v, 4) for v in ("B4", "C4"))
    b.play(BLACK, None)
    assert b.last_captured() == []


def test_suicide_is_refused_and_leaves_the_board_as_it_was():
    b = SearchBoard.from_rows("""
        . X . .
        X . . .
        . . . .
        . . . .
    """)
    before = snapshot(b)
    assert not b.is_legal(WHITE, at("A4", 4))
    with pytest.raises(IllegalMove):
        b.play(WHITE, at("A4", 4))
    assert snapshot(b) == before
    assert b.is_legal(BLACK, at("A4", 4))  # filling one's own eye is legal


def test_the_board_counts_every_move_played_and_no_refused_one():
    # what every search on the board costs: a move undone still cost its play; a suicide or an
    # occupied point did not
    b = SearchBoard.from_rows("""
        . X . .
        X . . .
        . . . .
        . . . .
    """)
    assert b.played == 0
    assert not b.try_play(WHITE, at("A4", 4)) and not b.try_play(WHITE, at("B4", 4))
    assert b.played == 0
    assert b.try_play(WHITE, at("D1", 4)) and b.try_play(BLACK, None)
    b.undo()
    b.undo()
    assert b.played == 2


def test_a_ko_cannot_be_taken_back_at_once_but_can_after_a_move_elsewhere():
    b = SearchBoard.from_rows("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """)
    assert b.play(BLACK, at("C4", 5)) == 1  # takes the ko at B4
    assert b.ko == at("B4", 5)
    assert not b.is_legal(WHITE, at("B4", 5))
    assert b.is_legal(WHITE, at("B4", 5), ignore_ko=True)
    b.play(WHITE, at("E1", 5))
    b.play(BLACK, at("A1", 5))
    assert b.ko is None and b.play(WHITE, at("B4", 5)) == 1  # the ko taken back after a threat


def test_a_capture_of_two_stones_makes_no_ko():
    b = SearchBoard.from_rows("""
        . X X O .
        X O O . O
        . X X O .
        . . . . .
        . . . . .
    """)
    assert b.play(BLACK, at("D4", 5)) == 2
    assert b.ko is None


def test_the_board_reads_the_analysis_boards_blocks_and_ko():
    analysis = board("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """)
    analysis.play(BLACK, at("C4", 5))
    b = SearchBoard.from_board(analysis)
    assert b.ko == analysis.ko == at("B4", 5)
    assert b.to_rows() == analysis.to_rows()
    assert len(b.block[at("C4", 5)].libs) == 1


def _random_game(seed: int, size: int, moves: int) -> tuple[SearchBoard, list]:
    rng = random.Random(seed)
    b = SearchBoard(size)
    played, color = [], BLACK
    for _ in range(moves):
        legal = [p for p in b.points if b.is_legal(color, p)]
        if not legal:
            break
        point = rng.choice(legal)
        played.append((snapshot(b), color, point))
        b.play(color, point)
        color = -color
    return b, played


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([5, 7, 9]), moves=st.integers(1, 120))
def test_undo_gives_back_every_position_of_a_random_game(seed, size, moves):
    b, played = _random_game(seed, size, moves)
    fresh = rebuilt(b)
    assert b.hash == fresh.hash  # the hash kept move by move is the hash of the stones
    assert snapshot(b)[4] == snapshot(fresh)[4]  # and so are the blocks and their liberties
    for before, _, _ in reversed(played):
        b.undo()
        assert snapshot(b) == before
    assert b.depth() == 0


def test_a_random_game_on_the_search_board_matches_the_analysis_board():
    rng = random.Random(7)
    b, a = SearchBoard(9), board("\n".join(["." * 9] * 9))
    color = BLACK
    for _ in range(300):
        legal = [p for p in b.points if b.is_legal(color, p)] or [None]  # a pass when nothing is legal
        point = rng.choice(legal)
        assert b.play(color, point) == a.play(color, point)
        assert b.ko == a.ko
        color = -color
    assert b.to_rows() == a.to_rows()


def test_liberties_after_a_move_count_what_it_joins_and_captures():
    b = SearchBoard.from_rows("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """)
    rng = random.Random(3)
    for _ in range(60):  # every legal move of either colour on positions of a random game
        color = rng.choice((BLACK, WHITE))
        for point in b.points:
            if b.is_legal(color, point):
                predicted = b.liberties_after(color, point)
                b.play(color, point)
                assert len(b.block[point].libs) == predicted
                b.undo()
        legal = [p for p in b.points if b.is_legal(color, p)]
        if legal:
            b.play(color, rng.choice(legal))
