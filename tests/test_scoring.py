"""The count on positions a Go player can read: seki, dead groups, false eyes, dame, snapbacks,
prisoners, handicap compensation, jigo, Tromp-Taylor, and the usual board sizes."""

import json

import numpy as np
import pytest

from conftest import FALSE_EYE, LEFT_IN_NOTE, ROOT, SEKI_WITH_EYES, STONES_LEFT_IN, TWO_WALLS, board, mask
from seog.classifiers.status import static_statuses
from seog.cli import main
from seog.features import coords, sgf
from seog.features.board import IllegalPosition
from seog.features.coords import BLACK, WHITE
from seog.features.topology import analyze
from seog.scoring.count import count
from seog.scoring.report import to_dict
from seog.scoring.request import from_game
from seog.scoring.result import FitOutcome
from seog.scoring.rules import DeadNotCounted, UnknownRules, get_rules
from seog.scoring.score import score as score_request
from seog.scoring.score import score_game, score_position

NOBODY_DEAD = np.zeros((1, 1), dtype=bool)


def score(picture, rules="japanese", komi=0.0, dead=None, **kw):
    b = board(picture)
    if dead is None:
        dead = np.zeros((b.size, b.size), dtype=bool)
    return score_position(b, rules=rules, komi=komi, dead=dead, **kw)


def vertices(score_, indices):
    return sorted(coords.index_to_gtp(i, score_.size) for i in indices)


# A seki without eyes: Black's inner stones and White's top row share the liberties B4 and D4,
# and whoever plays there first is captured. White's wall below has three eyes.
SEKI_WITHOUT_EYES = """
    O O O O O
    X . X . X
    X X X X X
    O O O O O
    . O . O .
"""


def test_seki_without_eyes_leaves_the_shared_liberties_as_dame():
    s = score(SEKI_WITHOUT_EYES)
    assert vertices(s, s.seki) == sorted(["A4", "C4", "E4", "A3", "B3", "C3", "D3", "E3",
                                          "A5", "B5", "C5", "D5", "E5"])
    assert vertices(s, s.dame) == ["B4", "D4"]
    assert vertices(s, s.territory[WHITE]) == ["A1", "C1", "E1"]
    assert s.black == 0 and s.white == 3 and s.result == "W+3"


def test_seki_with_eyes_counts_no_territory_under_japanese_rules():
    s = score(SEKI_WITH_EYES)
    assert "C7" not in vertices(s, s.seki) and "B7" in vertices(s, s.seki) and "D7" in vertices(s, s.seki)
    assert vertices(s, s.dame) == ["A7", "C1", "C7", "E7"]
    assert vertices(s, s.territory[BLACK]) == ["E1", "E3", "F4", "G1"]
    assert vertices(s, s.territory[WHITE]) == ["A1", "A4", "B3"]
    assert s.result == "B+1"


def test_seki_eyes_count_under_area_rules():
    s = score(SEKI_WITH_EYES, rules="chinese")
    black_stones, white_stones = 22, 16
    assert s.black == black_stones + 4 + 1  # territory + the seki eye A7
    assert s.white == white_stones + 3 + 1  # territory + the seki eye E7
    assert "C7" in vertices(s, s.dame)


def test_seki_is_reported_in_the_json():
    out = to_dict(score(SEKI_WITH_EYES))
    assert "B7" in out["seki"] and "E6" in out["seki"]
    assert out["ownership"][0] == "......."  # the eyes of the seki count for nobody


# White's corner group has one eye (A5) and no room for a second: marked dead, Black gets the
# whole board: 20 points of territory (the eye and the points under the dead stones among them)
# and the 3 dead stones.
ONE_EYED_GROUP = """
    . O X . .
    O O X . .
    X X X . .
    . . . . .
    . . . . .
"""


def test_dead_group_with_one_eye_goes_to_the_surrounding_side():
    dead = mask("""
        . o . . .
        o o . . .
        . . . . .
        . . . . .
        . . . . .
    """)
    s = score(ONE_EYED_GROUP, dead=dead)
    assert s.breakdown[BLACK] == {"territory": 20, "prisoners": 0, "dead_stones": 3}
    assert s.result == "B+23"
    assert vertices(s, s.dead) == ["A4", "B4", "B5"]


def test_a_group_left_in_atari_is_dead_by_the_static_pass():
    s = score_position(board(ONE_EYED_GROUP), rules="japanese", komi=0, model=None)
    sources = {st.source for st in s.blocks if not st.alive}
    assert sources == {"atari"} and s.result == "B+23"


def test_false_eye_is_not_territory_under_japanese_rules():
    s = score(FALSE_EYE)
    assert "C7" not in vertices(s, s.territory[BLACK])
    assert "C7" in vertices(s, s.dame)
    assert vertices(s, s.territory[BLACK]) == ["A1", "A2", "A4", "A6", "A7"]


def test_false_eye_counts_under_area_rules():
    s = score(FALSE_EYE, rules="chinese")
    assert "C7" in vertices(s, s.territory[BLACK])


def test_dame_count_for_nobody_and_even_territory_is_jigo():
    s = score("""
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .
    """)
    assert vertices(s, s.dame) == ["C1", "C2", "C3", "C4", "C5"]
    assert s.black == s.white == 5
    assert s.result == "0"
    area = score("""
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .
    """, rules="chinese")
    assert area.black == area.white == 10 and area.result == "0"


def test_open_borders_get_a_note_and_a_line_of_dame_none():
    # Two walls on 9x9 with three empty columns between them: open board, 27 points to nobody.
    s = score_position(board("\n".join(["..X...O.."] * 9)))
    assert s.notes == ["the borders are still open: 27 empty points around E5 belong to nobody, so this "
                       "is not a finished position and the count is the board's as it stands; the eye-shape "
                       "rules did not run, the reader decided the groups alone"]
    assert s.unfinished == "open borders"
    assert to_dict(s)["notes"] == s.notes
    # One empty column between them: a line of dame, as finished games under territory rules leave.
    assert score_position(board("\n".join(["..X.O...."] * 9))).notes == []
    # Two columns: the border points touch a wall each, no point is open on all sides.
    assert score_position(board("\n".join(["..X..O..."] * 9))).notes == []
    assert score_game(sgf.load(ROOT / "examples" / "gnugo-selfplay-19.sgf")).notes == []   # a finished game


# Black has thrown in at C6: the stone is in atari, but if White takes it at D6, Black plays C6
# again and captures seven stones (a snapback). With the six white stones marked dead, Black
# owns the top.
SNAPBACK = """
    X O X . O X
    X O O O O X
    X X X X X X
    . . . . . .
    . . . . . .
    . . . . . .
"""


def test_snapback_left_on_the_board_counts_the_white_stones_as_prisoners():
    dead = mask("""
        . o . . o .
        . o o o o .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
    """)
    s = score(SNAPBACK, dead=dead)
    # 36 points, 11 black stones: 25 points of territory, plus the 6 dead stones.
    assert s.breakdown[BLACK] == {"territory": 25, "prisoners": 0, "dead_stones": 6}
    assert s.result == "B+31"


def test_static_pass_kills_the_snapped_block_but_leaves_the_throw_in_to_the_model():
    topo = analyze(board(SNAPBACK).grid)
    settled = static_statuses(topo)
    throw_in = topo.block_at(2)          # C6
    white = topo.block_at(1)             # B6 and the five stones below it
    assert throw_in.id not in settled    # taking it at D6 is answered by the snapback
    assert settled[white.id].source == "atari" and not settled[white.id].alive


def test_snapback_played_out_in_sgf_gives_prisoners_to_both_sides():
    # Setup as SNAPBACK without the throw-in; then B C6, W D6 takes it, B C6 takes seven.
    game = sgf.loads(b"(;GM[1]FF[4]SZ[6]KM[0]RU[Japanese]"
                     b"AB[aa][fa][ab][fb][ac][bc][cc][dc][ec][fc]AW[ba][ea][bb][cb][db][eb]"
                     b";B[ca];W[da];B[ca])")
    assert game.board.prisoners == {BLACK: 7, WHITE: 1}
    s = score_game(game, model=None)
    # Black: 36 - 11 stones = 25 points of territory and 7 prisoners; White: 1 prisoner.
    assert (s.black, s.white) == (32.0, 1.0) and s.result == "B+31"


def split_board(size: int, black_cols: int) -> str:
    """Black wall on column ``black_cols - 1``, White's wall right of it, each side's land behind."""
    rows = []
    for _ in range(size):
        row = ["."] * size
        row[black_cols - 1] = "X"
        row[black_cols] = "O"
        rows.append(" ".join(row))
    return "\n".join(rows)


@pytest.mark.parametrize("size", [9, 13, 19])
def test_usual_board_sizes_count_each_side_its_land(size):
    s = score(split_board(size, size // 2 + 1), komi=6.5)
    black_land = size * (size // 2)
    white_land = size * (size - size // 2 - 2)
    assert s.breakdown[BLACK]["territory"] == black_land
    assert s.breakdown[WHITE]["territory"] == white_land
    assert s.margin == black_land - white_land - 6.5
    area = score(split_board(size, size // 2 + 1), rules="chinese", komi=7.5)
    assert area.black + area.white - 7.5 == size * size


HANDICAP_GAME = (b"(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]RU[%s]AB[cc][gg]"
                 b";W[ea];B[da];W[eb];B[db];W[ec];B[dc];W[ed];B[dd];W[ee];B[de];W[ef];B[df]"
                 b";W[eg];B[dg];W[eh];B[dh];W[ei];B[di];W[gc];B[tt];W[tt])")


@pytest.mark.parametrize("ru, bonus", [("Chinese", 2), ("AGA", 1), ("Japanese", 0)])
def test_handicap_compensation(ru, bonus):
    game = sgf.loads(HANDICAP_GAME % ru.encode())
    assert game.handicap == 2
    dead = np.zeros((9, 9), dtype=bool)
    dead[6, 6] = True  # the handicap stone at G3 is left inside White's side
    s = score_position(game.board, rules=get_rules(ru), komi=game.komi, handicap=game.handicap,
                       prisoners=game.board.prisoners, dead=dead)
    assert s.breakdown[WHITE].get("handicap", 0) == bonus
    if ru == "Japanese":
        # Black: A-C (27 - 1 stone); White: F-I (36 - 1 stone + the dead stone's point) + 1 prisoner.
        assert (s.black, s.white) == (26.0, 36.5)
    else:
        # Area: Black A-D (36 points), White E-J (45 points, the dead stone taken off).
        assert (s.black, s.white) == (36.0, 45 + 0.5 + bonus)


def test_tromp_taylor_keeps_dead_stones_on_the_board():
    dead = mask("""
        . o . . .
        o o . . .
        . . . . .
        . . . . .
        . . . . .
    """)
    s = score(ONE_EYED_GROUP, rules="tromp-taylor", dead=dead)
    # Every stone counts: A5 touches only White, so it is White's; Black has the rest.
    assert s.white == 3 + 1 and s.black == 25 - 4
    # ... so no stone is dead in the count; the marks' reading is kept beside it.
    assert len(s.dead) == 0 and all(b.status == "alive" for b in s.blocks)
    assert vertices(s, s.read_dead) == ["A4", "B4", "B5"]
    assert s.notes == ["tromp-taylor rules count every stone on the board: 3 stones marked dead (B5, A4, B4) "
                       "count as they stand; capture them before the game ends to take them off"]


def left_in(rules, **kw):
    game = sgf.loads(STONES_LEFT_IN)
    return to_dict(score_game(game, rules=rules, **kw), game.recorded or None)


def test_tromp_taylor_says_no_stone_is_dead_and_names_those_read_dead_in_a_note():
    """Issue #7: the stones seog reads dead count as they stand, and every output says so."""
    out = left_in(None)  # RU[Tromp-Taylor]
    assert out["rules"] == "tromp-taylor" and out["result"] == "W+7.5"
    assert out["breakdown"]["black"] == {"territory": 0, "stones": 10}
    assert out["breakdown"]["white"]["stones"] == 10
    assert out["dead"] == [] and not out["uncertain"]
    assert {b["status"] for b in out["blocks"]} == {"alive"}
    read = {b["stones"][0]: b["read_status"] for b in out["blocks"]}
    assert read == {"D9": "alive", "F9": "alive", "B7": "dead", "H6": "dead"}
    assert out["notes"] == [LEFT_IN_NOTE]


def test_chinese_rules_take_the_same_stones_off_as_dead():
    out = left_in("chinese")
    assert out["result"] == "W+7.5" and out["dead"] == ["B7", "H6"]
    assert out["breakdown"]["black"] == {"territory": 27, "stones": 9}
    dead = [b for b in out["blocks"] if b["status"] == "dead"]
    assert [b["stones"] for b in dead] == [["H6"], ["B7"]]
    assert all(b["read_status"] == "dead" for b in dead) and out["notes"] == []


def test_tromp_taylor_refuses_a_dead_override_and_takes_an_alive_one_as_the_reading():
    game = sgf.loads(STONES_LEFT_IN)
    d5, b7 = (coords.gtp_to_index(v, 9) for v in ("D5", "B7"))
    with pytest.raises(DeadNotCounted, match=r"override at D5: tromp-taylor rules count every stone"):
        score_game(game, overrides={d5: False})
    assert score_game(game, rules="chinese", overrides={d5: False}).result == "W+88.5"  # every point White's
    s = score_game(game, overrides={b7: True})  # the players' word: B7 lives; only H6 is read dead
    assert s.result == "W+7.5" and len(s.dead) == 0 and vertices(s, s.read_dead) == ["H6"]
    assert "1 stone seog reads as dead (H6) counts as it stands; capture it" in s.notes[0]


def test_score_position_without_komi_takes_half_a_point_with_a_handicap():
    game = sgf.loads(HANDICAP_GAME % b"AGA")
    dead = np.zeros((9, 9), dtype=bool)
    dead[6, 6] = True
    for handicap, komi in ((2, 0.5), (1, 0.5), (0, 7.5)):
        s = score_position(game.board, rules="aga", handicap=handicap, dead=dead)
        assert s.komi == komi and s.white == 45 + komi + max(handicap - 1, 0)
    assert get_rules("japanese").komi_for(0) == 6.5 and get_rules("nz").komi_for(4) == 0.5


def test_komi_and_result_strings():
    s = score(split_board(9, 5), komi=0.5)
    assert s.result == "B+8.5"
    s = score(split_board(9, 5), komi=9.5)
    assert s.result == "W+0.5"


def test_unknown_rules_are_a_clear_error():
    with pytest.raises(UnknownRules, match="unknown rules 'ing'"):
        get_rules("ing")


def test_a_block_without_liberties_is_an_illegal_position():
    b = board("""
        O X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
    """)
    with pytest.raises(IllegalPosition, match="A5 has no liberties"):
        score_position(b, model=None)


def test_count_accepts_a_rectangle():
    grid = np.array([[1, 0, -1], [1, 0, -1]], dtype=np.int8)
    s = count(grid, np.zeros_like(grid, dtype=bool), get_rules("japanese"), 0)
    assert s.black == s.white == 0 and len(s.dame) == 2


# ---- the command line ------------------------------------------------------------------------

def test_cli_scores_a_file_with_rules_and_komi(tmp_path, capsys):
    path = tmp_path / "split.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]AB"
                     + b"".join(b"[d%c]" % c for c in b"abcdefghi") + b"AW"
                     + b"".join(b"[e%c]" % c for c in b"abcdefghi") + b";B[tt];W[tt])")
    assert main(["score", str(path), "--json", "--no-model"]) == 0
    out = json.loads(capsys.readouterr().out)
    # Black: A-C (27 points); White: F-J (36 points) and 6.5 komi.
    assert out["result"] == "W+15.5" and out["rules"] == "japanese"
    assert main(["score", str(path), "--json", "--no-model", "--rules", "chinese", "--komi", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["result"] == "W+9" and out["komi"] == 0.0 and out["rules"] == "chinese"
    assert len(out["ownership"]) == 9 and out["ownership"][0] == "BBBBWWWWW"


def test_cli_reports_an_illegal_move_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "bad.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9];B[ee];W[dd];B[dd])")
    assert main(["score", str(path)]) == 1
    err = capsys.readouterr().err
    assert "move 3 (B D6) is illegal: the point is occupied" in err
    assert "Traceback" not in err


def test_cli_rejects_unknown_rules(tmp_path, capsys):
    path = tmp_path / "ok.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9];B[ee])")
    assert main(["score", str(path), "--rules", "ing", "--no-model"]) == 1
    assert "unknown rules 'ing'" in capsys.readouterr().err


def test_a_game_decided_without_a_count_says_so_when_scored(capsys):
    """A resigned game's or a match game's (Void at the move limit) last position is not a
    finished one: the count comes with a note, in the JSON and the text."""
    moves = ";B[ee];W[cc];B[gg];W[cg]"
    for re_value, noted in (("W+Resign", True), ("Void", True), ("B+T", True), ("B+3.5", False), ("", False)):
        game = sgf.loads(f"(;SZ[9]KM[7]RE[{re_value}]{moves})")
        score = score_game(game, model=None)
        assert any(f"not a finished position (RE[{re_value}])" in n for n in score.notes) == noted, re_value
        assert (score.unfinished == f"RE[{re_value}]") == noted


def two_walls_record(result: str, rules: str = "Japanese") -> bytes:
    """TWO_WALLS as an SGF record (setup stones, two passes), counted W+13.5 under Japanese rules."""
    grid = board(TWO_WALLS).grid
    stones = {c: "".join(f"[{coords.index_to_sgf(i, 9)}]" for i in (grid.ravel() == c).nonzero()[0])
              for c in (coords.BLACK, coords.WHITE)}
    return (f"(;GM[1]FF[4]SZ[9]KM[6.5]RU[{rules}]RE[{result}]AB{stones[coords.BLACK]}"
            f"AW{stones[coords.WHITE]};B[];W[])").encode()


def test_a_count_far_from_the_players_result_is_in_doubt_and_says_so():
    """No block is in doubt on the two walls, but a record 34 points away (B+20.5 for W+13.5 on
    the board) means a group read wrong or a result agreed otherwise: a person should look."""
    from seog.scoring.report import to_dict
    from seog.scoring.score import score_game

    far = score_game(sgf.loads(two_walls_record("B+20.5")))
    assert far.result == "W+13.5" and not far.uncertain_blocks
    assert far.record_gap == -34 and far.far_from_record and far.in_doubt
    assert any("34 points from the recorded result B+20.5" in note for note in far.notes)
    answer = to_dict(far, "B+20.5")
    assert answer["uncertain"] is True and answer["record_gap"] == -34
    near = sgf.loads(two_walls_record("W+20.5"))  # 7 points: a dame or a komi agreed
    blind = score_request(from_game(near, ignore_result=True))
    assert blind.record_gap == 7 and not blind.in_doubt and not any("recorded" in n for n in blind.notes)
    fitted = score_game(near)  # no group of the two walls is in doubt: nothing can make up the 7 points
    assert fitted.record_gap == 7 and not fitted.far_from_record and fitted.record_fit is FitOutcome.NO_FIT
    assert fitted.in_doubt and any("no turn of the blocks in doubt reaches" in n for n in fitted.notes)


def test_a_count_under_other_rules_or_a_resignation_is_not_held_against_the_record():
    from seog.scoring.score import score_game

    game = sgf.loads(two_walls_record("B+20.5"))
    assert score_game(game, rules="chinese").record_gap is None  # the players counted otherwise
    assert score_game(game, komi=0.5).record_gap is None
    assert score_game(sgf.loads(two_walls_record("B+R"))).record_gap is None
