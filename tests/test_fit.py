"""The recorded count settles the blocks in doubt (``scoring.fit``): a group read wrong is turned
when one turn alone reaches the record, and the blind reading stands when none does or two do."""

from dataclasses import replace

import numpy as np

from conftest import at, board
from seog.classifiers.vocabulary import BlockStatus, Doubt, Source
from seog.features.topology import analyze
from seog.scoring.count import count
from seog.scoring.fit import DEFAULT, fit_record
from seog.scoring.result import FitOutcome
from seog.scoring.rules import get_rules

# Black's wall on column D, White's on E, each with its two eyes on the top edge. Two white
# groups of three stones sit in Black's side, one the other's mirror image (B6 and B3), and a
# black group of three in White's side (G5).
INVADED = board("""
    . X . X O . O . .
    X X X X O O O O O
    . . . X O . . . .
    . O O X O . . . .
    . O . X O . X X .
    . . . X O . . X .
    . O . X O . . . .
    . O O X O . . . .
    . . . X O . . . .
""")
JAPANESE = get_rules("japanese")


def statuses(topo, p_alive: dict) -> list[BlockStatus]:
    """Every block alive as Benson would leave it, but the blocks of ``p_alive`` (id -> p) as the
    reader reads them: alive when p > 0.5."""
    out = []
    for b in topo.blocks:
        if b.id in p_alive:
            p = p_alive[b.id]
            out.append(BlockStatus(b.id, b.color, b.points, p > 0.5, Source.READER, p))
        else:
            out.append(BlockStatus(b.id, b.color, b.points, True, Source.BENSON))
    return out


def margin_with_dead(topo, blocks) -> float:
    dead = np.zeros(topo.grid.shape, dtype=bool)
    for b in blocks:
        dead.flat[topo.blocks[b].points] = True
    return count(topo.grid, dead, JAPANESE, 0.0).margin


def test_a_group_read_alive_in_the_opponents_area_is_settled_dead_by_the_record():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.7, b3: 0.02, h5: 0.03})  # B6 misread alive, the others dead
    record = margin_with_dead(topo, [b6, b3, h5])
    fit = fit_record(topo, read, record, JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.SETTLED
    assert [t.block for t in fit.turned] == [b6]
    assert not fit.statuses[b6].alive and fit.statuses[b6].source is Source.RECORD
    assert fit.statuses[b6].doubt is Doubt.NONE  # the nets were not sure: no flag
    assert fit.gap == margin_with_dead(topo, [b3, h5]) - record


def test_a_group_the_nets_were_sure_of_is_turned_only_by_the_one_exact_fit_and_stays_flagged():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.99, b3: 0.02, h5: 0.03})
    fit = fit_record(topo, read, margin_with_dead(topo, [b6, b3, h5]), JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.SETTLED
    assert fit.statuses[b6].doubt is Doubt.RECORD


def test_a_record_no_turn_can_reach_keeps_the_blind_reading():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.2, b3: 0.2, h5: 0.2})
    fit = fit_record(topo, read, margin_with_dead(topo, [b6, b3, h5]) + 40, JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.NO_FIT
    assert fit.statuses == read and fit.turned == ()
    assert "no turn" in fit.why()


def test_two_groups_of_the_same_worth_either_of_which_fits_leave_the_count_to_a_person():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.7, b3: 0.7, h5: 0.03})  # both white groups read alive, alike
    one_dead = margin_with_dead(topo, [b6, h5])
    assert one_dead == margin_with_dead(topo, [b3, h5])  # either turn reaches the record
    fit = fit_record(topo, read, one_dead, JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.AMBIGUOUS
    assert fit.statuses == read


def test_blocks_benson_settles_are_never_turned_to_fit():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b3: 0.02, h5: 0.03})  # B6 left alive by "Benson"
    fit = fit_record(topo, read, margin_with_dead(topo, [b6, b3, h5]), JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.NO_FIT


def test_a_count_that_equals_the_record_needs_no_fit():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.1, b3: 0.1, h5: 0.1})
    fit = fit_record(topo, read, margin_with_dead(topo, [b6, b3, h5]), JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.AGREES and fit.gap == 0


def test_under_tromp_taylor_no_status_changes_the_count_so_nothing_is_fitted():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    tt = get_rules("tromp-taylor")
    read = statuses(topo, {b6: 0.7, b3: 0.02, h5: 0.03})
    record = count(topo.grid, np.zeros(topo.grid.shape, bool), tt, 0.0).margin + 3
    fit = fit_record(topo, read, record, tt, 0.0)
    assert fit.outcome is FitOutcome.NO_FIT


def test_a_status_a_rule_gave_against_the_nets_is_the_cheapest_to_turn_back():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.9, b3: 0.02, h5: 0.03})
    read[b6] = replace(read[b6], alive=False, source=Source.EYESPACE)  # a rule killed what the nets saw alive
    fit = fit_record(topo, read, margin_with_dead(topo, [b3, h5]), JAPANESE, 0.0)
    assert fit.outcome is FitOutcome.SETTLED and [t.block for t in fit.turned] == [b6]
    assert fit.statuses[b6].alive


def test_groups_smaller_than_the_least_turned_are_left_as_read():
    topo = analyze(INVADED.grid)
    b6, b3, h5 = at(topo, 3, 1).id, at(topo, 7, 1).id, at(topo, 4, 6).id
    read = statuses(topo, {b6: 0.7, b3: 0.02, h5: 0.03})
    record = margin_with_dead(topo, [b6, b3, h5])
    assert fit_record(topo, read, record, JAPANESE, 0.0).settled
    fewer = fit_record(topo, read, record, JAPANESE, 0.0, settings=replace(DEFAULT, min_stones=4))
    assert fewer.outcome is FitOutcome.NO_FIT
