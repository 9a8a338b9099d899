"""Every rule set's facts, each on a position a Go player can count by hand: komi by default,
handicap compensation, what counts (territory and prisoners, or area), seki, the points a group
must fill, jigo, suicide and superko through ``seog gtp``, a ko cycle's no result, and the
Japanese ruling on bent four in the corner.

Each fact is asked of every preset with its own expected answer, so that a preset changed against
its own text (``seog/scoring/rules.py``'s table) makes a test here fail."""

import subprocess
import sys

import numpy as np
import pytest

from conftest import BENT_FOUR_CORNER, CYCLE, FALSE_EYE, SEKI_WITH_EYES, TRIPLE_KO, board, moves_of
from seog.features import coords
from seog.features.coords import BLACK, WHITE
from seog.gtp.referee import GtpReferee, Referee
from seog.scoring.rules import RULES
from seog.scoring.score import score_position

NOBODY_DEAD = np.zeros((7, 7), dtype=bool)  # the players' word: every stone lives
PRESETS = ("japanese", "korean", "chinese", "aga", "nz", "tromp-taylor")


def test_every_preset_is_pinned_here():
    assert set(RULES) == set(PRESETS)


# Black's wall on C, White's on D; White's stone at A4 is dead in Black's side. Black's side is
# 14 points (A and B, A4 among them), White's 21 (E to G); 7 stones a side.
TWO_SIDES = """
    . . X O . . .
    . . X O . . .
    . . X O . . .
    O . X O . . .
    . . X O . . .
    . . X O . . .
    . . X O . . .
"""
A4 = (3, 0)
PRISONERS = {BLACK: 2, WHITE: 1}  # taken during the game: two by Black, one by White


def two_sides(rules, **kw):
    dead = np.zeros((7, 7), dtype=bool)
    dead[A4] = True
    return score_position(board(TWO_SIDES), rules=rules, dead=dead, prisoners=PRISONERS, model=None, **kw)


# (Black, White) with the rules' own komi. Territory rules: territory + prisoners + dead stones
# (Black 14 + 2 + 1, White 21 + 1 + 6.5). Area: stones + territory, prisoners nothing (Black 7 +
# 14, White 7 + 21 + komi). Tromp-Taylor counts A4 as it stands: A and B touch it, so they are
# nobody's, and White has its 8 stones and 21 points.
COUNTED = {
    "japanese": (17, 28.5),
    "korean": (17, 28.5),
    "chinese": (21, 35.5),
    "aga": (21, 35.5),
    "nz": (21, 35),
    "tromp-taylor": (7, 36.5),
}
KOMI = {"japanese": 6.5, "korean": 6.5, "chinese": 7.5, "aga": 7.5, "nz": 7, "tromp-taylor": 7.5}


@pytest.mark.parametrize("rules", PRESETS)
def test_each_rule_set_counts_two_sides_its_own_way_with_its_own_komi(rules):
    s = two_sides(rules)
    assert s.komi == KOMI[rules]
    assert (s.black, s.white) == COUNTED[rules]
    if rules in ("japanese", "korean"):
        assert s.breakdown[BLACK] == {"territory": 14, "prisoners": 2, "dead_stones": 1}
    else:
        assert s.breakdown[BLACK]["stones"] == 7 and "prisoners" not in s.breakdown[BLACK]


# The compensation White gets for 3 handicap stones: a point a stone under Chinese rules, one
# fewer under AGA rules, none under the others.
COMPENSATION = {"japanese": 0, "korean": 0, "chinese": 3, "aga": 2, "nz": 0, "tromp-taylor": 0}


@pytest.mark.parametrize("rules", PRESETS)
def test_three_handicap_stones_are_paid_back_only_where_the_rules_say(rules):
    s = two_sides(rules, handicap=3)
    assert s.komi == 0.5  # a handicap game's komi when none is given
    assert s.white == COUNTED[rules][1] - KOMI[rules] + 0.5 + COMPENSATION[rules]
    assert s.breakdown[WHITE].get("handicap", 0) == COMPENSATION[rules]


@pytest.mark.parametrize("rules", PRESETS)
def test_a_handicap_of_one_is_no_stone_and_is_paid_back_nowhere(rules):
    """HA[1]: Black plays first without komi; no stone was placed, so none is paid back."""
    s = two_sides(rules, handicap=1)
    assert s.komi == 0.5 and s.white == COUNTED[rules][1] - KOMI[rules] + 0.5


# Black's side is A to C (21 points), White's F and G (14), on a 7x7 board split by the walls.
SEVEN_AHEAD = "\n".join([". . . X O . ."] * 7)


@pytest.mark.parametrize("rules, komi, result", [
    ("nz", None, "0"),  # area 28 to 21 and New Zealand's komi of 7
    ("chinese", None, "W+0.5"),
    ("japanese", 7, "0"),  # territory 21 to 14
    ("japanese", None, "B+0.5"),
    ("tromp-taylor", 7, "0"),
])
def test_a_whole_number_komi_makes_a_jigo(rules, komi, result):
    s = score_position(board(SEVEN_AHEAD), rules=rules, komi=komi, dead=NOBODY_DEAD)
    assert s.result == result


@pytest.mark.parametrize("rules", PRESETS)
def test_the_eyes_of_a_seki_are_territory_only_under_area_rules(rules):
    """A7 and E7 are the eyes of the groups in seki (conftest's SEKI_WITH_EYES): nobody's
    under Japanese and Korean rules (B+1: territory 4 to 3); under area rules each side has its
    eye (Black 22 stones + 4 + 1, White 16 + 3 + 1)."""
    s = score_position(board(SEKI_WITH_EYES), rules=rules, komi=0, dead=NOBODY_DEAD)
    eyes = [coords.gtp_to_index(v, 7) for v in ("A7", "E7")]
    if rules in ("japanese", "korean"):
        assert set(eyes) <= set(s.dame.tolist()) and (s.black, s.white) == (4, 3)
    else:
        assert not set(eyes) & set(s.dame.tolist()) and (s.black, s.white) == (27, 20)


@pytest.mark.parametrize("rules", PRESETS)
def test_a_false_eye_black_must_fill_counts_only_under_area_rules(rules):
    """C7 (conftest's FALSE_EYE): Black must fill it once White fills the dame, or lose D7."""
    s = score_position(board(FALSE_EYE), rules=rules, komi=0, dead=NOBODY_DEAD)
    c7 = coords.gtp_to_index("C7", 7)
    assert (c7 in s.territory[BLACK].tolist()) == (rules not in ("japanese", "korean"))


# conftest's BENT_FOUR_CORNER, counted with the shipped model, which reads White's corner group
# alive: only the Japanese ruling takes it off (Black: 67 empty points, the 6 stones' points and
# 6 prisoners). Korean rules count it as read (White: 4 points and komi; Black 63); area rules
# as it stands (Black 8 stones and 63 points; White 6 stones, 4 points and komi).
BENT_FOUR_COUNTED = {
    "japanese": (79, 6.5),
    "korean": (63, 10.5),
    "chinese": (71, 17.5),
    "aga": (71, 17.5),
    "nz": (71, 17),
    "tromp-taylor": (71, 17.5),
}


@pytest.mark.parametrize("rules", PRESETS)
def test_bent_four_in_the_corner_is_dead_without_play_under_japanese_rules_only(rules):
    s = score_position(board(BENT_FOUR_CORNER), rules=rules)
    assert (s.black, s.white) == BENT_FOUR_COUNTED[rules]
    assert all(st.alive for st in s.read) == (rules != "japanese")


SUICIDE = ["boardsize 9", "play w A2", "play w B2", "play w C1", "play b A1", "play w J9", "play b B1"]


def test_suicide_through_seog_gtp_is_played_under_nz_and_tromp_taylor_and_refused_elsewhere():
    """Black's B1 leaves its own A1-B1 without a liberty: one ``seog gtp`` process plays it
    under each rule set in turn."""
    lines = []
    for rules in PRESETS:
        lines += ["clear_board", f"seog-rules {rules}", *SUICIDE, "showboard"]
    proc = subprocess.run([sys.executable, "-m", "seog", "gtp", "--no-model"], input="\n".join(lines + ["quit"]) + "\n",
                          capture_output=True, text=True, timeout=60)
    replies = proc.stdout.split("\n\n")
    per_rules = len(SUICIDE) + 3
    for i, rules in enumerate(PRESETS):
        suicide = replies[i * per_rules + per_rules - 2]
        if rules in ("nz", "tromp-taylor"):
            assert suicide == "=", (rules, suicide)
            assert replies[i * per_rules + per_rules - 1].split("\n")[-3] == " 1 . . O . . . . . . 1", rules
        else:
            assert suicide == "? illegal move", (rules, suicide)


@pytest.fixture
def gtp():
    return GtpReferee(Referee(model=None))


def play(gtp, lines):
    return [gtp.handle(line).rstrip("\n") for line in lines]


def at_triple_ko(gtp, rules):
    assert set(play(gtp, ["boardsize 9", f"seog-rules {rules}"] + moves_of(TRIPLE_KO)[:-2])) == {"="}


SUPERKO = {"japanese": "none", "korean": "none", "chinese": "positional", "aga": "situational", "nz": "situational",
           "tromp-taylor": "positional"}


# Which rules let White's D2 close the triple ko's cycle (conftest's TRIPLE_KO: back to the start
# with Black to move): positional and situational superko forbid it, rules without superko do not.
@pytest.mark.parametrize("rules", PRESETS)
def test_the_move_that_closes_a_triple_ko_cycle_is_refused_by_superko_only(rules, gtp):
    at_triple_ko(gtp, rules)
    assert set(play(gtp, CYCLE[:5])) == {"="}
    closing = play(gtp, CYCLE[5:])[0]
    assert closing == ("=" if SUPERKO[rules] == "none" else "? illegal move")


# With a pass in the cycle, Black's E5 makes the start's stones again but with White to move:
# positional superko forbids it, situational superko (the start had Black to move) does not.
AFTER_A_PASS = ["play b E8", "play w D5", "play b pass", "play w D8", "play b E5"]


@pytest.mark.parametrize("rules", PRESETS)
def test_the_start_made_again_with_the_other_side_to_move_breaks_positional_superko_only(rules, gtp):
    at_triple_ko(gtp, rules)
    replies = play(gtp, AFTER_A_PASS)
    assert set(replies[:-1]) == {"="}
    assert replies[-1] == ("? illegal move" if SUPERKO[rules] == "positional" else "=")


@pytest.mark.parametrize("rules", PRESETS)
def test_a_triple_ko_played_round_voids_the_game_under_rules_without_superko(rules, gtp, capsys):
    """Japanese and Korean rules: a position made for the third time (the cycle twice round) means
    no result, and the referee's final_score says so; the other rules forbid the cycle's last move."""
    at_triple_ko(gtp, rules)
    replies = play(gtp, CYCLE + CYCLE + ["play b pass", "play w pass", "final_score"])
    if SUPERKO[rules] == "none":
        assert replies[-1] == "= Void" and gtp.referee.void
        assert "a position was made for the third time (a ko cycle), no result" in capsys.readouterr().err
    else:
        assert replies[5] == "? illegal move" and replies[-1] != "= Void" and not gtp.referee.void


def test_a_ko_cycle_once_round_is_not_yet_void(gtp):
    at_triple_ko(gtp, "japanese")
    replies = play(gtp, CYCLE + ["play b pass", "play w pass", "final_score"])
    assert not gtp.referee.void and replies[-1] != "= Void"
