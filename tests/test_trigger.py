"""Which groups to read (``classifiers.trigger``): groups at stake by their structure are read,
settled groups and lone stones are not, whatever the nets' confidence."""

from dataclasses import replace

import pytest

from conftest import TWO_WALLS, at, board, verdicts
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import static_statuses
from seog.classifiers.trigger import groups_to_read
from seog.classifiers.vocabulary import Doubt
from seog.datasets.labels import gnugo_available
from seog.features.coords import BLACK, index_to_gtp
from seog.features.topology import analyze

# Only one way on at a time, so that a test pins down the way it names.
RACE_ONLY = replace(DEFAULT, trigger_min_stones=2, trigger_few_liberties=0, trigger_roomy=0, trigger_race_liberties=6)
LIBERTIES_ONLY = replace(RACE_ONLY, trigger_race_liberties=0, trigger_few_liberties=3)
ROOM_ONLY = replace(RACE_ONLY, trigger_race_liberties=0, trigger_roomy=6)


def statuses_of(topo, dead=()):
    """The nets' verdicts, sure of every block (p = 0.99, no doubt), with Benson's settled blocks."""
    out = verdicts(topo, dead)
    out.update(static_statuses(topo))
    return out


def read_blocks(topo, statuses, settings):
    return {b for g in groups_to_read(topo, statuses, settings) for b in g.blocks}


# Black's twelve stones in the corner have one eye of two points (B3, C3); White's wall around
# them has no eyes of its own yet.
ONE_EYE_IN_THE_CORNER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    X . . X O . . . .
    X X X X O . . . .
    O O O O O . . . .
"""


def test_a_big_group_with_one_eye_against_an_unsettled_wall_is_read():
    topo = analyze(board(ONE_EYE_IN_THE_CORNER).grid)
    black, wall = at(topo, 5, 0), at(topo, 4, 0)
    statuses = statuses_of(topo)  # the nets call Black alive, and are sure of it
    for settings in (LIBERTIES_ONLY, ROOM_ONLY):
        assert black.id in read_blocks(topo, statuses, settings)
        assert wall.id not in read_blocks(topo, statuses, settings)  # 14 liberties, and the open board beside it is room


def test_a_group_benson_settles_is_not_read():
    topo = analyze(board("\n".join(TWO_WALLS)).grid)
    statuses = statuses_of(topo)
    walls = {at(topo, 1, 0).id, at(topo, 1, 4).id}
    assert all(statuses[b].source == "benson" for b in walls)
    for settings in (DEFAULT, LIBERTIES_ONLY, ROOM_ONLY, replace(RACE_ONLY, trigger_race_liberties=20)):
        assert walls.isdisjoint(read_blocks(topo, statuses, settings))


# A lone white stone in atari inside Black's wall, and Black's corner with one eye beside it.
LONE_STONE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X . . . .
    . . . . X . . . .
    . . X O X . . . .
    . . . X X . . . .
    . . . X . . . . .
"""


def test_a_lone_stone_short_of_liberties_is_not_read():
    topo = analyze(board(LONE_STONE).grid)
    stone = at(topo, 6, 3)
    assert stone.size == 1 and len(stone.liberties) == 1
    statuses = statuses_of(topo, dead={stone.id})
    for settings in (DEFAULT, LIBERTIES_ONLY, ROOM_ONLY, RACE_ONLY):
        assert stone.id not in read_blocks(topo, statuses, settings)


# White's three stones (B7-D7) and Black's (E7-G7) are each shut in by the other's wall and share
# no liberty: three each, on row 6, so whoever moves first in the race takes the other.
RACE = """
    . . . . . . . . .
    X X X X O O O O .
    X O O O X X X O .
    X . . . . . . O .
    X X X X O O O O .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_a_capturing_race_of_two_groups_reads_both():
    topo = analyze(board(RACE).grid)
    white, black = at(topo, 2, 1), at(topo, 2, 4)
    assert len(white.liberties) == len(black.liberties) == 3
    statuses = statuses_of(topo)  # the nets call both alive, and are sure of it
    groups = groups_to_read(topo, statuses, RACE_ONLY)
    raced = {b for g in groups if "race" in g.reasons for b in g.blocks}
    assert {white.id, black.id} <= raced
    walls = {at(topo, 1, 0).id, at(topo, 1, 4).id}
    assert walls.isdisjoint(raced)  # the walls have liberties to spare


def test_the_race_is_not_read_when_one_side_has_liberties_to_spare():
    topo = analyze(board(RACE).grid)
    statuses = statuses_of(topo)
    assert not groups_to_read(topo, statuses, replace(RACE_ONLY, trigger_race_liberties=2))


def test_a_group_the_nets_doubt_is_read_whatever_its_structure():
    topo = analyze(board(RACE).grid)
    wall = at(topo, 1, 0)
    statuses = statuses_of(topo)
    statuses[wall.id] = statuses[wall.id].doubted(Doubt.MODEL)
    groups = groups_to_read(topo, statuses, replace(RACE_ONLY, trigger_race_liberties=0))
    assert [g.reasons for g in groups if wall.id in g.blocks] == [("doubt",)]


@pytest.mark.skipif(not gnugo_available(), reason="GNU Go is not installed")
def test_gnu_go_reads_the_one_eyed_corner_dead_and_its_wall_alive(tmp_path):
    from seog.datasets.trigger_ceiling import Owl, Position, dragon_alive, owl_alive

    topo = analyze(board(ONE_EYE_IN_THE_CORNER).grid)
    black, wall = at(topo, 5, 0), at(topo, 4, 0)
    statuses = statuses_of(topo)
    pos = Position("corner", topo.grid, topo, [statuses[b.id] for b in topo.blocks], frozenset(),
                   {b.id: b.id != black.id for b in topo.blocks}, BLACK, 6.5)
    corner, outside = (index_to_gtp(int(b.points[0]), topo.size) for b in (black, wall))  # A4, A5
    owl = Owl(str(tmp_path / "owl.json"))
    try:
        answers = owl.answers(pos, [corner, outside])
    finally:
        owl.close()
    owl.save()
    assert not owl_alive(answers[corner], mover_attacks=False, critical="alive")
    assert dragon_alive(answers[corner], mover_attacks=False, critical="alive") is False
    assert owl_alive(answers[outside], mover_attacks=True, critical="dead")
    again = Owl(str(tmp_path / "owl.json"))
    assert again.answers(pos, [corner, outside]) == answers and again.asked == 0  # from the cache


def test_seogs_own_owl_reads_the_one_eyed_corner_dead_and_its_wall_alive():
    from seog.datasets.trigger_ceiling import Position, SeogOwl, dragon_alive, owl_alive

    topo = analyze(board(ONE_EYE_IN_THE_CORNER).grid)
    black, wall = at(topo, 5, 0), at(topo, 4, 0)
    statuses = statuses_of(topo)
    pos = Position("corner", topo.grid, topo, [statuses[b.id] for b in topo.blocks], frozenset(),
                   {b.id: b.id != black.id for b in topo.blocks}, BLACK, 6.5)
    corner, outside = (index_to_gtp(int(b.points[0]), topo.size) for b in (black, wall))
    answers = SeogOwl().answers(pos, [corner, outside])
    assert not owl_alive(answers[corner], mover_attacks=False, critical="alive")
    assert dragon_alive(answers[corner], mover_attacks=False, critical="alive") is False
    assert owl_alive(answers[outside], mover_attacks=True, critical="dead")
