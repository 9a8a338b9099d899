"""The GTP referee: protocol framing, moves and their legality, handicap, loadsgf, and the final
count of small finished games, in process and as the ``seog gtp`` subprocess."""

import io
import json
import os
import random
import subprocess
import sys

import pytest

from conftest import CYCLE, LEFT_IN_NOTE, STONES_LEFT_IN, TRIPLE_KO, board, moves_of
from seog.features import coords
from seog.gtp.client import EngineRefused, GtpEngine, parse_reply
from seog.gtp.referee import GtpReferee, Referee
from seog.scoring.rules import check_suicides

# Two walls, each alive with two eyes; a white stone dead in Black's side (B4), a black stone
# dead in White's side (F3).
TWO_WALLS = """
. X . X O . .
X X X X O O O
. . . X O . .
. O . X O . .
. . . X O X .
X X X X O O O
. X . X O . .
"""


def reply(gtp: GtpReferee, line: str) -> str:
    """The reply to one command, checked for GTP framing."""
    text = gtp.handle(line)
    assert text is not None and text[0] in "=?" and text.endswith("\n\n")
    assert "\n\n" not in text[:-2], "a blank line inside a reply would end it early"
    return text


def ok(gtp: GtpReferee, line: str) -> str:
    text = reply(gtp, line)
    assert text.startswith("="), f"{line!r} failed: {text!r}"
    return parse_reply(text.rstrip("\n").split("\n"))[1]


def fails(gtp: GtpReferee, line: str) -> str:
    text = reply(gtp, line)
    assert text.startswith("?"), f"{line!r} should fail: {text!r}"
    return parse_reply(text.rstrip("\n").split("\n"))[1]


@pytest.fixture
def gtp():
    return GtpReferee(Referee(model=None))


def play_two_walls(gtp):
    ok(gtp, "boardsize 7")
    ok(gtp, "komi 0.5")
    for line in moves_of(TWO_WALLS):
        ok(gtp, line)


def test_protocol_framing_ids_and_standard_answers(gtp):
    assert gtp.handle("12 protocol_version") == "=12 2\n\n"
    assert gtp.handle("7 boardsize 9") == "=7\n\n"
    assert gtp.handle("  \t# only a comment") is None
    assert gtp.handle("name # trailing comment") == "= seog\n\n"
    assert ok(gtp, "known_command final_status_list") == "true"
    assert ok(gtp, "known_command genmove") == "false"
    listed = ok(gtp, "list_commands").split("\n")
    for name in ("protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
                 "clear_board", "komi", "play", "undo", "quit", "loadsgf", "showboard", "final_score",
                 "final_status_list", "seog-rules", "fixed_handicap", "set_free_handicap"):
        assert name in listed
    assert gtp.handle("3 genmove b") == "?3 unknown command\n\n"
    assert fails(gtp, "boardsize 26") == "unacceptable size"
    assert fails(gtp, "komi seven").startswith("syntax error")
    assert gtp.handle("99 quit") == "=99\n\n" and gtp.done


def test_illegal_moves_are_refused_and_leave_the_board_alone(gtp):
    ok(gtp, "boardsize 5")
    for line in ("play b B5", "play b A4", "play b B4", "play w C5", "play w C4"):
        ok(gtp, line)
    before = gtp.referee.board.to_rows()
    assert fails(gtp, "play w B5") == "illegal move"  # occupied
    assert fails(gtp, "play w A5") == "illegal move"  # suicide in the corner
    assert fails(gtp, "play x A1").startswith("syntax error")
    assert fails(gtp, "play b J9").startswith("syntax error")  # off a 5x5 board
    assert fails(gtp, "play b I3").startswith("syntax error")  # GTP has no column I
    assert gtp.referee.board.to_rows() == before


def test_ko_cannot_be_retaken_at_once(gtp):
    ok(gtp, "boardsize 5")
    # Black: B5 A4 B3; White: C5 D4 C3 B4 -> Black C4 takes B4 and makes a ko.
    for line in ("play b B5", "play w C5", "play b A4", "play w D4", "play b B3", "play w C3",
                 "play w B4", "play b C4"):
        ok(gtp, line)
    assert gtp.referee.board.prisoners[coords.BLACK] == 1
    assert fails(gtp, "play w B4") == "illegal move"
    ok(gtp, "play w E1")
    ok(gtp, "play b E2")
    ok(gtp, "play w B4")  # after a move elsewhere the retake is fine
    assert gtp.referee.board.prisoners[coords.WHITE] == 1


def test_superko_forbids_the_move_that_closes_a_triple_ko_cycle(gtp):
    ok(gtp, "boardsize 9")
    ok(gtp, "seog-rules chinese")
    for line in moves_of(TRIPLE_KO)[:-2] + CYCLE[:5]:
        ok(gtp, line)
    before = gtp.referee.board.to_rows()
    assert fails(gtp, CYCLE[5]) == "illegal move"  # positional superko
    assert gtp.referee.board.to_rows() == before
    ok(gtp, "undo")  # takes back Black's E5, and the position it made with it
    ok(gtp, CYCLE[4])
    ok(gtp, "seog-rules aga")  # situational: the start had Black to move, as it would again
    assert fails(gtp, CYCLE[5]) == "illegal move"
    start = gtp.referee.board.grid.tobytes()  # after Black's E5: White to move
    assert gtp.referee._repeats((start, coords.WHITE)) and not gtp.referee._repeats((start, coords.BLACK))
    ok(gtp, "seog-rules japanese")  # no superko: the cycle may go round
    for line in [CYCLE[5]] + CYCLE:
        ok(gtp, line)
    assert gtp.referee.repetitions() == 3  # the start, and twice round the cycle


def test_loadsgf_replays_a_recorded_cycle_as_played(gtp, tmp_path):
    lines = moves_of(TRIPLE_KO)[:-2] + CYCLE
    nodes = "".join(f";{c.upper()}[{coords.index_to_sgf(coords.gtp_to_index(v, 9), 9)}]"
                    for c, v in (line.split()[1:] for line in lines))
    path = tmp_path / "cycle.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[9]RU[Chinese]{nodes})")
    ok(gtp, f"loadsgf {path}")  # the whole game, move by move, not only its final position
    assert gtp.referee.rules.name == "chinese" and len(gtp.referee.moves) == 40
    ok(gtp, "undo")
    assert fails(gtp, CYCLE[5]) == "illegal move"  # played now, the same move breaks superko


def test_undo_restores_captured_stones_and_prisoners(gtp):
    ok(gtp, "boardsize 5")
    for line in ("play w A1", "play b A2", "play b B1"):
        ok(gtp, line)
    assert "A1" not in ok(gtp, "showboard").split("\n")[5]  # the row of line 1 has no white stone
    assert gtp.referee.board.prisoners[coords.BLACK] == 1
    ok(gtp, "undo")
    assert gtp.referee.board.to_rows()[4] == "O...."
    assert gtp.referee.board.prisoners[coords.BLACK] == 0
    ok(gtp, "undo")
    ok(gtp, "undo")
    assert fails(gtp, "undo") == "cannot undo"


def test_two_walls_final_score_and_status_lists(gtp):
    play_two_walls(gtp)
    # Japanese: Black 13 territory + 1 dead white = 14; White 10 + 1 dead black + komi 0.5 = 11.5.
    assert ok(gtp, "final_score") == "B+2.5"
    assert ok(gtp, "final_status_list dead").split("\n") == ["B4", "F3"]
    alive = ok(gtp, "final_status_list alive").split("\n")
    assert len(alive) == 2 and len(alive[0].split()) == 15 and len(alive[1].split()) == 11
    assert ok(gtp, "final_status_list seki") == ""
    assert fails(gtp, "final_status_list maybe").startswith("syntax error")
    # Chinese: Black 13 + 15 stones = 28; White 10 + 11 stones + 0.5 = 21.5.
    ok(gtp, "seog-rules chinese")
    assert ok(gtp, "seog-rules") == "chinese"
    assert ok(gtp, "final_score") == "B+6.5"
    ok(gtp, "kgs-rules new_zealand")
    assert ok(gtp, "seog-rules") == "nz"
    assert "unknown rules" in fails(gtp, "seog-rules ing")
    assert ok(gtp, "seog-score-json").startswith('{"size": 7')


def test_final_score_of_an_unfinished_position_keeps_the_gtp_answer_and_logs_the_estimate():
    log = io.StringIO()
    gtp = GtpReferee(Referee(model=None), log=log)
    ok(gtp, "boardsize 9")
    ok(gtp, "play b E5")
    ok(gtp, "play w E6")
    assert gtp.handle("3 final_score") == "=3 W+6.5\n\n"  # open borders: the standard answer all the same
    assert log.getvalue() == "seog: final_score W+6.5 is an estimate: not finished (open borders)\n"
    assert json.loads(ok(gtp, "seog-score-json"))["unfinished"] == "open borders"
    gtp.log = io.StringIO()
    play_two_walls(gtp)  # a finished position: nothing logged
    assert ok(gtp, "final_score") == "B+2.5" and gtp.log.getvalue() == ""


def test_a_handicap_game_without_a_komi_command_counts_half_a_point(gtp):
    # Two handicap stones own the whole 9x9 board: 79 points of Japanese territory.
    ok(gtp, "boardsize 9")
    ok(gtp, "fixed_handicap 2")
    assert ok(gtp, "final_score") == "B+78.5"       # 0.5, as handicap games are played (and the API counts)
    ok(gtp, "komi 6.5")
    assert ok(gtp, "final_score") == "B+72.5"       # a komi the controller sets holds
    ok(gtp, "boardsize 9")
    gtp.referee.komi = None                         # a fresh conversation: no komi command
    ok(gtp, "play B E5")
    assert ok(gtp, "final_score") == "B+73.5"       # an even game: the rules' 6.5


def test_fixed_and_free_handicap(gtp):
    assert set(ok(gtp, "fixed_handicap 9").split()) == {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4",
                                                        "K16", "K10"}
    assert fails(gtp, "fixed_handicap 2") == "board not empty"
    ok(gtp, "boardsize 9")
    assert set(ok(gtp, "fixed_handicap 5").split()) == {"C7", "G7", "E5", "C3", "G3"}
    ok(gtp, "clear_board")
    assert fails(gtp, "fixed_handicap 10").startswith("invalid number of stones")
    ok(gtp, "boardsize 6")
    assert fails(gtp, "fixed_handicap 2").startswith("invalid number of stones")  # none below 7x7
    ok(gtp, "boardsize 9")
    ok(gtp, "set_free_handicap A1 J9 E5")
    assert gtp.referee.handicap == 3
    assert gtp.referee.board.to_rows()[0] == "........X" and gtp.referee.board.to_rows()[8] == "X........"
    assert fails(gtp, "set_free_handicap C3 D3") == "board not empty"
    ok(gtp, "clear_board")
    assert fails(gtp, "set_free_handicap C3 C3").startswith("bad vertex list")


def test_loadsgf_whole_game_and_up_to_a_move(gtp, tmp_path):
    path = tmp_path / "short.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[5.5]RU[Chinese];B[ee];W[cc];B[gg];W[cg])")
    ok(gtp, f"loadsgf {path}")
    assert gtp.referee.size == 9 and gtp.referee.komi == 5.5 and gtp.referee.rules.name == "chinese"
    assert len(gtp.referee.moves) == 4
    ok(gtp, f"loadsgf {path} 3")  # the position before move 3
    assert gtp.referee.board.to_rows()[2] == "..O......" and gtp.referee.board.to_rows()[6] == "........."
    ok(gtp, "undo")
    assert gtp.referee.board.to_rows()[2] == "........."
    assert fails(gtp, f"loadsgf {tmp_path / 'missing.sgf'}").startswith("cannot load file")
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;SZ[9];B[ee];W[ee])")
    assert "illegal" in fails(gtp, f"loadsgf {broken}")
    # AE in mid-game is placed where it stands: the moves before it and after it can be undone.
    midgame = tmp_path / "midgame-setup.sgf"
    midgame.write_text("(;GM[1]SZ[5];B[cc];W[dd];AE[cc];W[cc];B[bb])")
    ok(gtp, f"loadsgf {midgame} 4")  # B C3, W D2, C3 emptied, W C3
    assert gtp.referee.board.to_rows() == [".....", ".....", "..O..", "...O.", "....."]
    ok(gtp, "undo")  # back to just after the AE
    assert gtp.referee.board.to_rows() == [".....", ".....", ".....", "...O.", "....."]
    ok(gtp, f"loadsgf {midgame}")
    assert gtp.referee.board.to_rows() == [".....", ".X...", "..O..", "...O.", "....."]
    ok(gtp, "undo")
    assert gtp.referee.board.to_rows() == [".....", ".....", "..O..", "...O.", "....."]
    ok(gtp, "play b B4")
    # Under positional superko, a move after a setup node may bring back a position from
    # before it: the setup starts the game's positions again.
    reset = tmp_path / "setup-at-the-end.sgf"
    reset.write_text("(;GM[1]SZ[5]RU[Chinese];B[cc];W[dd];AE[cc])")
    ok(gtp, f"loadsgf {reset}")
    assert gtp.referee.rules.name == "chinese"
    ok(gtp, "play b C3")  # B C3 + W D2, as after move 2
    assert gtp.referee.board.to_rows()[2] == "..X.."


def test_a_files_rules_hold_for_its_game_only(gtp, tmp_path):
    # Two walls, a dead stone inside each: area and territory counts give different results.
    rows = board(TWO_WALLS).to_rows()
    stones = {ch: "".join(f"[{chr(97 + c)}{chr(97 + r)}]" for r, row in enumerate(rows)
                          for c, v in enumerate(row) if v == ch) for ch in "XO"}
    game = f"(;GM[1]FF[4]SZ[7]KM[0.5]{{}}AB{stones['X']}AW{stones['O']};B[tt];W[tt])"
    chinese, plain = tmp_path / "chinese.sgf", tmp_path / "plain.sgf"
    chinese.write_text(game.format("RU[Chinese]"))
    plain.write_text(game.format(""))
    expected = {}
    for rules in ("japanese", "chinese", "aga"):
        fresh = GtpReferee(Referee(model=None, rules=rules))
        ok(fresh, f"loadsgf {plain}")
        expected[rules] = ok(fresh, "final_score")
    assert expected["japanese"] != expected["chinese"]
    ok(gtp, f"loadsgf {chinese}")
    assert ok(gtp, "seog-rules") == "chinese" and ok(gtp, "final_score") == expected["chinese"]
    ok(gtp, f"loadsgf {plain}")  # no RU: the referee's own rules, not the last file's
    assert ok(gtp, "seog-rules") == "japanese" and ok(gtp, "final_score") == expected["japanese"]
    ok(gtp, f"loadsgf {chinese}")
    ok(gtp, "clear_board")
    assert ok(gtp, "seog-rules") == "japanese"
    ok(gtp, "seog-rules aga")  # the referee's own rules from here on
    ok(gtp, f"loadsgf {chinese}")
    ok(gtp, f"loadsgf {plain}")
    assert ok(gtp, "seog-rules") == "aga" and ok(gtp, "final_score") == expected["aga"]
    assert "move number is 1 or more" in fails(gtp, f"loadsgf {plain} 0")
    assert "move number is 1 or more" in fails(gtp, f"loadsgf {plain} -3")


def test_random_lines_never_break_the_referee(gtp):
    """Fuzz: random commands, arguments and bytes. Every line gets a framed reply, and the
    game stays legal: it can still be scored at the end."""
    rng = random.Random(5)
    names = list(gtp.commands) + ["genmove", "", "PLAY", "11", "-1", "play b", "boardsize"]
    words = ["b", "w", "black", "white", "pass", "A1", "T19", "Z0", "E5", "j9", "-3", "0", "2", "25",
             "9", "7.5", "nan", "inf", "1e9", "alive", "dead", "seki", "japanese", "/dev/null", "#", "\t"]
    alphabet = "".join(map(chr, range(128))) + "\u00e9\u00b2\u4e00\ufffd"
    for _ in range(3000):
        kind = rng.random()
        if kind < 0.6:
            line = " ".join([rng.choice(names)] + rng.choices(words, k=rng.randint(0, 3)))
        elif kind < 0.8:
            line = "".join(rng.choices(alphabet, k=rng.randint(0, 30)))
        else:
            line = f"{rng.randint(0, 10**6)} " + rng.choice(names) + " " + rng.choice(words)
        if line.split()[:1] == ["quit"] or "quit" in line.split()[:2]:
            continue
        text = gtp.handle(line)
        if text is not None:
            assert text[0] in "=?" and text.endswith("\n\n") and "\n\n" not in text[:-2], (line, text)
        assert "internal error" not in (text or ""), (line, text)
    assert ok(gtp, "final_score")[0] in "BW0"


def seog_gtp() -> GtpEngine:
    return GtpEngine([sys.executable, "-m", "seog", "gtp", "--no-model"], timeout=60)


def test_seog_gtp_subprocess_referees_a_small_game():
    with seog_gtp() as engine:
        assert engine.send("protocol_version") == "2"
        engine.send("boardsize 7")
        engine.send("komi 0.5")
        for line in moves_of(TWO_WALLS):
            engine.send(line)
        with pytest.raises(EngineRefused, match="illegal move"):
            engine.send("play w D4")
        assert engine.send("final_score") == "B+2.5"
        assert engine.send("final_status_list dead").split("\n") == ["B4", "F3"]
        assert "b o b X O w w" in engine.send("seog-score")


def test_seog_gtp_subprocess_survives_garbage_bytes_and_quits_cleanly():
    data = b"\xff\xfe\x00garbage\r\n1 name\r\npl\x1bay b\n\n2 boardsize 1\n3 quit\nname\n"
    done = subprocess.run([sys.executable, "-m", "seog", "gtp", "--no-model"], input=data,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == ("? unknown command\n\n=1 seog\n\n? syntax error: usage play COLOUR VERTEX"
                                    "\n\n?2 unacceptable size\n\n=3\n\n")


def test_a_byte_the_terminal_cannot_show_never_ends_the_conversation():
    """On an ASCII stdout, echoing a non-ASCII vertex back in the error reply must not crash."""
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C")
    done = subprocess.run([sys.executable, "-m", "seog", "gtp"], input=b"play b \xc3\xa9\xc3\xa9\nname\n",
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().split("\n\n")[:2] == ["? syntax error: bad GTP vertex '??'", "= seog"]


def test_komi_that_is_not_a_finite_number_is_refused_on_the_command_line(capsys):
    from seog.cli import main as cli_main

    for argv in (["gtp", "--komi", "nan"], ["match", "--black", "x", "--white", "y", "--komi", "inf"]):
        with pytest.raises(SystemExit):
            cli_main(argv)
        assert "argument --komi: komi" in capsys.readouterr().err


def test_multi_stone_suicide_is_legal_under_nz_and_tromp_taylor_only(gtp):
    """White walls in A1-B1; Black's B1 leaves A1-B1 without a liberty. (White's J9 keeps the
    board after the suicide new: without it, that board is the one before A1, which positional
    superko forbids.)"""
    setup = ["boardsize 9", "play w A2", "play w B2", "play w C1", "play b A1", "play w J9"]
    for rules in ("japanese", "korean", "chinese", "aga"):
        for line in setup + [f"seog-rules {rules}"]:
            ok(gtp, line)
        assert fails(gtp, "play b B1") == "illegal move", rules
    for rules in ("nz", "tromp-taylor"):
        for line in setup + [f"seog-rules {rules}"]:
            ok(gtp, line)
        ok(gtp, "play b B1")
        assert gtp.referee.board.to_rows()[7:] == ["OO.......", "..O......"]
        assert gtp.referee.board.prisoners == {coords.BLACK: 0, coords.WHITE: 2}
        ok(gtp, "undo")
        assert gtp.referee.board.to_rows()[8] == "X.O......" and gtp.referee.board.prisoners[coords.WHITE] == 0


def test_single_stone_suicide_changes_nothing_so_superko_decides(gtp):
    """Black A1 between White A2 and B1 leaves the board as it was: positional superko
    (Tromp-Taylor) forbids it; situational superko (New Zealand) only when that board has occurred
    with White to move, as after White's pass."""
    for line in ("boardsize 9", "seog-rules tromp-taylor", "play w A2", "play w B1"):
        ok(gtp, line)
    assert fails(gtp, "play b A1") == "illegal move"
    ok(gtp, "seog-rules nz")
    ok(gtp, "play b A1")
    assert gtp.referee.board.to_rows()[8] == ".O......." and gtp.referee.board.prisoners[coords.WHITE] == 1
    ok(gtp, "play w pass")
    assert fails(gtp, "play b A1") == "illegal move"  # the board after Black's last move, White to move


# Black's B8 takes its own four stones in the corner (A9 B9 A8 B8): legal under NZ and
# Tromp-Taylor, refused under every other rule set seog knows.
SUICIDE_RECORD = "(;SZ[9]RU[{ru}]KM[7]AW[ca][cb][ac][bc][cc];B[aa];W[ee];B[ab];W[ef];B[ba];W[eg];B[bb];W[];B[])"


def test_a_record_with_a_multi_stone_suicide_replays_where_its_rules_allow_it(gtp, tmp_path):
    from seog.features import sgf

    for number, ru in enumerate(("NZ", "Tromp-Taylor", "New Zealand")):
        game = sgf.loads(SUICIDE_RECORD.format(ru=ru))
        assert game.board.to_rows()[:3] == ["..O......", "..O......", "OOO......"]
        assert game.board.prisoners == {coords.BLACK: 0, coords.WHITE: 4} and len(game.moves) == 9
        path = tmp_path / f"suicide-{number}.sgf"
        path.write_text(SUICIDE_RECORD.format(ru=ru))
        ok(gtp, f"loadsgf {path}")
        assert gtp.referee.board.to_rows() == game.board.to_rows() and len(gtp.referee.moves) == 9
        ok(gtp, f"loadsgf {path} 7")  # the position before the suicide, under the file's rules
        assert gtp.referee.board.to_rows()[:2] == ["XXO......", "X.O......"]
        ok(gtp, "play b B8")
        assert gtp.referee.board.to_rows() == game.board.to_rows()
        assert check_suicides(game) is game
    for ru in ("Japanese", "Chinese", "AGA"):
        with pytest.raises(sgf.SgfError, match=r"move 7 \(B B8\) is illegal: it is suicide"):
            check_suicides(sgf.loads(SUICIDE_RECORD.format(ru=ru)), "nz")  # the record's rules decide
    path = tmp_path / "suicide-japanese.sgf"
    path.write_text(SUICIDE_RECORD.format(ru="Japanese"))
    assert "suicide" in fails(gtp, f"loadsgf {path}")


def test_a_suicide_in_a_record_whose_ru_does_not_say_follows_the_rules_given(gtp, tmp_path, capsys):
    """No RU (or one seog does not know): the rules the caller gives decide, on the command
    line, over GTP and in the API; KataGo's rules string says it itself (sui1)."""
    from seog.api.positions import from_sgf
    from seog.cli import main as cli_main
    from seog.features import sgf

    path = tmp_path / "no-ru.sgf"
    path.write_text(SUICIDE_RECORD.replace("RU[{ru}]", ""))
    assert cli_main(["score", str(path)]) == 1
    assert "no-ru.sgf: move 7 (B B8) is illegal: it is suicide, which japanese rules forbid" in capsys.readouterr().err
    assert cli_main(["score", str(path), "--rules", "nz", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["prisoners"]["white"] == 4  # Black's four stones
    assert from_sgf(path.read_text(), rules="tromp-taylor").game.board.prisoners[coords.WHITE] == 4
    assert "suicide" in fails(gtp, f"loadsgf {path}")  # japanese by default
    ok(gtp, "seog-rules nz")
    ok(gtp, f"loadsgf {path}")
    assert gtp.referee.board.prisoners[coords.WHITE] == 4
    katago = SUICIDE_RECORD.format(ru="koSITUATIONALscoreAREAtaxNONEsui1button0")
    assert check_suicides(sgf.loads(katago)).board.prisoners[coords.WHITE] == 4
    with pytest.raises(sgf.SgfError, match="suicide"):
        check_suicides(sgf.loads(katago.replace("sui1", "sui0")), "nz")


def test_tromp_taylor_reports_no_dead_stones_as_it_counts_every_stone(gtp):
    """TWO_WALLS has a white stone in Black's side (B4) and a black one in White's (F3): dead
    under the other rules; under Tromp-Taylor both stay on the board and count for their colour."""
    from seog.scoring.score import score_position

    play_two_walls(gtp)
    ok(gtp, "seog-rules tromp-taylor")
    assert ok(gtp, "final_status_list dead") == ""
    alive = ok(gtp, "final_status_list alive").split("\n")
    assert sorted(len(block.split()) for block in alive) == [1, 1, 11, 15]
    kept = score_position(gtp.referee.board, rules="tromp-taylor", komi=0.5, dead=[])
    assert ok(gtp, "final_score") == kept.result
    ok(gtp, "seog-rules chinese")  # the same stones are dead where the count takes them off
    assert ok(gtp, "final_status_list dead").split("\n") == ["B4", "F3"]



def test_the_referee_and_the_score_json_agree_on_what_tromp_taylor_leaves_dead(tmp_path):
    """Issue #7: ``final_status_list dead``, ``seog-score-json`` and ``seog-score`` all say no
    stone is dead under Tromp-Taylor; the JSON's note names the stones read dead (by the shipped
    model: the heuristic reads the eyeless walls dead too)."""
    gtp = GtpReferee(Referee())
    path = tmp_path / "left-in.sgf"
    path.write_text(STONES_LEFT_IN)
    ok(gtp, f"loadsgf {path}")
    assert ok(gtp, "seog-rules") == "tromp-taylor" and ok(gtp, "final_score") == "W+7.5"
    assert ok(gtp, "final_status_list dead") == ""
    answer = json.loads(ok(gtp, "seog-score-json"))
    assert answer["dead"] == [] and answer["notes"] == [LEFT_IN_NOTE]
    assert {b["status"] for b in answer["blocks"]} == {"alive"}
    board = ok(gtp, "seog-score")
    assert " 7 , O , X , O , , , 7" in board and " 6 , , , X , O , X , 6" in board  # drawn as stones
    assert f"note: {LEFT_IN_NOTE}" in board
    ok(gtp, "seog-rules chinese")
    assert ok(gtp, "final_status_list dead").split("\n") == ["B7", "H6"]
    assert json.loads(ok(gtp, "seog-score-json"))["dead"] == ["B7", "H6"]


def test_vertices_and_komi_take_plain_digits_only(gtp):
    ok(gtp, "boardsize 9")
    for vertex in ("d\u00b2", "d\u0664"):
        assert fails(gtp, f"play b {vertex}").startswith("syntax error"), vertex
    assert gtp.referee.board.to_rows() == ["." * 9] * 9
    for value in ("6_5", "\u0666.5", "nan", "7,5", "1e308", "626"):
        assert fails(gtp, f"komi {value}").startswith("syntax error"), value
    ok(gtp, "komi -3")
    ok(gtp, "komi .5")
    assert gtp.referee.komi == 0.5
    ok(gtp, "komi -0")  # not -0.0 in the JSON, nor 'komi -0' to the engines of a match
    assert str(gtp.referee.komi) == "0.0"


def test_komi_with_an_underscore_is_refused_on_the_command_line(capsys):
    from seog.cli import main as cli_main

    with pytest.raises(SystemExit):
        cli_main(["gtp", "--komi", "6_5"])
    assert "argument --komi: komi '6_5' is not a number" in capsys.readouterr().err
