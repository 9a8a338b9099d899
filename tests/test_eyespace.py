"""Eye space: a group with room for one eye at most dies among opponents that live on their own."""

from dataclasses import replace

import pytest

from conftest import EXAMPLES, SEKI_CORNER, at, board, decided_game, shared_dir, verdicts
from seog.classifiers.eyespace import big_eye_alive, enclosed_alive, eyeless_dead
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import decide
from seog.features.topology import analyze
from seog.scoring.score import default_model

# Black's eleven stones (C7-F7, C6, E6, F6, C5-F5) have one eye (D6) and touch White's ring,
# which also has the 32 points between it and the edge.
RING = """
    . . . . . . . . .
    . O O O O O O O .
    . O X X X X . O .
    . O X . X X . O .
    . O X X X X . O .
    . O . . . . . O .
    . O . . . . . O .
    . O O O O O O O .
    . . . . . . . . .
"""



def test_a_one_eyed_group_inside_a_living_wall_is_dead():
    topo = analyze(board(RING).grid)
    out = eyeless_dead(topo, verdicts(topo))
    assert not out[at(topo, 2, 2).id].alive and out[at(topo, 2, 2).id].source == "eyespace"
    assert out[at(topo, 1, 1).id].alive


def test_two_eyes_live():
    two_eyes = RING.replace(". O X X X X . O .", ". O X X X X X O .").replace(
        ". O X . X X . O .", ". O X . X . X O .")
    topo = analyze(board(two_eyes).grid)
    assert all(st.alive for st in eyeless_dead(topo, verdicts(topo)).values())


def test_nothing_dies_when_the_wall_has_no_life_of_its_own():
    # Black fills the edge around White's ring but for E1, a liberty both share: the ring has no
    # eye either, so neither the inner group nor the outer one is dead for want of eyes (a race,
    # not a one-sided kill).
    rows = [r.split() for r in RING.strip().splitlines()]
    for r, row in enumerate(rows):
        for c in range(9):
            if (r in (0, 8) or c in (0, 8)) and (r, c) != (8, 4):
                row[c] = "X"
    topo = analyze(board("\n".join(" ".join(row) for row in rows)).grid)
    assert all(st.alive for st in eyeless_dead(topo, verdicts(topo)).values())


def test_the_prisoner_in_a_dead_groups_eye_is_alive_again():
    # White's stone at D6 sits in Black's two-point eye (D6, E6), read dead: its capturers die
    # for want of eyes, so it lives.
    prisoner = RING.replace(". O X . X X . O .", ". O X O . X . O .")
    topo = analyze(board(prisoner).grid)
    stone = at(topo, 3, 3)
    out = eyeless_dead(topo, verdicts(topo, dead={stone.id}))
    assert not out[at(topo, 2, 2).id].alive
    assert out[stone.id].alive and out[stone.id].source == "capturers-dead"


def test_a_stone_in_atari_inside_the_eye_races_nothing():
    # White's stone at D6 has one liberty, E6, which is Black's too: Black takes it first and is
    # left with one two-point eye, so the group dies as if the stone were not there.
    atari = RING.replace(". O X . X X . O .", ". O X O . X . O .")
    topo = analyze(board(atari).grid)
    stone = at(topo, 3, 3)
    out = eyeless_dead(topo, verdicts(topo))
    assert not out[at(topo, 2, 2).id].alive and out[at(topo, 2, 2).id].source == "eyespace"
    assert out[stone.id].alive and out[at(topo, 1, 1).id].alive
    # With a second liberty the stone may fight back: a race, left to the nets.
    free = analyze(board(atari.replace(". O X X X X . O .\n    . O . .", ". O X . X X . O .\n    . O . .", 1)).grid)
    assert all(st.alive for st in eyeless_dead(free, verdicts(free)).values())


def test_small_groups_die_too():
    rows = RING.strip().splitlines()
    rows[2:5] = [". O X X X . . O .", ". O . . . . . O .", ". O . . . . . O ."]
    topo = analyze(board("\n".join(rows)).grid)
    out = eyeless_dead(topo, verdicts(topo))
    assert len(at(topo, 2, 2).points) == 3 and not out[at(topo, 2, 2).id].alive
    assert out[at(topo, 1, 1).id].alive


def test_seki_is_left_alone():
    topo = analyze(board(SEKI_CORNER).grid)
    assert all(st.alive for st in eyeless_dead(topo, verdicts(topo)).values())


@pytest.mark.parametrize("folder, name, stones", [
    ("kgs-2017-q1", "2017-03-25-19", 26),  # a 26-stone group with one eye on the right edge
    ("gnugo-regression-games", "tournament9__indigoBot-GNU", 39),  # White's 39 stones in the centre
    # Six Black stones at J19 share their two liberties with a White block, which has more
    # once the dead Black stones next to it are taken off: no seki, and the six are dead.
    ("kgs-2017-q1", "2017-03-29-25", 6),
])
def test_big_dead_groups_of_real_games(folder, name, stones):
    topo, truth, statuses = decided_game(folder, name)
    eyeless = [s for s in statuses if s.source == "eyespace"]
    assert stones in {len(s.points) for s in eyeless}
    assert all(s.alive == bool(truth[s.block]) for s in statuses)


# Black's six stones in the top-left corner have one eye of two points (A9, A8) and touch only
# White's wall, whose one eye is the rectangle of six points in the top right (F9-H8).
RECTANGULAR_SIX = """
    . X X X O . . . O
    . X X X O . . . O
    O O O O O O O O O
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X X X X
    X . X . X . X . X
    X X X X X X X X X
    . . . . . . . . .
"""


def test_a_wall_whose_one_eye_is_a_rectangular_six_lives_and_kills_the_group_inside():
    topo = analyze(board(RECTANGULAR_SIX).grid)
    out = eyeless_dead(topo, verdicts(topo))
    assert not out[at(topo, 0, 1).id].alive and out[at(topo, 0, 1).id].source == "eyespace"
    assert out[at(topo, 2, 0).id].alive
    seven = eyeless_dead(topo, verdicts(topo), replace(DEFAULT, alone_eye=7))  # an eye of six not enough
    assert all(st.alive for st in seven.values())


def test_a_wall_whose_one_eye_is_a_bulky_five_does_not_live_on_its_own():
    # White on H8: the wall's eye is a bulky five, which the opponent can keep to one eye.
    bulky_five = RECTANGULAR_SIX.replace(". X X X O . . . O\n    O O O", ". X X X O . . O O\n    O O O")
    assert bulky_five != RECTANGULAR_SIX
    topo = analyze(board(bulky_five).grid)
    assert all(st.alive for st in eyeless_dead(topo, verdicts(topo)).values())


def test_a_group_with_one_eye_around_a_stone_in_atari_dies():
    """shi-gnu: Black's eleven stones in the lower left have one eye, around a White stone in atari
    there. One pass of the refiner called them alive (p_alive 0.75) and this rule killed them; its
    symmetric mean calls them dead itself (0.39), so the rule is checked on them called alive."""
    topo, truth, statuses = decided_game("gnugo-regression-games", "shi-gnu")
    assert all(s.alive == bool(truth[s.block]) for s in statuses)
    group = next(s for s in statuses if len(s.points) == 11)
    called_alive = {s.block: s for s in statuses} | {group.block: group.turned(True, "refiner")}
    assert eyeless_dead(topo, called_alive)[group.block].source == "eyespace"


def test_a_big_eye_walled_by_a_prisoner_kills_the_group_inside():
    # Black's 27 stones at the top (F19, F17, M17, J15) have false eyes at G17 and J16 and one
    # eye around White's K14 and L14. White's group around them (R19, K18, O17) has a big eye on
    # the top edge (K19-Q19), walled in by White's J19, which Black holds in atari. If Black
    # dies, J19 lives and the eye is whole: Black is dead, J19 and K14 alive, as the marks say.
    topo, truth, statuses = decided_game("gnugo-regression-games", "yagr-nigiri")
    black = [s for s in statuses if s.color == 1 and s.source == "eyespace"]
    assert sorted(len(s.points) for s in black) == [1, 8, 9, 9]
    assert all(statuses[at(topo, *p).id].alive for p in ((0, 8), (5, 9)))  # J19, K14
    assert all(s.alive == bool(truth[s.block]) for s in statuses)


def test_taking_a_prisoner_in_atari_gives_the_group_its_second_eye():
    # White's 15 stones at F15 and 3 at F12 wall in Black's four at H13, H12, H11 and G11, in
    # atari at G13. The space G13-F13 beside them opens to Black's E13, so White encloses no
    # region there; but taking the four at G13 leaves their points empty and White's alone, a
    # bent four: room for two eyes. White lives, and Black's four are dead, as the marks say.
    topo, truth, statuses = decided_game("ogs-score-estimator", "hard__9700868")
    white = [at(topo, 4, 5), at(topo, 7, 5)]  # F15, F12
    assert [b.size for b in white] == [15, 3]
    assert all(statuses[b.id].alive and statuses[b.id].source != "eyespace" for b in white)
    prisoner = at(topo, 6, 7)  # H13
    assert prisoner.size == 4 and not statuses[prisoner.id].alive
    assert all(s.alive == bool(truth[s.block]) for s in statuses)


# White walls in Black's stones, in atari at B3; the space beside B3 reaches Black's B1, but
# Black at B3 would still have one liberty (B2).
SQUARE_PRISONER = """
    . . . . . . .
    O O O O . . .
    O X X O . . .
    O X X O . . .
    O . O O . . .
    O . . . . . .
    . X . . . . .
"""
BENT_PRISONER = """
    . . . . . . .
    O O O O O . .
    O X X X O . .
    O X O O O . .
    O . O . . . .
    O . . . . . .
    . X . . . . .
"""


@pytest.mark.parametrize("picture, outside, eyes", [
    (SQUARE_PRISONER, "X", [("one", 4)]),  # taken, a square four is one eye
    (BENT_PRISONER, "X", [("two", 4)]),  # a bent four, room for two
    (SQUARE_PRISONER, ".", []),  # no stone outside: White encloses the space, _eyes counts it
    (SQUARE_PRISONER.replace("O . . . . . .", "O X . . . . ."), "X", []),  # Black at B3 runs out
])
def test_the_eye_a_prisoner_in_atari_leaves_depends_on_its_shape(picture, outside, eyes):
    from seog.classifiers.eyespace import _taken_eyes

    least = DEFAULT.taken_min
    topo = analyze(board(picture.replace(". X . . . . .", f". {outside} . . . . .")).grid)
    white, prisoner = at(topo, 1, 0), at(topo, 2, 1)
    alive = [b.id != prisoner.id for b in topo.blocks]
    assert _taken_eyes(topo, white.color, [white.id], alive, least) == eyes
    assert _taken_eyes(topo, white.color, [white.id], [True] * len(topo.blocks), least) == []  # not a prisoner
    assert _taken_eyes(topo, white.color, [white.id], alive, 5) == []  # four stones, fewer than taken_min


# Black's ring (C7-G7 and around) encloses one region, D6, E6, D5, E5, F5 and E4: a flower six
# (the cross around E5, and D6 between two of its arms). White's five stones there are one block
# on its vital point E5, in atari at F5. Taken, the space is White's to play in first, and a
# stone on E5 leaves Black one eye: Black dies inside White's living wall.
FLOWER_SIX = """
    . . . . . . . . .
    . O O O O O O O .
    . O X X X X X O .
    . O X O O X X O .
    . O X O O . X O .
    . O X X O X X O .
    . O X X X X X O .
    . O O O O O O O .
    . . . . . . . . .
"""


def test_a_group_around_a_flower_six_of_prisoners_on_its_vital_point_is_dead():
    topo = analyze(board(FLOWER_SIX).grid)
    prisoners = at(topo, 3, 3)
    assert prisoners.size == 5
    out = eyeless_dead(topo, verdicts(topo, dead={prisoners.id}))
    assert not out[at(topo, 2, 2).id].alive and out[at(topo, 2, 2).id].source == "eyespace"
    assert out[prisoners.id].alive and out[at(topo, 1, 1).id].alive


def test_a_flower_six_whose_vital_point_is_empty_leaves_room_for_two_eyes():
    # White's three stones at D6, E6 and D5 leave E5 empty: Black plays there first and lives.
    open_vital = FLOWER_SIX.replace(". O X O O . X O .", ". O X O . . X O .").replace(
        ". O X X O X X O .", ". O X X . X X O .")
    topo = analyze(board(open_vital).grid)
    prisoners = at(topo, 3, 3)
    assert prisoners.size == 3
    out = eyeless_dead(topo, verdicts(topo, dead={prisoners.id}))
    assert out[at(topo, 2, 2).id].alive


@pytest.mark.parametrize("picture, vital", [
    ("XX.\nXXX\n...", (1, 1)),  # bulky five: the square's point next to three others
    (".X.\nXXX\n.X.", (1, 1)),  # crossed five: the centre
    ("XX.\nXXX\n.X.", (1, 1)),  # flower six: the centre of its cross
    ("XXX\nXX.\n...", (0, 1)),  # bulky five, turned
    ("XXX\n..X\n..X", None),  # a bent five makes two eyes
    ("XXX\nX..\nXX.", None),  # so does this six
    (".X..\nXXXX\n.X..", None),  # a cross with a tail
    ("XXXX\nXX..\n....", None),  # a square with a tail of two: six, no cross
    ("XX.X\nXX..\n....", None),  # a square and a point apart from it: no one space
])
def test_the_vital_point_of_a_five_or_six_point_space(picture, vital):
    from seog.classifiers.eyespace import _vital_point

    rows = picture.split()
    n = len(rows[0])
    points = {r * n + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"}
    assert _vital_point(points, n) == (None if vital is None else vital[0] * n + vital[1])


def test_a_square_at_the_right_edge_does_not_wrap_to_the_next_row():
    from seog.classifiers.eyespace import _vital_point

    # on a 3x3 board, 2, 3, 5 and 6 are no square (2 ends the top row, 3 starts the next), so
    # these five points (C3, A2-C2, A1) are no bulky five
    assert _vital_point({2, 3, 4, 5, 6}, 3) is None


# White walls in Black's crossed five, in atari at C2; the space beside C2 reaches Black's B1.
CROSS_PRISONER = """
    . . . . . . .
    O O O O O . .
    O O X O O . .
    O X X X O . .
    O O X O O . .
    O O . O . . .
    . X . . . . .
"""


def test_a_crossed_five_of_prisoners_in_atari_leaves_one_eye_once_taken():
    from seog.classifiers.eyespace import _taken_eyes

    topo = analyze(board(CROSS_PRISONER).grid)
    white, prisoner = at(topo, 1, 0), at(topo, 3, 2)
    assert prisoner.size == 5 and len(prisoner.liberties) == 1
    alive = [b.id != prisoner.id for b in topo.blocks]
    assert _taken_eyes(topo, white.color, [white.id], alive, DEFAULT.taken_min) == [("one", 5)]


def test_the_seki_patterns_of_the_ogs_set_stay_alive():
    from seog.datasets.devsets import read

    names = [p.name for p in read(shared_dir("ogs-score-estimator"))[0] if "seki" in p.name]
    assert len(names) >= 4
    for name in names:
        _, truth, statuses = decided_game("ogs-score-estimator", name)
        assert not any(s.source == "eyespace" for s in statuses), name
        assert all(s.alive == bool(truth[s.block]) for s in statuses), name


def test_two_single_stones_in_a_four_point_space_leave_room_for_two_eyes():
    # Black's 18 stones at B16 enclose C13, D13, C12 and C11, with single White stones on D13
    # and C11. Taking them one at a time splits the space in two: the players counted it alive.
    topo, _, statuses = decided_game("kgs-2017-q1", "2017-03-09-1")
    group = at(topo, 3, 1)
    assert group.size == 18
    status = statuses[group.id]
    assert status.alive and status.source != "eyespace"


def _example_9x9():
    from seog.features.sgf import load

    return load(EXAMPLES / "seki-and-dead-stones-9x9.sgf")


def test_a_doubtful_dead_neighbour_does_not_break_a_seki():
    # In our 9x9 seki example, were Black's wall at C9 called dead with doubt, counting its points
    # as room for White's D9 would end the seki and kill Black's F9; they are not counted.
    from seog.scoring.score import default_model

    topo = analyze(_example_9x9().board.grid)
    read = {st.block: st for st in decide(topo, default_model(), passes=())}
    wall, f9 = at(topo, 0, 2).id, at(topo, 0, 5).id
    assert read[f9].alive
    read[wall] = read[wall].turned(False, "refiner").doubted("model")
    out = eyeless_dead(topo, read)
    assert out[f9].source != "eyespace" and out[f9].alive
    read[wall] = read[wall].doubted("")  # the same wall dead beyond doubt: its points are D9's room
    assert eyeless_dead(topo, read)[f9].source == "eyespace"


def test_the_wall_of_our_9x9_example_lives_by_its_big_eye():
    # The wall encloses the 27 empty points of the left side and White's lone stone at B4: the
    # shipped model counts the wall alive and B4 dead, the recorded B+0.5; were the wall called
    # dead, the big-eye rule would make it alive and B4 dead.
    from seog.scoring.score import default_model, score_position

    game = _example_9x9()
    score = score_position(game.board, rules=game.rules, komi=game.komi)
    topo = analyze(game.board.grid)
    by_block = {s.block: s for s in score.blocks}
    wall, b4 = at(topo, 0, 2).id, at(topo, 5, 1).id
    assert by_block[wall].alive and not by_block[b4].alive
    assert score.result == game.result == "B+0.5"
    read = {st.block: st for st in decide(topo, default_model(), passes=())}
    read[wall] = read[wall].turned(False, "refiner")
    read[b4] = read[b4].turned(True, "refiner")
    out = big_eye_alive(topo, read)
    assert out[wall].alive and out[wall].source == "big-eye"
    assert not out[b4].alive and out[b4].source == "big-eye"


# Black's seven stones wall off the top-left corner: nine points, White's lone stone on B8 inside.
CORNER_ROOM = """
    . . . X O . . . .
    . O . X O . . . .
    . . . X O . . . .
    X X X X O . . . .
    O O O O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_a_group_called_dead_around_seven_empty_points_or_more_is_alive():
    topo = analyze(board(CORNER_ROOM).grid)
    black, inner = at(topo, 0, 3), at(topo, 1, 1)
    out = big_eye_alive(topo, verdicts(topo, dead={black.id}))
    assert out[black.id].alive and out[black.id].source == "big-eye"
    assert not out[inner.id].alive and out[inner.id].source == "big-eye"
    assert out[at(topo, 0, 4).id].alive and out[at(topo, 0, 4).id].source == "refiner"  # the outside wall


def test_a_group_around_eight_empty_points_stays_dead_when_the_settings_ask_for_nine():
    from dataclasses import replace

    topo = analyze(board(CORNER_ROOM).grid)
    black = at(topo, 0, 3)
    statuses = verdicts(topo, dead={black.id})
    assert big_eye_alive(topo, statuses, replace(DEFAULT, big_eye=9)) == statuses
    assert big_eye_alive(topo, statuses, replace(DEFAULT, big_eye=8))[black.id].alive


def test_a_stone_called_alive_inside_a_living_groups_big_eye_is_dead():
    # The refiner called this lone stone alive on a 20x20 board (trained on 19x19 alone), and
    # the eye-space rule then killed the whole wall for the eye the stone seemed to take.
    rows = ["." * 9 + "XO" + "." * 9 for _ in range(20)]
    rows[1] = "O" + rows[1][1:]
    topo = analyze(board("\n".join(rows)).grid)
    stone, wall = at(topo, 1, 0), at(topo, 0, 9)
    out = big_eye_alive(topo, verdicts(topo))
    assert not out[stone.id].alive and out[stone.id].source == "big-eye"
    assert out[wall.id].alive and out[wall.id].source == "refiner"
    assert eyeless_dead(topo, verdicts(topo))[wall.id].source == "eyespace"  # without it, the wall died
    crowded = [r for r in rows]
    crowded[3] = "OOOO" + crowded[3][4:]  # four stones may live in there: left to the nets
    topo = analyze(board("\n".join(crowded)).grid)
    assert big_eye_alive(topo, verdicts(topo)) == verdicts(topo)


def test_stones_on_an_open_board_take_no_one():
    # Four moves of a game: each side's two stones "enclose" the one region of the other's two.
    # That region is open board, not an eye: nobody dies and nobody is revived by it.
    rows = [["."] * 19 for _ in range(19)]
    for (r, c), stone in zip([(3, 15), (15, 3), (15, 15), (3, 3)], "XOXO"):
        rows[r][c] = stone
    topo = analyze(board("\n".join("".join(r) for r in rows)).grid)
    assert big_eye_alive(topo, verdicts(topo)) == verdicts(topo)
    black = at(topo, 3, 15)
    assert big_eye_alive(topo, verdicts(topo, dead={black.id})) == verdicts(topo, dead={black.id})
    assert all(st.alive for st in decide(topo, default_model()))   # the shipped model's whole path


def test_three_stones_the_refiner_calls_alive_in_a_big_eye_of_a_real_game_are_dead():
    # White's three stones on the top edge in Black's area: dead for the players; called alive
    # there, the big-eye rule takes them.
    topo, truth, statuses = decided_game("kgs-2017-q1", "2017-01-16-19")
    three = [s for s in statuses if len(s.points) == 3 and s.color == -1 and not truth[s.block]]
    assert three and not any(s.alive for s in three)
    read = {st.block: st for st in statuses}
    for s in three:
        read[s.block] = s.turned(True, "refiner")
    out = big_eye_alive(topo, read)
    assert any(not out[s.block].alive and out[s.block].source == "big-eye" for s in three)


def test_six_empty_points_may_be_killed_and_four_stones_may_live():
    six = CORNER_ROOM.replace(". O . X O", ". O O X O", 1).replace(". . . X O", ". O . X O", 1)  # B8, C8, B9
    topo = analyze(board(six).grid)
    black = at(topo, 0, 3)
    assert at(topo, 0, 1).size == 3  # B9, B8, C8: six empty points left
    assert big_eye_alive(topo, verdicts(topo, dead={black.id})) == verdicts(topo, dead={black.id})
    crowded = """
    . . . . X O . . .
    . O O . X O . . .
    . O O . X O . . .
    . . . . X O . . .
    X X X X X O . . .
    O O O O O O . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    """
    topo = analyze(board(crowded).grid)
    black = at(topo, 0, 4)
    assert at(topo, 1, 1).size == 4
    assert big_eye_alive(topo, verdicts(topo, dead={black.id})) == verdicts(topo, dead={black.id})


# Black walls off the top-left corner again: six empty points and White's three stones on B9, C9
# and B8, and a one-point eye at E9 besides.
SIX_AND_AN_EYE = """
    . O O X . X O . .
    . O . X X X O . .
    . . . X O O O . .
    X X X X O . . . .
    O O O O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_six_empty_points_and_another_eye_make_a_group_called_dead_alive():
    topo = analyze(board(SIX_AND_AN_EYE).grid)
    black, inner = at(topo, 0, 3), at(topo, 0, 1)
    assert inner.size == 3 and len(black.liberties) == 5  # A7, B7, C7, C8 and E9
    out = big_eye_alive(topo, verdicts(topo, dead={black.id}))
    assert out[black.id].alive and out[black.id].source == "big-eye"
    assert not out[inner.id].alive and out[inner.id].source == "big-eye"
    filled = analyze(board(SIX_AND_AN_EYE.replace(". O O X . X", ". O O X X X", 1)).grid)  # E9 filled
    black = at(filled, 0, 3)
    assert big_eye_alive(filled, verdicts(filled, dead={black.id})) == verdicts(filled, dead={black.id})


def test_two_blocks_around_six_points_and_an_eye_live_as_the_players_marked():
    # kgs-2017-q1 2017-01-13-14: Black's two 11-stone blocks on the right edge enclose six empty
    # points with White's S10 and S9, and an eye at S12; the nets call them dead.
    topo, truth, statuses = decided_game("kgs-2017-q1", "2017-01-13-14")
    turned = [s for s in statuses if s.source == "big-eye"]
    assert sorted(len(s.points) for s in turned if s.alive) == [1, 11, 11]
    assert all(s.alive == bool(truth[s.block]) for s in statuses)


# Black, walled in on the left edge, encloses two spaces alone: A9, A8, B8 and B7 (White's two
# stones on A8 and B8), and A6. Every Black liberty lies in them.
WALLED_IN = """
    . X X O . . . . .
    O O X O . . . . .
    X . X O . . . . .
    . X O . . . . . .
    X X O . . . . . .
    X O . . . . . . .
    X O . . . . . . .
    X O O O . . . . .
    X X X O . . . . .
"""


def _black_blocks(topo) -> set[int]:
    return {b.id for b in topo.blocks if b.color == 1}


def test_a_walled_in_group_with_two_eyes_is_alive_and_the_stones_in_its_eyes_dead():
    topo = analyze(board(WALLED_IN).grid)
    black = _black_blocks(topo)
    out = enclosed_alive(topo, verdicts(topo, dead=black))
    assert all(out[b].alive and out[b].source == "eyes" for b in black)
    inner = at(topo, 1, 0)  # White's A8 and B8
    assert inner.size == 2 and not out[inner.id].alive and out[inner.id].source == "eyes"
    assert out[at(topo, 0, 3).id].alive  # the wall


def test_a_walled_in_group_with_one_eye_stays_dead():
    picture = WALLED_IN.replace(". X O . . . . . .", "X X O . . . . . .", 1)  # A6 filled: one space left
    topo = analyze(board(picture).grid)
    black = _black_blocks(topo)
    assert enclosed_alive(topo, verdicts(topo, dead=black)) == verdicts(topo, dead=black)


def test_a_group_with_a_liberty_outside_its_eyes_is_left_to_the_nets():
    picture = WALLED_IN.replace("X O O O . . . . .", "X . O O . . . . .", 1)  # B2 open to White's side
    topo = analyze(board(picture).grid)
    black = _black_blocks(topo)
    out = enclosed_alive(topo, verdicts(topo, dead=black))
    assert not any(out[b].alive for b in black)


def test_a_region_holding_a_block_benson_settled_is_no_eye():
    # The same picture, with White's A8-B8 marked as settled by Benson (as a living group inside
    # a big region would be): that region is no eye, A6 alone is one, so nothing turns.
    from dataclasses import replace

    topo = analyze(board(WALLED_IN).grid)
    black = _black_blocks(topo)
    statuses = verdicts(topo, dead=black)
    inner = at(topo, 1, 0)
    statuses[inner.id] = replace(statuses[inner.id], source="benson", p_alive=None)
    assert enclosed_alive(topo, statuses) == statuses


@pytest.mark.parametrize("folder, name", [("gnugo-regression-games", "nicklas20"), ("kgs-2017-q1", "2017-01-07-29")])
def test_walled_in_groups_the_nets_call_dead_live_as_the_players_marked(folder, name):
    topo, truth, statuses = decided_game(folder, name)
    assert any(s.source == "eyes" and s.alive for s in statuses)
    assert all(s.alive == bool(truth[s.block]) for s in statuses)
