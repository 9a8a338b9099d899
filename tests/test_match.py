"""Matches between GTP engines: GNU Go against itself (scored by seog, checked against GNU Go's own
count), and small scripted engines that resign, play illegal moves, hang, die or fail to start."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import LEFT_IN_NOTE
from seog import folders
from seog.features import sgf
from seog.features.coords import gtp_to_index, index_to_gtp
from seog.gtp.client import EngineDied, EngineRefused, EngineTimeout, GtpEngine, parse_reply
from seog.gtp.match import MatchConfig, run_match, summary
from seog.scoring.result import parse_result
from seog.scoring.score import score_game, score_position

GNUGO = Path("/usr/games/gnugo")
needs_gnugo = pytest.mark.skipif(not GNUGO.exists(), reason="GNU Go is not installed")

# A GTP engine whose genmove does what its first argument says: 'pass', 'resign', 'a1' (the
# same point every time, so its second move is illegal), 'hang', 'die', 'junk', or
# 'seq:A,B/C,D' (A, B, then C, D over and over). More arguments: 'noid' (replies without the
# command's id) and 'slow-once:PATH' (the first run, while PATH does not exist, makes it and
# sleeps 2 s before reading any command, as a big engine loading its weights).
SCRIPT = textwrap.dedent('''
    import itertools, os, sys, time
    mode = sys.argv[1]
    if mode.startswith("seq:"):
        first, _, again = mode[4:].partition("/")
        sequence = itertools.chain(first.split(","), itertools.cycle(again.split(",")))
    noid = "noid" in sys.argv[2:]
    for option in sys.argv[2:]:
        if option.startswith("slow-once:") and not os.path.exists(option[10:]):
            open(option[10:], "w").close()
            time.sleep(2)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        ident, words = (words[0], words[1:]) if words[0].isdigit() else ("", words)
        ident = "" if noid else ident
        name = words[0] if words else ""
        answer = ""
        if name == "name":
            answer = "script-" + mode
        elif name == "genmove":
            if mode == "hang":
                time.sleep(600)
            if mode == "die":
                sys.exit(3)
            answer = next(sequence) if mode.startswith("seq:") else \\
                {"a1": "A1", "resign": "resign", "junk": "banana"}.get(mode, "pass")
        elif name == "version" and mode == "noversion":
            sys.stdout.write("?" + ident + " unknown command\\n\\n")
            sys.stdout.flush()
            continue
        sys.stdout.write("=" + ident + " " + answer + "\\n\\n")
        sys.stdout.flush()
        if name == "quit":
            break
''')


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(SCRIPT)
    return lambda mode: f"{sys.executable} {path} {mode}"


def gnugo(level: int = 0, seed: int = 1) -> str:
    return f"{GNUGO} --mode gtp --level {level} --never-resign --seed {seed}"


def test_parse_reply_reads_ids_and_multiline_text():
    assert parse_reply(["=12 B+3.5"]) == (True, "B+3.5")
    assert parse_reply(["= ", "A1 B1", "C3"]) == (True, "A1 B1\nC3")
    assert parse_reply(["?4 illegal move"]) == (False, "illegal move")


def test_client_reports_refusal_timeout_and_death(script):
    with GtpEngine(script("hang"), timeout=5) as engine:
        assert engine.send("name") == "script-hang"
        with pytest.raises(EngineTimeout, match="did not answer 'genmove b' within 0.5 s"):
            engine.send("genmove b", timeout=0.5)
    with GtpEngine(script("die"), timeout=5) as engine:
        with pytest.raises(EngineDied, match="exited with code 3"):
            engine.send("genmove w")
        with pytest.raises(EngineDied):
            engine.send("name")
    with GtpEngine(script("noversion"), timeout=5) as engine, \
            pytest.raises(EngineRefused, match="unknown command"):
        engine.send("version")


def test_resignation_ends_the_game_and_colours_alternate(script, tmp_path):
    config = MatchConfig(black=script("resign"), white=script("pass"), games=2, size=9,
                         out=tmp_path / "out", timeout=10, model=None)
    records, seats, stopped = run_match(config, log=lambda s: None)
    assert not stopped
    assert [(r.black, r.white, r.result) for r in records] == [("A", "B", "W+R"), ("B", "A", "B+R")]
    assert [r.winner for r in records] == ["B", "B"]
    game = sgf.load(records[0].path)
    assert game.result == "W+R" and game.properties["PB"] == "script-resign (A)"
    table = summary(records, seats, config)
    assert "B: script-pass" in table and "2 of 2 won (1 as Black, 1 as White)" in table


def test_an_illegal_move_forfeits(script, tmp_path):
    config = MatchConfig(black=script("a1"), white=script("pass"), games=2, size=9,
                         out=tmp_path, timeout=10, model=None)
    records, _, _ = run_match(config, log=lambda s: None)
    first, second = records
    # Game 1: A (Black) A1, B passes, A plays A1 again: occupied.
    assert first.result == "W+F" and first.moves == 2 and "illegal move A1 at move 3" in first.reason
    # Game 2: B (Black) passes, A (White) A1, B passes, A A1 again.
    assert second.result == "B+F" and second.moves == 3 and second.winner == "B"
    assert sgf.load(second.path).result == "B+F"


def test_two_passes_on_an_empty_board_are_counted_and_the_log_says_it_is_an_estimate(script, tmp_path):
    config = MatchConfig(black=script("pass"), white=script("pass"), games=1, size=9, komi=7.5,
                         rules="chinese", out=tmp_path, model=None)
    lines = []
    records, _, _ = run_match(config, log=lines.append)
    assert records[0].result == "W+7.5" and records[0].moves == 2 and records[0].winner == "B"
    assert records[0].reason == "two passes; estimate: not finished (open borders)"
    assert lines == ["game 1: A (B) vs B (W): W+7.5       2 moves, two passes; "
                     "estimate: not finished (open borders)"]


def test_the_game_comment_carries_the_scores_notes(script, tmp_path):
    """Issue #7's game played out (``conftest.STONES_LEFT_IN``): under Tromp-Taylor the comment
    said W+7.5 with no word of B7 and H6, which seog reads dead and the count keeps."""
    black = "seq:D9,D8,D7,D6,D5,D4,D3,D2,D1,H6/pass"
    white = "seq:F9,F8,F7,F6,F5,F4,F3,F2,F1,B7/pass"
    config = MatchConfig(black=script(black), white=script(white), games=1, size=9, komi=7.5,
                         rules="tromp-taylor", out=tmp_path, timeout=10)
    (record,), _, _ = run_match(config, log=lambda s: None)
    assert record.result == "W+7.5" and record.reason == "two passes" and record.dead == []
    text = " ".join(record.path.read_text().split())  # whatever the writer's line breaks
    assert ("Scored by seog (tromp-taylor rules, komi 7.5): Black 10, White 17.5, W+7.5. "
            f"Note: {LEFT_IN_NOTE}.]") in text


def test_a_triple_ko_cycle_forfeits_under_superko_and_is_void_without_it(script, tmp_path):
    """Both engines build three kos (``test_gtp.TRIPLE_KO``), then take in turn for ever."""
    black = "seq:A9,C9,D9,C8,C7,D7,C6,D6,C5,E5,C4,D4,C3,D3,C2,C1,D1/E8,E2,E5"
    white = "seq:E9,F9,D8,F8,E7,F7,E6,F6,F5,E4,F4,E3,F3,D2,F2,E1,F1/D5,D8,D2"
    config = MatchConfig(black=script(black), white=script(white), games=1, size=9, rules="chinese",
                         out=tmp_path / "chinese", timeout=10, model=None)
    (record,), _, _ = run_match(config, log=lambda s: None)
    # 34 moves build the kos; White's D2, the sixth capture, brings back the position after them.
    assert record.result == "B+F" and record.moves == 39
    assert "illegal move D2 at move 40 (it repeats an earlier position, against positional superko)" in record.reason
    config = MatchConfig(black=script(black), white=script(white), games=1, size=9, rules="japanese",
                         out=tmp_path / "japanese", timeout=10, model=None)
    (record,), _, _ = run_match(config, log=lambda s: None)
    assert record.result == "Void" and record.moves == 46 and "third time (a ko cycle)" in record.reason
    assert sgf.load(record.path).result == "Void"


def test_a_hanging_or_dying_engine_forfeits_and_the_match_goes_on(script, tmp_path):
    config = MatchConfig(black=script("hang"), white=script("pass"), games=2, size=9, out=tmp_path / "hang",
                         timeout=1, model=None)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert not stopped and len(records) == 2
    assert [r.result for r in records] == ["W+F", "B+F"]
    assert all("did not answer 'genmove" in r.reason for r in records)
    config = MatchConfig(black=script("pass"), white=script("die"), games=2, size=9, out=tmp_path / "die",
                         timeout=5, model=None)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert [r.result for r in records] == ["B+F", "W+F"]
    assert "exited with code 3" in records[0].reason
    config = MatchConfig(black=script("junk"), white=script("pass"), games=1, size=9, out=tmp_path / "junk",
                         timeout=5, model=None)
    records, _, _ = run_match(config, log=lambda s: None)
    assert records[0].result == "W+F" and "'banana', not a move" in records[0].reason


def test_an_engine_that_cannot_start_stops_the_match_cleanly(script, tmp_path):
    config = MatchConfig(black="/nonexistent/engine --gtp", white=script("pass"), games=3, size=9,
                         out=tmp_path, model=None)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert records == [] and "cannot start '/nonexistent/engine --gtp'" in stopped
    # One that starts but dies at once (a wrong flag, a missing script or weights) stops it too,
    # instead of forfeiting every game as if it had played.
    config.black = f"{sys.executable} -c 'import sys; sys.exit(2)'"
    records, _, stopped = run_match(config, log=lambda s: None)
    assert records == [] and "exited with code 2" in stopped and "check its command" in stopped


def test_bad_settings_are_refused_before_any_engine_starts(script):
    with pytest.raises(ValueError, match="unknown rules"):
        MatchConfig(black=script("pass"), white=script("pass"), rules="ing")
    with pytest.raises(ValueError, match="board size"):
        MatchConfig(black=script("pass"), white=script("pass"), size=40)


def gnugo_verdict(path: Path) -> tuple[str, list[str]]:
    """GNU Go's own count of an SGF file (Chinese rules, komi 7.5) and its dead stones."""
    out = subprocess.run([str(GNUGO), "--mode", "gtp", "--chinese-rules", "--komi", "7.5"],
                         input=f"loadsgf {path}\nfinal_score\nfinal_status_list dead\n",
                         capture_output=True, text=True, timeout=120, check=False).stdout
    replies = [parse_reply(block.split("\n"))[1] for block in out.strip().split("\n\n")]
    return replies[1], replies[2].split()


@needs_gnugo
def test_gnugo_against_gnugo_games_are_recorded_and_counted_right(tmp_path):
    """Two GNU Go games on 9x9. Each SGF replays to the final position, its RE is what its own
    TB/TW marks count to, and with GNU Go's dead stones our count equals GNU Go's count. (Which
    stones are dead is the classifier's call, so that is not compared here.)"""
    config = MatchConfig(black=gnugo(seed=1), white=gnugo(seed=2), games=2, size=9, komi=7.5,
                         rules="chinese", out=tmp_path, timeout=60)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert not stopped and [r.black for r in records] == ["A", "B"]
    for record in records:
        assert record.reason == "two passes"
        game = sgf.load(record.path)
        assert len(game.moves) == record.moves and game.result == record.result
        assert game.properties["PB"].startswith("GNU Go") and game.rules == "chinese"
        rows, cols = game.marked_dead().nonzero()
        assert sorted(index_to_gtp(i, 9) for i in rows * 9 + cols) == sorted(record.dead)
        assert score_game(game, use_markup=True).result == record.result
        their_result, their_dead = gnugo_verdict(record.path)
        dead = [gtp_to_index(v, 9) for v in their_dead]
        ours = score_position(game.board, rules="chinese", komi=7.5, prisoners=game.board.prisoners,
                              dead=dead)
        assert parse_result(ours.result).margin == parse_result(their_result).margin


def test_an_engine_slow_to_start_gets_the_start_up_time_and_past_it_stops_the_match(script, tmp_path):
    """It answers without ids and takes 2 s to load: within --startup-timeout it plays (the
    per-move --timeout does not apply to loading); past it the match stops before any game,
    rather than forfeiting every game or reading each reply one command late."""
    config = MatchConfig(black=script(f"pass noid slow-once:{tmp_path / 'a'}"), white=script("pass"),
                         games=2, size=9, out=tmp_path / "ok", timeout=1.0, startup=10.0, model=None)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert not stopped and [r.reason for r in records] == ["two passes; estimate: not finished (open borders)"] * 2
    assert records[0].result == "W+7.5" and records[0].winner == "B"
    config = MatchConfig(black=script(f"pass noid slow-once:{tmp_path / 'b'}"), white=script("pass"),
                         games=2, size=9, out=tmp_path / "slow", timeout=1.0, startup=1.0, model=None)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert records == [] and "did not answer 'name' within 1 s of starting" in stopped
    assert "--startup-timeout" in stopped


@needs_gnugo
def test_a_game_stopped_at_the_move_limit_is_unfinished_and_out_of_the_win_counts(tmp_path):
    config = MatchConfig(black=gnugo(level=1), white=gnugo(level=1), games=1, size=9, out=tmp_path,
                         max_moves=10)
    records, seats, _ = run_match(config, log=lambda s: None)
    (record,) = records
    assert record.moves == 10 and record.unfinished and record.winner is None
    assert record.result == "Void" and record.reason.startswith("unfinished at the move limit (10)")
    text = record.path.read_text()
    assert "RE[Void]" in text and "unfinished, stopped at the move limit (10)" in text and "Scored by seog" in text
    assert "TB[" not in text and "TW[" not in text  # no count in the marks of a game with no result
    assert len(sgf.load(record.path).moves) == 10
    table = summary(records, seats, config)
    assert "0 of 0 won" in table and "unfinished at the move limit (10), not in the win counts: 1" in table


def test_an_out_folder_with_an_earlier_match_is_refused(script, tmp_path):
    (tmp_path / "game-001.sgf").write_text("(;SZ[9])")
    with pytest.raises(ValueError, match="earlier match"):
        MatchConfig(black=script("pass"), white=script("pass"), size=9, out=tmp_path)
    MatchConfig(black=script("pass"), white=script("pass"), size=9, out=tmp_path / "new")


def test_an_out_folder_under_a_file_is_one_line_naming_it(script, tmp_path, capsys):
    """Issue #7: it was Python's '[Errno 20] Not a directory: ...'."""
    from seog.cli import main

    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "m"
    assert main(["match", "--black", script("pass"), "--white", script("pass"), "--size", "9", "--no-model",
                 "--out", str(out)]) == 1
    assert capsys.readouterr().err == f"seog match: error: --out {out}: cannot write ({tmp_path / 'afile'} is not a folder)\n"
    afile = tmp_path / "afile"  # the folder to make is a file itself
    assert main(["match", "--black", script("pass"), "--white", script("pass"), "--size", "9", "--no-model",
                 "--out", str(afile)]) == 1
    assert capsys.readouterr().err == f"seog match: error: --out {afile} is a file: name a folder for the game files\n"


def test_seog_match_command_prints_the_summary(script, tmp_path):
    done = subprocess.run([sys.executable, "-m", "seog", "match", "--black", script("pass"),
                           "--white", script("resign"), "--games", "2", "--size", "9", "--no-model",
                           "--out", str(tmp_path / "m")], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "   1  A      B      B+R           1  White resigned" in done.stdout
    assert "   2  B      A      W+R           0  Black resigned" in done.stdout
    assert "A: script-pass" in done.stdout and "2 of 2 won (1 as Black, 1 as White)" in done.stdout
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["game-001.sgf", "game-002.sgf"]
    bad = subprocess.run([sys.executable, "-m", "seog", "match", "--black", script("pass"),
                          "--white", script("pass"), "--rules", "ing"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert bad.returncode == 1 and "unknown rules 'ing'" in bad.stderr and "Traceback" not in bad.stderr


def test_two_matches_never_write_into_one_folder(script, tmp_path):
    out = tmp_path / "out"
    config = MatchConfig(black=script("pass"), white=script("pass"), games=1, size=9, out=out, model=None)
    with folders.claimed(out, "match"):  # a match playing there now
        with pytest.raises(ValueError, match="another seog match is writing there"):
            run_match(config, log=lambda s: None)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert not stopped and records[0].path == out / "game-001.sgf"
    assert sorted(p.name for p in out.iterdir()) == ["game-001.sgf"]
    file = tmp_path / "results.txt"
    file.write_text("mine")
    with pytest.raises(ValueError, match="is a file"):
        MatchConfig(black="x", white="y", out=file)


def test_a_full_disk_stops_the_match_after_the_games_written_whole(script, tmp_path, monkeypatch):
    import errno
    import os
    out = tmp_path / "out"
    config = MatchConfig(black=script("pass"), white=script("resign"), games=3, size=9, out=out, model=None)
    real = Path.write_bytes

    def write_bytes(path, data):  # the second game's file gets half its bytes, then the disk is full
        if "game-002" not in path.name:
            return real(path, data)
        real(path, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    records, _, stopped = run_match(config, log=lambda s: None)
    assert [r.number for r in records] == [1]
    assert stopped == f"cannot write {out / 'game-002.sgf'} (No space left on device); the games before it are written whole"
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["game-001.sgf"]
    assert sgf.loads((out / "game-001.sgf").read_bytes()).result == "B+R"


def test_matches_started_in_the_same_second_get_folders_of_their_own(tmp_path):
    from seog.cli.match import _new_folder

    base = tmp_path / "match-20261122-101010"
    assert [_new_folder(base).name for _ in range(3)] == [base.name, f"{base.name}-2", f"{base.name}-3"]
