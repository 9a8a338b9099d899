"""Eye spaces: values read by exhaustive search (``reading.eyes``), the shipped table of small shapes
(``reading.eye_shapes``), the space at a board point (``reading.eye_space``) and GTP ``eval_eye``.

Shapes are drawn: ``.`` a point of the space, ``x`` the attacker's stone on one, ``#`` no point
(the wall, or outside the space's box); the wall is everything next to the space that is on the
board. ``sides`` names the board's edges along the drawing's box (N, E, S, W)."""

import os

import pytest

from conftest import DATA, board
from seog.gtp.referee import GtpReferee, Referee
from seog.reading.eye_shapes import (
    MAX_CELLS,
    build_table,
    game_of,
    key_of,
    load_table,
    lookup,
    orientations,
    placements,
    polyominoes,
)
from seog.reading.eyes import TooBig, evaluate


def shape(picture: str) -> tuple[frozenset, frozenset]:
    rows = picture.split()
    cells = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in ".x")
    stones = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x")
    return cells, stones


def value(picture: str, sides: str = ""):
    cells, stones = shape(picture)
    return evaluate(game_of(cells, sides, stones))


def counts(v) -> tuple[int, int]:
    return v.least, v.most


# ---- known values, by search ------------------------------------------------------------------

def test_one_point_is_one_eye_whoever_moves():
    assert counts(value(".")) == (1, 1)
    assert counts(value(".", "NW")) == (1, 1)


def test_two_points_are_one_eye():
    assert counts(value("..")) == (1, 1)


@pytest.mark.parametrize("picture, vital", [("...", (0, 1)), (".. .#", (0, 0))])
def test_straight_and_bent_three_live_only_if_the_defender_takes_the_middle(picture, vital):
    v = value(picture)
    assert counts(v) == (1, 2)
    assert v.attack == v.defence == vital
    assert not v.ko


@pytest.mark.parametrize("picture", ["....", "... .##", "..## #.. "])
def test_straight_and_bent_four_in_the_centre_are_two_eyes(picture):
    assert counts(value(picture)) == (2, 2)


def test_square_four_is_one_eye():
    assert counts(value(".. ..")) == (1, 1)
    assert counts(value(".. ..", "NW")) == (1, 1)


def test_bent_four_in_the_corner_is_a_ko_where_it_lives_in_the_centre():
    centre, corner = value("... .##"), value("... .##", "NW")
    assert counts(centre) == (2, 2) and not centre.ko
    # the attacker's first move at the 1-2 point starts a ko: one eye when the attacker wins it
    assert counts(corner) == (1, 2) and corner.ko
    assert corner.attack == (0, 1)


def test_bent_four_with_its_end_in_the_corner_lives():
    assert counts(value("... .##", "NE")) == (2, 2)


@pytest.mark.parametrize("name, picture, vital", [
    ("pyramid four", "... #.#", (0, 1)),
    ("bulky five", "... ..#", (0, 1)),
    ("crossed five", "#.# ... #.#", (1, 1)),
    ("rabbity six", "#.# ... ..#", (1, 1)),
])
def test_big_eyes_with_a_vital_point_make_two_only_if_the_defender_takes_it(name, picture, vital):
    for sides in ("", "NW", "S"):
        v = value(picture, sides)
        assert counts(v) == (1, 2), (name, sides)
        assert v.attack == v.defence == vital, (name, sides)


@pytest.mark.parametrize("picture", [".....", "...## #...#", ".... .###", "......"])
def test_straight_and_bent_five_and_six_are_two_eyes_whoever_moves(picture):
    assert counts(value(picture)) == (2, 2)


def test_an_attacker_stone_on_the_vital_point_leaves_one_eye():
    assert counts(value(".x. ..#")) == (1, 1)  # bulky five
    assert counts(value(".x.")) == (1, 1)  # straight three


def test_a_stone_off_the_vital_point_changes_nothing_in_a_straight_four():
    assert counts(value("x...")) == (2, 2)


def test_a_space_that_is_not_one_connected_set_is_refused():
    with pytest.raises(ValueError, match="connected"):
        game_of(frozenset({(0, 0), (0, 2)}))


# ---- the table ---------------------------------------------------------------------------------

def test_every_shape_of_up_to_seven_points_is_enumerated_once():
    assert [len(polyominoes(n)) for n in range(1, MAX_CELLS + 1)] == [1, 1, 2, 5, 12, 35, 108]


def test_a_shape_turned_or_mirrored_has_the_same_key_and_value():
    for size in (3, 4, 5):
        for cells in polyominoes(size):
            for sides in placements(cells):
                stones = frozenset({min(cells)})
                want = evaluate(game_of(cells, sides, stones))
                for turned, turned_sides, turned_stones in orientations(cells, sides, stones):
                    assert key_of(turned, turned_sides, turned_stones) == key_of(cells, sides, stones)
                    got = evaluate(game_of(turned, turned_sides, turned_stones))
                    assert (got.least, got.most, got.ko) == (want.least, want.most, want.ko)


def test_the_shipped_table_is_what_the_search_derives():
    derived = build_table(4)
    shipped = load_table()
    for key, row in derived.items():
        plain_two = row[:2] == [2, 2] and not row[4] and not row[5]
        if plain_two:
            assert key not in shipped
        else:
            assert shipped[key][:2] == row[:2] and shipped[key][4:] == row[4:], key


def test_lookup_answers_in_the_callers_orientation():
    # bent four in the south-east corner: the vital point is the 1-2 point next to the corner
    cells = frozenset({(5, 7), (6, 7), (7, 7), (7, 6)})
    v = lookup(cells, "SE")
    assert (v.least, v.most, v.ko) == (1, 2, True)
    assert v.attack == (6, 7)
    assert lookup(frozenset({(3, 3), (3, 4), (3, 5)})).attack == (3, 4)


def test_lookup_leaves_out_what_the_table_does_not_cover():
    assert lookup(frozenset((0, c) for c in range(8))) is None
    assert lookup(frozenset({(0, 0), (0, 1), (0, 2)}), stones={(0, 0), (0, 2)}) is None


# ---- the space at a board point, through seog gtp --------------------------------------------

def ask(picture: str, vertex: str) -> str:
    referee = Referee(9)
    referee.board = board(picture)
    reply = GtpReferee(referee).handle(f"eval_eye {vertex}")
    assert reply.startswith("= "), reply
    return reply[2:].strip()


EDGE_EYE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . {d2} X X . . .
    . . . X . X . . .
"""


def test_an_edge_eye_whose_diagonal_the_opponent_holds_is_false():
    assert ask(EDGE_EYE.format(d2="O"), "E1") == "0 0"


def test_an_edge_eye_with_an_empty_diagonal_is_half_an_eye_decided_there():
    assert ask(EDGE_EYE.format(d2="."), "E1") == "0 1 D2 D2"


def test_a_straight_three_in_the_centre_has_its_vital_point_in_the_middle():
    picture = """
        . . . . . . . . .
        . . . . . . . . .
        . . X X X X X . .
        . . X . . . X . .
        . . X X X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """
    assert ask(picture, "D6") == "1 2 E6 E6"
    assert ask(picture, "A1") == "-1"  # open board


def test_eval_eye_needs_one_vertex():
    referee = Referee(9)
    assert GtpReferee(referee).handle("eval_eye").startswith("? syntax error")
    assert GtpReferee(referee).handle("eval_eye Z9").startswith("? syntax error")


@pytest.mark.parametrize("sgf, command, want", [
    ("eyes1.sgf", "eval_eye G1", "0 1 F1 F1"),       # a margin next to the opponent's live stone
    ("eyes3.sgf", "eval_eye A1", "1 2 A1 A1"),       # a bent three in the corner
    ("marginal.sgf", "eval_eye O1", "1 1"),          # a false margin: the opponent's stone there is taken
])
def test_gnugo_optics_cases(sgf, command, want):
    folder = DATA / "gnugo-regression"
    if not folder.exists():
        pytest.skip("../shared/data/gnugo-regression is not here")
    here = os.getcwd()
    os.chdir(folder)
    try:
        gtp = GtpReferee()
        assert gtp.handle(f"loadsgf games/{sgf}").startswith("= ")  # the side to move
        assert gtp.handle(command).strip() == f"= {want}"
    finally:
        os.chdir(here)


def test_a_search_past_its_budget_says_so():
    with pytest.raises(TooBig, match="more than 10 positions"):
        evaluate(game_of(frozenset({(0, 0), (0, 1), (0, 2), (1, 1)})), budget=10)
