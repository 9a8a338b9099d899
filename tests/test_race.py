"""Liberty races: a dead group its only capturer may not take is flagged, its verdict kept."""

from dataclasses import replace

import pytest

from conftest import SEKI_CORNER, at, board, decided_game, shared_dir, verdicts
from seog.classifiers.race import CAPTURER, GROUP, SEKI, doubtful, flag_races, race
from seog.classifiers.settings import DEFAULT
from seog.features.topology import analyze


@pytest.mark.parametrize("counts, outcome", [
    ((0, 0, 0, 0, 2), SEKI),      # no eyes, two shared liberties: whoever fills one is taken
    ((3, 0, 1, 0, 0), CAPTURER),  # three outside liberties against one
    ((1, 0, 3, 0, 0), GROUP),
    ((2, 0, 1, 1, 2), GROUP),     # an eye against none: the eyeless side cannot fill the shared ones
    ((4, 0, 1, 1, 2), CAPTURER),  # unless it has liberties enough to fill the eye last
])
def test_a_race_on_liberty_counts_with_the_group_to_move(counts, outcome):
    assert race(*counts, False) == outcome


def test_a_corner_seki_called_dead_is_flagged_with_its_capturer_and_kept_dead():
    topo = analyze(board(SEKI_CORNER).grid)
    corner, white = at(topo, 7, 0), at(topo, 6, 0)
    statuses = verdicts(topo, dead={corner.id})
    assert doubtful(topo, statuses) == {corner.id, white.id}
    out = flag_races(topo, statuses)
    assert not out[corner.id].alive and out[corner.id].uncertain and out[corner.id].doubt == "race"
    assert out[white.id].alive and out[white.id].doubt == "race"
    assert "liberty race" in out[corner.id].why_uncertain


def test_a_corner_seki_is_not_read_as_a_race_when_the_settings_cap_liberties_below_its_two():
    # Black's corner and White's wall have two liberties each, C1 and C2, both shared: capped at
    # one, a side with two wins any race the counts describe, and nothing is read.
    topo = analyze(board(SEKI_CORNER).grid)
    corner = at(topo, 7, 0)
    statuses = verdicts(topo, dead={corner.id})
    assert doubtful(topo, statuses, replace(DEFAULT, race_max_liberties=2)) != set()
    assert doubtful(topo, statuses, replace(DEFAULT, race_max_liberties=1)) == set()
    assert flag_races(topo, statuses, replace(DEFAULT, race_max_liberties=1)) is statuses


def test_a_stone_against_a_wall_with_liberties_to_spare_is_not_flagged():
    topo = analyze(board("""
        . . . . . . . . .
        . . . . . . . . .
        O O O O O O O O O
        X X X X X X X X X
        . . O . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """).grid)
    stone = at(topo, 4, 2)
    statuses = verdicts(topo, dead={stone.id})
    assert doubtful(topo, statuses) == set()
    assert flag_races(topo, statuses) is statuses


@pytest.mark.parametrize("name", ["2017-02-13-1", "2017-02-28-24"])
def test_the_corner_sekis_the_model_calls_dead_are_flagged(name):
    # The players counted these stones alive in seki and KataGo reads them so (docs/model.md);
    # the model calls them dead, and every block it gets wrong is flagged as a race.
    topo, marks, statuses = decided_game("kgs-2017-q1", name)
    wrong = [st for st in statuses if st.alive != bool(marks[st.block])]
    assert wrong and all(st.uncertain and st.doubt == "race" and not st.alive for st in wrong)


def test_a_race_the_players_settle_is_no_longer_in_doubt():
    from seog.datasets.devsets import read
    from seog.features.coords import gtp_to_index
    from seog.scoring.score import score_position

    board = read(shared_dir("kgs-2017-q1") / "2017-02-28-24.sgf")[0][0].board
    assert any(b.doubt == "race" for b in score_position(board).blocks)
    for decision in (False, True):  # confirmed dead, or alive in seki as the players counted it
        corner = {gtp_to_index(v, board.size): decision for v in ("R19", "T18")}
        score = score_position(board, overrides=corner)
        assert not any(b.doubt == "race" for b in score.blocks)
