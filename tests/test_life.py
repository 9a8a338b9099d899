"""Life and death of a group on positions a Go player can check (``seog.reading.life``), and
GNU Go's owl commands through ``seog gtp``."""

import re
import sys

import pytest
from test_gtp import fails, ok

from conftest import DATA
from seog.features import coords
from seog.gtp.client import GtpEngine
from seog.gtp.referee import GtpReferee, Referee
from seog.reading.board import SearchBoard
from seog.reading.groups import group_of
from seog.reading.life import dead_around, does_attack, does_defend, owl_attack, owl_defend, status
from seog.reading.results import Code, Status
from seog.reading.semeai import Race, analyze_semeai

SUITES = DATA / "gnugo-regression"

# Black's corner group has two one-point eyes, A1 and C1, with Black on their diagonals.
TWO_EYES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O . . .
X X X X X O . . .
X . X . X O . . .
. X X X X O . . .
"""

# Black's eye space in the corner is a straight three (A1, B1, C1): B1 is the vital point.
STRAIGHT_THREE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O . . .
X X X X X O . . .
. . . X X O . . .
"""

# A bulky five on the edge (C1, D1, E1, C2, D2): D1 is the vital point.
BULKY_FIVE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O . .
O X X X X X O . .
O X . . X X O . .
O X . . . X O . .
"""

# A rabbity six (D3, E3, C2, D2, E2, D1) walled in on the edge: D2 is the vital point.
RABBITY_SIX = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O . .
O X X X X X O . .
O X X . . X O . .
O X . . . X O . .
O X X . X X O . .
"""

# A bent four in the corner (A2, A1, B1, C1), the bend on the corner point, Black with no liberty
# outside: White's B1 starts a ko (Black's A1, White takes A2).
BENT_FOUR_IN_THE_CORNER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O . . . . . .
X X O O O . . . .
. X X X O . . . .
. . . X O . . . .
"""

# The same corner after White's B1 and Black's A1: White kills only by taking the ko at A2, and
# Black lives by capturing B1 at C1 first.
KO_TO_KILL = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O . . . . . .
X X O O O . . . .
. X X X O . . . .
X O . X O . . . .
"""

# Black's group holds two regions, each White's dead block of four and two empty points that are
# all Black's liberties: unconditionally alive (Benson), though the shape table counts no sure eye.
BENSON_ALIVE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O O
X X X X X X X X X
O O . X X X . O O
O O . X X X . O O
"""

# Two black stones in the open, White's stones loose around them: they run out.
IN_THE_OPEN = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O . . . . .
. . . . X . . . .
. . . . X O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# Black's corner holds two dead white stones with six liberties, walled in by Black alone: they
# are Black's eye space (Black takes them at leisure), not a wall that leaves Black eyeless.
DEAD_STONES_INSIDE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O . .
X X X X X X O . .
X . . . . X O . .
X . O O . X O . .
X . . . . X O . .
"""

# Black's territory along the bottom (17 points) is walled by three blocks that White's E3 keeps
# apart: each borders a territory only Black's stones surround, which is two eyes for each.
SHARED_TERRITORY = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O O
X X X X O X X X X
. . . . X . . . .
. . . . . . . . .
"""

# Black's nine stones on the first line under White's wall, one empty row between: eleven
# liberties, all in the two rows White shuts in, and no room there for two eyes.
UNDER_THE_WALL = """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
O O O O O O O O O O O
. . . . . . . . . . .
. X X X X X X X X X .
"""

# White's corner (A9, B9, C9, B8) has two liberties, C8 and B7, and Black's stones pressing it are
# themselves shut in by White's wall: Black takes the corner with B7 and C8, but the taker is left
# with a four-point corner shape and no eyes (White's B9 kills it), so the corner stays White's.
CORNER_BESIDE_DEAD_STONES = """
O O O X O . . . .
X O . X O . . . .
X . X X O . . . .
. X X O O . . . .
O O O O . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# Black's edge group (A9, A8, A7) has two liberties, B9 and A6, both shared with White's wall
# around it, which has one more (C7) and is shut in by Black: White's B9 puts Black in atari, but
# Black's C7 puts White in atari, and White's capture leaves it a straight three in the corner
# that Black's A8 kills. Black wins the race against the wall that would kill it.
RACE_AGAINST_THE_WALL = """
X . O X . . . . .
X O O X . . . . .
X O . X . . . . .
. O X X . . . . .
O O X . . . . . .
X X X . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# The same edge group where White's wall runs out into open board: White wins the race.
RACE_AGAINST_AN_OPEN_WALL = """
X . O X . . . . .
X O O X . . . . .
X O . X . . . . .
. O . X . . . . .
O O O . . . . . .
X X O . . . . . .
. . O . . . . . .
. . O . . . . . .
. . O . . . . . .
"""

# hash game 2006-04-23-13: Black's stones from H18 down to E14 and G11 are dead inside White's
# area; White's group at E13 lives by D10-D11 and the points F11-F12 beside the dead stones, and
# reads dead only while those stones count as a living wall around it.
WALL_AROUND_A_DEAD_GROUP = """
. . . . . . . O O . . . O X X . . . .
. . . . . . O X O X . . O O X X X . .
. . . O . . O X X O O O O O O O X . .
. . . . O . . X O . . X O O X X . . .
O O O X O O . X O . O . O X X . . . .
O X O O X X X X O O X O O X O . O . .
X X X X O O X X O X X X X X . . . X .
. . X O O . X O O X . O X . X X X O .
. X O . O . X O O X X O O X X O X X X
. X O . O O O X X X O O O X O O O O X
. X O O O X X . X O . O . O . . . O X
. X O X X O . X . O . O X O . . O X X
. . X . X . O X . O O X O O O O O X .
. . X . . X X O O O . X O O X X X X O
. . . . X O O . O X X X X X O O O X O
. . . X . . O O O O X X O O O O . O O
. . . . X O O X O X . . X X O . O . .
. . . . . X X X X . X . X O O O O . .
. . . . . . . . . . . . X X O . . . .
"""


def read(picture: str):
    b = SearchBoard.from_rows(picture)
    return b, (lambda v: coords.from_gtp(v, b.size)), (lambda p: coords.to_gtp(p, b.size))


def test_a_group_with_two_eyes_lives_whoever_moves_first():
    b, at, _ = read(TWO_EYES)
    before = b.to_rows()
    assert owl_attack(b, at("A3")).code == Code.LOSS
    assert owl_defend(b, at("A3")).code == Code.WIN
    assert status(b, at("A3"))[0] == Status.ALIVE
    assert b.to_rows() == before  # the search leaves the board as it found it


def test_a_straight_three_lives_or_dies_by_who_takes_the_vital_point():
    b, at, name = read(STRAIGHT_THREE)
    kill, life = owl_attack(b, at("A2")), owl_defend(b, at("A2"))
    assert (kill.code, name(kill.move)) == (Code.WIN, "B1")
    assert (life.code, name(life.move)) == (Code.WIN, "B1")
    verdict, _, _ = status(b, at("A2"))
    assert verdict == Status.CRITICAL


def test_a_bulky_five_is_dead_with_the_attacker_on_its_vital_point():
    b, at, name = read(BULKY_FIVE)
    kill = owl_attack(b, at("B2"))
    assert (kill.code, name(kill.move)) == (Code.WIN, "D1")
    assert does_attack(b, at("D1"), at("B2")) == Code.WIN
    assert does_attack(b, at("C2"), at("B2")) == Code.LOSS  # off the vital point Black makes two eyes
    assert does_defend(b, at("D1"), at("B2")) == Code.WIN


def test_a_rabbity_six_is_dead_with_the_attacker_first():
    b, at, name = read(RABBITY_SIX)
    kill = owl_attack(b, at("B2"))
    assert (kill.code, name(kill.move)) == (Code.WIN, "D2")
    assert owl_defend(b, at("B2")).code == Code.WIN


def test_bent_four_in_the_corner_is_a_ko_by_search():
    b, at, name = read(BENT_FOUR_IN_THE_CORNER)
    kill = owl_attack(b, at("A3"))
    assert kill.code in (Code.KO_A, Code.KO_B)  # never a plain kill: Black fights the ko
    assert name(kill.move) in ("B1", "A2")
    assert owl_defend(b, at("A3")).code == Code.WIN  # Black's B1 first makes two eyes


def test_a_kill_that_hangs_on_a_ko_is_answered_as_ko():
    b, at, name = read(KO_TO_KILL)
    kill = owl_attack(b, at("A3"))
    assert (kill.code, name(kill.move)) == (Code.KO_A, "A2")
    life = owl_defend(b, at("A3"))
    assert (life.code, name(life.move)) == (Code.WIN, "C1")


def test_a_group_alive_by_benson_is_read_alive_without_a_search():
    b, at, _ = read(BENSON_ALIVE)
    assert owl_attack(b, at("E2"), nodes=1).code == Code.LOSS
    assert owl_attack(b, at("E2")).code == Code.LOSS


def test_a_group_that_runs_into_open_board_is_not_killed():
    b, at, _ = read(IN_THE_OPEN)
    assert owl_attack(b, at("E5")).code == Code.LOSS
    assert owl_defend(b, at("E5")).code == Code.WIN


def test_a_group_under_the_opponents_wall_does_not_escape_into_the_area_it_walls_in():
    b, at, _ = read(UNDER_THE_WALL)
    assert owl_attack(b, at("E1")).code == Code.WIN
    assert owl_defend(b, at("E1")).code == Code.LOSS
    assert status(b, at("E1"))[0] == Status.DEAD


def test_the_group_of_a_block_takes_in_blocks_joined_by_two_liberties():
    b, at, _ = read(TWO_EYES)
    assert len(group_of(b, at("A3"))) == 1
    diagonal = SearchBoard.from_rows(". . .\n. X .\nX . .")
    assert len(group_of(diagonal, coords.from_gtp("A1", 3))) == 2  # B2 and A1: two shared liberties


def test_a_point_with_no_stone_has_no_group_to_read():
    b, at, _ = read(TWO_EYES)
    with pytest.raises(ValueError):
        owl_attack(b, at("A1"))


@pytest.mark.skipif(not SUITES.is_dir(), reason="GNU Go's regression suites are in ../shared")
def test_seog_gtp_answers_owl_cases_of_gnu_gos_suite():
    # owl.tst 11 and 12 (incident 236: a group that lives) as GNU Go expects; 3 and 4 (incident 85:
    # White's group at B11 lives or dies by who moves first), the codes as GNU Go expects.
    engine = GtpEngine([sys.executable, "-m", "seog", "gtp", "--no-model"], cwd=str(SUITES), timeout=60)
    try:
        engine.send("loadsgf games/incident236.sgf 116")
        attack, defence = engine.send("owl_attack P5"), engine.send("owl_defend P5")
        engine.send("loadsgf games/incident85.sgf 104")
        critical = engine.send("owl_attack B11"), engine.send("owl_defend B11")
    finally:
        engine.close()
    assert attack == "0"
    assert re.fullmatch(r"1 (PASS|P6)", defence)
    assert [answer.split()[0] for answer in critical] == ["1", "1"]


def set_up(picture: str) -> GtpReferee:
    """A GTP front whose board is the picture (its stones played in turn, Black's first)."""
    gtp = GtpReferee(Referee(model=None))
    rows = [r.split() for r in picture.strip().splitlines()]
    ok(gtp, f"boardsize {len(rows)}")
    for r, row in enumerate(rows):
        for c, stone in enumerate(row):
            if stone in "XO":
                colour = "black" if stone == "X" else "white"
                ok(gtp, f"play {colour} {coords.rc_to_gtp(r, c, len(rows))}")
    return gtp


def test_gtp_reads_a_straight_three_as_critical_with_its_vital_point():
    gtp = set_up(STRAIGHT_THREE)
    assert ok(gtp, "owl_attack A2") == "1 B1"
    assert ok(gtp, "owl_defend A2") == "1 B1"
    assert ok(gtp, "dragon_status A2") == "critical B1 B1"
    assert ok(gtp, "owl_does_attack B1 A2") == "1"
    assert ok(gtp, "owl_does_defend C1 A2") == "0"  # off the vital point: White's B1 still kills
    assert fails(gtp, "owl_attack A1") == "vertex must not be empty"
    assert fails(gtp, "owl_does_attack B1").startswith("syntax error")


def test_gtp_answers_two_eyes_alive_and_needs_no_move_to_save_them():
    gtp = set_up(TWO_EYES)
    assert ok(gtp, "dragon_status A3") == "alive"
    assert ok(gtp, "owl_attack A3") == "0"
    assert ok(gtp, "owl_defend A3") == "1 PASS"


def test_gtp_reads_a_straight_three_with_the_attacker_on_its_vital_point_dead():
    gtp = set_up(STRAIGHT_THREE)
    ok(gtp, "play white B1")
    assert ok(gtp, "dragon_status A2") == "dead"
    assert ok(gtp, "owl_defend A2") == "0"


def test_dead_stones_with_many_liberties_inside_a_groups_area_are_its_eye_space():
    b, at, name = read(DEAD_STONES_INSIDE)
    assert dead_around(b, at("A4")) == {b.block[at("C2")].stones[0]}  # the white pair cannot live
    assert owl_attack(b, at("A4")).code == Code.LOSS
    assert status(b, at("A4"))[0] == Status.ALIVE


def test_a_group_that_shares_its_territory_with_living_friends_is_not_killed():
    b, at, _ = read(SHARED_TERRITORY)
    assert len(group_of(b, at("A3"))) == 1  # White's E3 cuts it from its friends
    for vertex in ("A3", "E2", "F3"):
        assert owl_attack(b, at(vertex)).code == Code.LOSS
        assert status(b, at(vertex))[0] == Status.ALIVE


def test_a_corner_group_beside_dead_stones_is_alive():
    b, at, _ = read(CORNER_BESIDE_DEAD_STONES)
    assert status(b, at("D9"))[0] == Status.DEAD  # Black's stones around the corner cannot live
    assert b.block[at("D9")].stones[0] in dead_around(b, at("A9"))
    assert owl_attack(b, at("A9")).code == Code.LOSS  # a capture by dead stones is no kill
    assert status(b, at("A9"))[0] == Status.ALIVE


def test_a_race_the_group_wins_against_the_wall_around_it_is_no_kill():
    b, at, _ = read(RACE_AGAINST_THE_WALL)
    assert analyze_semeai(b, at("B8"), at("A9")).race == Race.A_DIES  # White's wall, moving first, dies
    verdict, attack, _ = status(b, at("A9"))
    assert verdict == Status.ALIVE and attack.code == Code.LOSS


def test_a_race_the_wall_wins_is_a_kill():
    b, at, _ = read(RACE_AGAINST_AN_OPEN_WALL)
    assert analyze_semeai(b, at("B8"), at("A9")).race == Race.B_DIES
    assert status(b, at("A9"))[0] == Status.DEAD


def test_a_living_wall_whose_eyes_lie_against_a_dead_group_is_no_captive_of_it():
    b, at, _ = read(WALL_AROUND_A_DEAD_GROUP)
    assert b.block[at("E13")].stones[0] not in dead_around(b, at("H18"))  # White lives once Black is dead
    assert owl_attack(b, at("H18")).code != Code.LOSS  # no territory of captives: Black can be killed
    assert status(b, at("H18"))[0] != Status.ALIVE
