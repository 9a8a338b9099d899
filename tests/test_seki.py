"""Mutual seki: a block called dead that shares all its liberties with a living opponent block,
where neither side can fill one, is alive."""

from dataclasses import replace

from conftest import SEKI_CORNER, at, board, decided_game, verdicts
from seog.classifiers.seki import _can_fill, seki_alive
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import BlockStatus
from seog.features.topology import analyze


def test_the_corner_seki_called_dead_is_alive():
    topo = analyze(board(SEKI_CORNER).grid)
    corner = at(topo, 7, 0)  # Black's four stones, sharing C2 and C1 with White's six
    out = seki_alive(topo, verdicts(topo, dead={corner.id}))
    assert out[corner.id].alive and out[corner.id].source == "seki"


# Black's nine stones in the corner and White's eight share D3, D2 and D1, and have no other
# liberty: every fill takes one from both sides, so whoever starts is taken first.
THREE_SHARED = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X . . .
    O O O O O X . . .
    X X X . O X . . .
    X X X . O X . . .
    X X X . O X . . .
"""


def test_a_seki_on_three_shared_liberties_is_alive():
    topo = analyze(board(THREE_SHARED).grid)
    corner, white = at(topo, 8, 0), at(topo, 5, 0)
    assert set(corner.liberties.tolist()) == set(white.liberties.tolist()) and len(corner.liberties) == 3
    out = seki_alive(topo, verdicts(topo, dead={corner.id}))
    assert out[corner.id].alive and out[corner.id].source == "seki"
    opened = analyze(board(THREE_SHARED.replace("X X X . O X . . .\n", "X X X . O . . . .\n", 1)).grid)
    corner = at(opened, 8, 0)  # White's E3 now has F3: White can fill and keep a liberty of its own
    assert not seki_alive(opened, verdicts(opened, dead={corner.id}))[corner.id].alive


def test_a_fill_is_safe_only_when_it_gains_a_liberty_that_is_not_shared():
    shared_points = [6 * 9 + 3, 7 * 9 + 3, 8 * 9 + 3]  # D3, D2, D1
    topo = analyze(board(THREE_SHARED).grid)
    assert not any(_can_fill(topo, p, c, set(shared_points)) for p in shared_points for c in (1, -1))
    opened = analyze(board(THREE_SHARED.replace("X X X . O X . . .\n", "X X X . O . . . .\n", 1)).grid)
    assert _can_fill(opened, shared_points[0], -1, set(shared_points))  # White reaches F3
    assert not _can_fill(opened, shared_points[0], 1, set(shared_points))


THROW_IN = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    X X X X O . . . .
    X X X X O . . . .
    . O . X O . . . .
"""


def test_a_throw_in_is_no_seki():
    # Black's nine stones and White's stone at B1 share A1 and C1, and neither can fill one,
    # but White's stone is a throw-in: once Black takes it, Black has one eye and dies.
    topo = analyze(board(THROW_IN).grid)
    black, white = at(topo, 6, 0), at(topo, 8, 1)
    assert set(black.liberties.tolist()) == set(white.liberties.tolist())
    assert not seki_alive(topo, verdicts(topo, dead={black.id}))[black.id].alive


def test_a_throw_in_reads_as_a_seki_when_the_settings_take_one_stone_partners():
    topo = analyze(board(THROW_IN).grid)
    black = at(topo, 6, 0)
    out = seki_alive(topo, verdicts(topo, dead={black.id}), replace(DEFAULT, seki_min_opponent=1))
    assert out[black.id].alive and out[black.id].source == "seki"


def test_only_the_nets_verdicts_are_revisited():
    topo = analyze(board(SEKI_CORNER).grid)
    corner = at(topo, 7, 0)
    statuses = verdicts(topo, dead={corner.id})
    statuses[corner.id] = BlockStatus(corner.id, corner.color, corner.points, False, "reading")
    assert not seki_alive(topo, statuses)[corner.id].alive


def test_a_real_seki_the_nets_call_dead():
    # Black's nine stones at A5 and White's five in the corner share their two liberties.
    topo, truth, statuses = decided_game("kgs-2017-q1", "2017-02-23-9")
    seki = [s for s in statuses if s.source == "seki"]
    assert [len(s.points) for s in seki] == [9]
    assert all(s.alive == bool(truth[s.block]) for s in statuses)


def test_a_seki_on_four_shared_liberties_inside_a_big_group():
    # kgs-2017-q1 2017-02-18-44: White's three stones at F12 and Black's 31 around them share
    # E12, G12, E11 and G10, Black's only liberties. Both live (KataGo reads Black alive too);
    # the players marked Black dead, so only White's stones agree with the marks.
    topo, truth, statuses = decided_game("kgs-2017-q1", "2017-02-18-44")
    by_block = {s.block: s for s in statuses}
    white, black = at(topo, 7, 5), at(topo, 3, 5)  # F12, F16
    assert (white.size, black.size) == (3, 31)
    assert by_block[white.id].alive and by_block[white.id].source == "seki" and truth[white.id]
    assert by_block[black.id].alive
