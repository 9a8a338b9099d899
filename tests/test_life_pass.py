"""The life-and-death pass (``classifiers.life``): a search that proves a group's fate decides it,
one that hangs on who moves first leaves the nets' verdict, one cut short only flags."""

from dataclasses import replace

from conftest import at, board, verdicts
from seog.classifiers.life import life_decided
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import static_statuses
from seog.classifiers.vocabulary import Doubt, Source
from seog.features.topology import analyze

# Only groups short of liberties are picked, so that each test reads the group it names.
SHORT = replace(DEFAULT, trigger_min_stones=2, trigger_few_liberties=4, trigger_roomy=0, trigger_race_liberties=0)


def decided(picture: str, dead=(), settings=SHORT):
    topo = analyze(board(picture).grid)
    statuses = verdicts(topo, dead)
    statuses.update(static_statuses(topo))
    return topo, statuses, life_decided(topo, statuses, settings)


# Black's corner has one eye of two points (B1, C1) inside White's wall; White lives outside.
ONE_EYE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    X X X X O . . . .
    X . . X O . . . .
"""


def test_one_eye_in_the_corner_is_read_dead_against_the_nets():
    topo, before, after = decided(ONE_EYE)
    black = at(topo, 6, 0).id
    assert before[black].alive  # the nets call it alive, and are sure of it
    assert not after[black].alive and after[black].source == Source.LIFE
    assert after[black].p_alive == before[black].p_alive  # the nets' probability is kept for the record


# Black's corner holds a straight four (A1-D1) of its own: alive whoever moves first.
STRAIGHT_FOUR = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O . . .
    X X X X X O . . .
    X X X X X O . . .
    . . . . X O . . .
"""


def test_a_straight_four_the_nets_call_dead_is_read_alive():
    topo = analyze(board(STRAIGHT_FOUR).grid)
    black = at(topo, 6, 0).id
    _, before, after = decided(STRAIGHT_FOUR, dead={black})
    assert not before[black].alive
    assert after[black].alive and after[black].source == Source.LIFE


# Black's corner holds a straight three (A1-C1): it lives moving first, dies if White plays B1.
STRAIGHT_THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    X X X X O . . . .
    . . . X O . . . .
"""


def test_a_straight_three_hangs_on_who_moves_first_and_keeps_the_nets_verdict():
    topo = analyze(board(STRAIGHT_THREE).grid)
    black = at(topo, 6, 0).id
    for dead in ((), (black,)):
        _, before, after = decided(STRAIGHT_THREE, dead=dead)
        assert after[black] == before[black]


def test_a_search_cut_short_flags_a_verdict_it_reads_otherwise_and_decides_nothing():
    topo = analyze(board(ONE_EYE).grid)
    black = at(topo, 6, 0).id
    _, before, after = decided(ONE_EYE, settings=replace(SHORT, life_nodes=1))
    assert after[black].alive == before[black].alive and after[black].source == before[black].source
    assert after[black].doubt == Doubt.UNREAD


def test_the_pass_reads_nothing_where_the_trigger_picks_nothing():
    _, before, after = decided(ONE_EYE, settings=replace(SHORT, trigger_few_liberties=0))
    assert after == before


def test_a_position_whose_budget_is_spent_reads_no_more_groups():
    _, before, after = decided(ONE_EYE, settings=replace(SHORT, life_position_nodes=0))
    assert after == before


# Two corners of one eye each, Black's bottom left and White's top right.
TWO_CORNERS = """
    . . . . X O . . .
    . . . . X O O O O
    . . . . X X X X X
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    X X X X O . . . .
    X . . X O . . . .
"""


def test_the_position_budget_counts_every_move_of_a_groups_reading():
    # the pre-reads of the stones around a group and the races count as well as the owl's
    # moves: a budget the first group's reading spends whole leaves the second unread
    from seog.classifiers.life import group_readings
    from seog.features.board import Board
    from seog.features.coords import index_to_flat
    from seog.reading import life
    from seog.reading.board import SearchBoard

    topo = analyze(board(TWO_CORNERS).grid)
    first, second = at(topo, 6, 0).id, at(topo, 0, 5).id
    alone = SearchBoard.from_board(Board.from_grid(topo.grid))
    life.read(alone, index_to_flat(int(topo.blocks[first].points[0]), topo.size), SHORT.life_nodes)
    readings = group_readings(topo, (first, second), SHORT.life_nodes, 10**6)
    assert readings[first] is not None and readings[second] is not None
    assert alone.played > readings[first].nodes  # more was played than the owl's own moves
    spent = group_readings(topo, (first, second), SHORT.life_nodes, alone.played)
    assert spent[first] is not None and spent[second] is None
