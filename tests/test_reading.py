"""Tactical reading: a block is dead only when it is captured whoever moves first."""

from dataclasses import replace

import numpy as np
import pytest

from conftest import SEKI_CORNER, at, board, decided_game, verdicts
from seog.classifiers.settings import DEFAULT
from seog.features.reading import Reader
from seog.features.topology import analyze


def _dead(picture: str, row: int, col: int) -> bool:
    topo = analyze(board(picture).grid)
    return Reader(topo.grid).dead(at(topo, row, col).points)


# Black's wall on the left edge with one eye of two points (A5, B5): two liberties, no second
# eye, inside a White wall with plenty of liberties.
ONE_EYE = """
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O . . .
    X X X X X O . . .
    . . X X X O . . .
    X X X X X O . . .
    O O O O O O . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_a_one_eyed_group_short_of_liberties_is_dead():
    assert _dead(ONE_EYE, 3, 0)


def test_two_eyes_are_not_dead():
    two_eyes = ONE_EYE.replace(". . X X X O . . .", ". X . X X O . . .")
    assert not _dead(two_eyes, 3, 0)


def test_a_capturing_race_the_group_wins_when_it_moves_first_is_not_dead():
    # The same one-eyed group, but White's wall has only two liberties (D2, E2) of its own:
    # Black to play takes the wall, so the group is not dead whoever moves first.
    race = """
        . . . . . . . . .
        X X X . . X X . .
        O O O O O O X . .
        X X X X X O X . .
        . . X X X O X . .
        X X X X X O X . .
        O O O O O O X . .
        X X X X X X X . .
        . . . . . . . . .
    """
    assert not _dead(race, 3, 0)
    # ...and when White's wall has more liberties than the group's eye, Black loses the race.
    longer = race.replace("X X X . . X X . .", "X . . . . . X . .")
    assert _dead(longer, 3, 0)


def test_a_block_with_many_liberties_has_escaped():
    assert not _dead(ONE_EYE.replace("O O O O O O . . .\n    X X X X X O", "O O O O O . . . .\n    X X X X X ."),
                     3, 0)


def test_seki_is_not_dead():
    seki = SEKI_CORNER  # neither block is dead
    assert not _dead(seki, 7, 0)
    assert not _dead(seki, 6, 0)
    # Give Black an eye at A9 instead of a stone, and White, with no eye, loses the race.
    eye = seki[:seki.rindex("X X . O X")] + ". X . O X . . . .\n"
    assert _dead(eye, 6, 0)


def test_reading_settles_a_big_one_eyed_group_in_a_real_game():
    # kgs-2017-q1 2017-03-31-9: a filled board of a bot game; Black's 21 stones on the right
    # (L11-T9) have one two-point eye and two liberties; the players count them dead.
    topo, truth, statuses = decided_game("kgs-2017-q1", "2017-03-31-9")
    read_dead = [s for s in statuses if s.source == "reading"]
    assert read_dead and all(not truth[s.block] for s in read_dead)
    assert max(len(s.points) for s in read_dead) >= 20
    assert all(s.alive == bool(truth[s.block]) for s in statuses)


@pytest.mark.parametrize("size", [9, 13, 19])
def test_reading_never_raises_on_random_boards(size):
    rng = np.random.default_rng(size)
    from seog.features.board import Board, IllegalMove
    b = Board(size)
    for _ in range(size * size * 2):
        p = int(rng.integers(0, (size + 2) ** 2))
        try:
            b.play(1 if rng.random() < 0.5 else -1, p)
        except (IllegalMove, IndexError):
            pass
    topo = analyze(b.grid)
    reader = Reader(b.grid)
    start = bytes(reader.start)
    answers = [reader.dead(block.points) for block in topo.blocks if len(block.liberties) <= 3]
    assert answers
    assert bytes(reader.start) == start  # the search plays on copies


def test_read_dead_needs_living_capturers():
    from seog.classifiers.reading import read_dead

    topo = analyze(board(ONE_EYE).grid)
    group = at(topo, 3, 0)
    statuses = read_dead(topo, verdicts(topo))
    assert statuses[group.id].source == "reading" and not statuses[group.id].alive
    # With White's wall called dead, nothing alive is there to capture the group.
    wall = topo.blocks[group.opponents[0]]
    assert read_dead(topo, verdicts(topo, dead={wall.id}))[group.id].alive


# Two black stones with a two-point eye in the corner: capturable, but small.
TWO_STONES_IN_THE_CORNER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O . . . . . .
    X X O . . . . . .
    . . O . . . . . .
"""


def test_read_dead_leaves_small_blocks_to_the_model():
    from seog.classifiers.reading import read_dead

    topo = analyze(board(TWO_STONES_IN_THE_CORNER).grid)
    block = at(topo, 7, 0)
    assert len(block.points) < DEFAULT.read_min_stones and Reader(topo.grid).dead(block.points)
    assert read_dead(topo, verdicts(topo))[block.id].alive


def test_two_stones_in_the_corner_are_read_dead_when_the_settings_read_two_stones():
    from seog.classifiers.reading import read_dead

    topo = analyze(board(TWO_STONES_IN_THE_CORNER).grid)
    block = at(topo, 7, 0)
    out = read_dead(topo, verdicts(topo), replace(DEFAULT, read_min_stones=2))
    assert not out[block.id].alive and out[block.id].source == "reading"
    # a search without the plies to fill both liberties proves nothing
    assert read_dead(topo, verdicts(topo), replace(DEFAULT, read_min_stones=2, read_depth=1))[block.id].alive
