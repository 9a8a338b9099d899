"""Real final positions turned, mirrored or with the colours swapped: the same count and the same
statuses, moved with the board (colours swapped: the count with the sides exchanged, komi 0 and
the prisoners exchanged too).

The dev positions of ../shared/data (kgs-2017-q1, gnugo-regression-games) through seog's own
loader; a sample by default (hypothesis), every position under all 16 transforms when marked slow.
What does not hold is pinned too: the reader's one pass is not equivariant (docs/scoring.md)."""

from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import shared_dir
from seog.features.board import Board
from seog.scoring.count import count
from seog.scoring.score import score_position

DEV_SETS = ("kgs-2017-q1", "gnugo-regression-games")
# (turns of a quarter, mirrored, colours swapped): the 8 symmetries of the square by 2 colourings
TRANSFORMS = [(k, mirror, swap) for k in range(4) for mirror in (False, True) for swap in (False, True)]


@cache
def positions(folder: str) -> list:
    from seog.datasets.devsets import read

    return read(shared_dir(folder))[0]


def turned(a: np.ndarray, k: int, mirror: bool) -> np.ndarray:
    a = np.rot90(a, k)
    return np.ascontiguousarray(np.fliplr(a) if mirror else a)


def transformed(position, k: int, mirror: bool, swap: bool):
    """(board, dead mask, prisoners) of the position turned, mirrored and colour-swapped."""
    sign = -1 if swap else 1
    board = Board.from_grid(turned(position.board.grid, k, mirror) * sign)
    prisoners = position.board.prisoners
    if swap:
        prisoners = {1: prisoners[-1], -1: prisoners[1]}
    return board, turned(position.dead, k, mirror), prisoners


def decided(position, k=0, mirror=False, swap=False):
    """seog's own reading of the transformed position: (Black's margin as the original's colours
    see it, per original point the (alive, in doubt) of its block)."""
    board, _, prisoners = transformed(position, k, mirror, swap)
    s = score_position(board, rules=position.rules or "japanese", komi=0, prisoners=prisoners)
    where = turned(np.arange(board.grid.size).reshape(board.grid.shape), k, mirror).reshape(-1)
    status = {int(where[i]): (st.alive, st.uncertain) for st in s.read for i in st.points}
    return (-s.margin if swap else s.margin), status


def agreed(position, k=0, mirror=False, swap=False):
    """The count of the players' dead stones on the transformed position: (Black's margin as the
    original's colours see it, ownership turned back and in the original's colours)."""
    board, dead, prisoners = transformed(position, k, mirror, swap)
    s = count(board.grid, dead, _rules(position), 0, prisoners=prisoners)
    back = np.rot90(np.fliplr(s.ownership) if mirror else s.ownership, -k)
    return (-s.margin if swap else s.margin), back * (-1 if swap else 1)


def _rules(position):
    from seog.scoring.rules import get_rules

    return get_rules(position.rules or "japanese")


def sample(folder):
    return st.sampled_from(range(len(positions(folder)))), st.sampled_from(TRANSFORMS)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("folder", DEV_SETS)
def test_a_dev_position_turned_mirrored_or_colour_swapped_counts_the_same(folder, data):
    index, (k, mirror, swap) = (data.draw(s) for s in sample(folder))
    position = positions(folder)[index]
    margin, ownership = agreed(position)
    turned_margin, turned_ownership = agreed(position, k, mirror, swap)
    assert turned_margin == margin and (turned_ownership == ownership).all(), position.name


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("folder", DEV_SETS)
def test_a_dev_position_turned_mirrored_or_colour_swapped_reads_the_same(folder, data):
    index, (k, mirror, swap) = (data.draw(s) for s in sample(folder))
    position = positions(folder)[index]
    if position.name in NOT_EQUIVARIANT:
        return  # pinned below
    margin, status = decided(position)
    turned_margin, turned_status = decided(position, k, mirror, swap)
    assert turned_margin == margin and alive(turned_status) == alive(status), position.name


def alive(status: dict) -> dict:
    """Per point, alive or dead (a doubt flag may differ: it weighs how near the margin a verdict is)."""
    return {p: s[0] for p, s in status.items()}


# The one dev position whose reading depends on how the board is drawn: kgs-2017-q1's
# 2017-01-07-29 (Chinese rules; the marks say the black stone on A19 lives). The refiner's single
# pass reads it dead at 0.16 as drawn and in 3 of the 15 other transforms; in the other 12 the
# single pass lands within the refiner's margin, and the average over all 16 transforms reads it
# alive at 0.54, in doubt.
NOT_EQUIVARIANT = {"2017-01-07-29": 0}  # the flat index of A19


def test_the_readers_single_pass_is_not_equivariant_and_its_average_is():
    position = next(p for p in positions("kgs-2017-q1") if p.name == "2017-01-07-29")
    a19 = NOT_EQUIVARIANT[position.name]
    assert position.board.grid.flat[a19] == 1 and not position.dead.flat[a19]  # Black's, alive by the marks
    as_drawn = [decided(position, k, mirror, swap) for k, mirror, swap in TRANSFORMS]
    assert as_drawn[0][1][a19] == (False, False)  # read dead, not in doubt: W+57
    assert as_drawn[0][0] == -57
    # 12 of the 15 other transforms read it alive and in doubt (W+32): the average's answer.
    flagged = [a for a in as_drawn[1:] if a[1][a19] == (True, True)]
    assert all(a[0] == -32 for a in flagged) and len(flagged) == 12
    # The position's other blocks read the same in all 16.
    others = [{p: s for p, s in alive(a[1]).items() if p != a19} for a in as_drawn]
    assert all(o == others[0] for o in others)


@pytest.mark.slow
@pytest.mark.parametrize("folder", DEV_SETS)
def test_every_dev_position_under_all_16_transforms(folder):
    """Every position: the players' count the same under all 16; seog's reading the same but for
    the one pinned above, whose differing block is in doubt as read in some transform."""
    differ = {}
    for position in positions(folder):
        margin, ownership = agreed(position)
        reads = [decided(position, k, mirror, swap) for k, mirror, swap in TRANSFORMS]
        for k, mirror, swap in TRANSFORMS[1:]:
            turned_margin, turned_ownership = agreed(position, k, mirror, swap)
            assert turned_margin == margin and (turned_ownership == ownership).all(), (position.name, k, mirror, swap)
        points = [p for p in reads[0][1] if len({r[1][p][0] for r in reads}) > 1]
        if points:
            differ[position.name] = points
            assert all(any(r[1][p][1] for r in reads) for p in points), position.name
    assert differ == {name: [p] for name, p in NOT_EQUIVARIANT.items() if folder == "kgs-2017-q1"}
