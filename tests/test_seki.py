"""Mutual seki: a block called dead that shares all its liberties with a living opponent block,
where neither side can fill one, is alive."""

from conftest import SEKI_CORNER, at, board, shared_dir, verdicts
from seog.classifiers.seki import seki_alive
from seog.classifiers.status import BlockStatus, decide
from seog.features.topology import analyze


def test_the_corner_seki_called_dead_is_alive():
    topo = analyze(board(SEKI_CORNER).grid)
    corner = at(topo, 7, 0)  # Black's four stones, sharing C2 and C1 with White's six
    out = seki_alive(topo, verdicts(topo, dead={corner.id}))
    assert out[corner.id].alive and out[corner.id].source == "seki"


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


def test_only_the_nets_verdicts_are_revisited():
    topo = analyze(board(SEKI_CORNER).grid)
    corner = at(topo, 7, 0)
    statuses = verdicts(topo, dead={corner.id})
    statuses[corner.id] = BlockStatus(corner.id, corner.color, corner.points, False, "reading")
    assert not seki_alive(topo, statuses)[corner.id].alive


def test_a_real_seki_the_nets_call_dead():
    from seog.datasets.devsets import read
    from seog.datasets.labels import block_labels
    from seog.scoring.score import default_model

    # Black's nine stones at A5 and White's five in the corner share their two liberties.
    position = read(shared_dir("kgs-2017-q1") / "2017-02-23-9.sgf")[0][0]
    topo = analyze(position.board.grid)
    truth, _ = block_labels(topo, position.dead)
    statuses = decide(topo, default_model())
    seki = [s for s in statuses if s.source == "seki"]
    assert [len(s.points) for s in seki] == [9]
    assert all(s.alive == bool(truth[s.block]) for s in statuses)
