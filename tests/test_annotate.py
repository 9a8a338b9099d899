"""Batch annotation of a small archive written here: marks, results, resumability, the report."""

import csv
import dataclasses
import errno
import hashlib
import io
import multiprocessing
import os
import select
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from pathlib import Path

import pytest

from conftest import LEFT_IN_NOTE, STONES_LEFT_IN, board, shared_dir
from seog.cli import main as cli_main
from seog.datasets import annotate as ann
from seog.features import coords, sgf
from seog.features.board import Board
from seog.scoring import annotated
from seog.scoring.score import score_game, score_position

# Two walls on a 9x9 board: both sides alive with two one-point eyes on the top edge; the white
# stone at C7 is in atari inside Black's area (dead). Japanese komi 6.5 -> W+13.5; Chinese 7.5 -> W+16.5.
TWO_WALLS = """
    .X.XO.O.O
    XXXXOOOOO
    .XOXO....
    ...XO....
    ...XO....
    ...XO....
    ...XO....
    ...XO....
    ...XO...."""

def record(picture: str, *, komi=6.5, rules="Japanese", result="W+13.5", moves="") -> str:
    """SGF text whose position is ``picture`` (setup stones), then ``moves`` and two passes."""
    grid = board(picture).grid
    size = grid.shape[0]
    stones = {c: "".join(f"[{coords.index_to_sgf(i, size)}]" for i in (grid.ravel() == c).nonzero()[0])
              for c in (coords.BLACK, coords.WHITE)}
    return (f"(;GM[1]FF[4]SZ[{size}]KM[{komi}]RU[{rules}]RE[{result}]AB{stones[coords.BLACK]}"
            f"AW{stones[coords.WHITE]}{moves};B[];W[])")


@pytest.fixture
def games(tmp_path):
    """An input folder: three good games (one in a subfolder), a broken file, an illegal move, a note."""
    src = tmp_path / "games"
    (src / "club").mkdir(parents=True)
    (src / "two-walls.sgf").write_text(record(TWO_WALLS))
    (src / "club" / "two-walls-chinese.sgf").write_text(record(TWO_WALLS, komi=7.5, rules="Chinese",
                                                               result="B+2"))
    # Each side fills a point of its own territory next to its wall, then Black resigns.
    (src / "two-walls-resigned.sgf").write_text(record(TWO_WALLS, result="W+R", moves=";B[ch];W[fc]"))
    (src / "broken.sgf").write_text("(;GM[1]SZ[9];B[dd];W[")
    (src / "illegal.sgf").write_text("(;GM[1]SZ[9];B[dd];W[dd])")
    (src / "notes.txt").write_text("not a game")
    return src


def hashes(folder):
    return {p.relative_to(folder): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def report_rows(path):
    with open(path, newline="") as fh:
        return {r["name"]: r for r in csv.DictReader(fh)}


def test_annotated_copies_carry_kgs_marks_the_computed_result_and_a_comment(games, tmp_path):
    before = hashes(games)
    out = tmp_path / "out"
    summary = ann.annotate(games, out, workers=2, progress=False)
    assert hashes(games) == before  # the input is never touched
    assert (summary.count(ann.ANNOTATED), summary.count(ann.FAILED), summary.count(ann.SKIPPED)) == (3, 2, 0)

    copy = sgf.load(out / "two-walls.sgf")
    assert copy.result == "W+13.5"
    # KGS convention: the dead white stone's point is inside Black's marks, and reads back as dead.
    c7 = coords.gtp_to_index("C7", 9)
    assert c7 in copy.territory[coords.BLACK]
    assert copy.marked_dead().sum() == 1 and copy.marked_dead().flat[c7]
    assert coords.gtp_to_index("J1", 9) in copy.territory[coords.WHITE]
    text = (out / "two-walls.sgf").read_text()
    assert "Recorded result: W+13.5" in text and "Uncertain blocks: none" in text

    chinese = sgf.load(out / "club" / "two-walls-chinese.sgf")
    assert chinese.result == "W+16.5" and chinese.rules == "Chinese"

    resigned = sgf.load(out / "two-walls-resigned.sgf")
    assert [m for m in resigned.moves if m[1] is not None] == [
        (coords.BLACK, coords.from_sgf("ch", 9)), (coords.WHITE, coords.from_sgf("fc", 9))]
    text = (out / "two-walls-resigned.sgf").read_text()
    assert resigned.result == "W+R" and "seog: W+13.5 under" in text  # the game's result stays
    assert not (out / "broken.sgf").exists() and not (out / "illegal.sgf").exists()
    assert not list(out.rglob(".*.part"))


def test_a_copy_counted_with_its_own_marks_gives_the_same_result(games, tmp_path):
    out = tmp_path / "out"
    ann.annotate(games, out, workers=1, progress=False)
    for name in ("two-walls.sgf", "club/two-walls-chinese.sgf", "two-walls-resigned.sgf"):
        original = sgf.load(games / name)
        copy = sgf.load(out / name)
        decided = score_game(original)
        marked = score_game(copy, use_markup=True)
        assert marked.result == decided.result
        assert copy.result == (original.result if name == "two-walls-resigned.sgf" else decided.result)
        assert sorted(marked.dead) == sorted(decided.dead)


def test_report_lists_every_game_with_agreement_and_errors(games, tmp_path):
    out = tmp_path / "out"
    summary = ann.annotate(games, out, workers=1, progress=False)
    rows = report_rows(out / ann.REPORT_NAME)
    assert set(rows) == {"two-walls.sgf", "club/two-walls-chinese.sgf", "two-walls-resigned.sgf",
                         "broken.sgf", "illegal.sgf"}
    assert rows["two-walls.sgf"] == {"name": "two-walls.sgf", "status": "annotated", "recorded": "W+13.5",
                                     "result": "W+13.5", "agree": "yes", "uncertain": "0", "error": "",
                                     "finished": "yes", "unfinished": "", "record_fit": "agrees"}
    assert rows["club/two-walls-chinese.sgf"]["agree"] == "no"
    resigned = rows["two-walls-resigned.sgf"]
    assert resigned["agree"] == ""  # a resignation has no count to compare
    assert (resigned["finished"], resigned["unfinished"]) == ("no", "RE[W+R]")
    assert rows["broken.sgf"]["finished"] == ""  # a failed game: not known
    assert rows["broken.sgf"]["status"] == "failed" and "SGF" in rows["broken.sgf"]["error"]
    assert "move 2" in rows["illegal.sgf"]["error"] and "illegal" in rows["illegal.sgf"]["error"]
    lines = "\n".join(summary.lines())
    assert "processed 3, skipped 0 (written before), failed 2" in lines
    assert "agreement with the recorded result: 1 of 2 counted games (50.0%)" in lines
    far = "counted more than 10 points from the recorded result: 1 game"
    assert f"{far} (look at these first): club/two-walls-chinese.sgf" in lines  # W+ on the board for B+2
    assert "points from the recorded result B+2" in (out / "club" / "two-walls-chinese.sgf").read_text()
    assert "failed: broken.sgf" in lines
    assert "not a finished position: 1 game, whose count is an estimate" in lines


def test_rerun_skips_finished_games_and_retries_failed_ones(games, tmp_path):
    out = tmp_path / "out"
    ann.annotate(games, out, workers=1, progress=False)
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*.sgf")}
    again = ann.annotate(games, out, workers=1, progress=False)
    assert (again.count(ann.ANNOTATED), again.count(ann.SKIPPED), again.count(ann.FAILED)) == (0, 3, 2)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.sgf")} == stamps
    rows = report_rows(out / ann.REPORT_NAME)
    # A skipped game keeps what the earlier run found.
    assert rows["two-walls.sgf"]["status"] == "skipped" and rows["two-walls.sgf"]["agree"] == "yes"
    assert "1 of 2 counted games" in "\n".join(again.lines())


def test_an_interrupted_run_leaves_whole_files_and_a_rerun_finishes(games, tmp_path, monkeypatch):
    out = tmp_path / "out"
    real, calls = ann.annotate_bytes, []

    def interrupted(name, data, options=None):
        calls.append(name)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(name, data, options or ann.Options())

    monkeypatch.setattr(ann, "annotate_bytes", interrupted)
    with pytest.raises(KeyboardInterrupt):
        ann.annotate(games, out, workers=1, progress=False)
    monkeypatch.setattr(ann, "annotate_bytes", real)
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.sgf"))
    assert len(written) == 1 and not list(out.rglob(".*.part"))
    assert sgf.load(out / written[0]).result  # whole and readable
    assert len(report_rows(out / ann.REPORT_NAME)) == 2  # the report is written on the way out
    rest = ann.annotate(games, out, workers=1, progress=False)
    assert rest.count(ann.SKIPPED) == 1 and rest.count(ann.ANNOTATED) == 2


def test_a_failed_write_leaves_neither_the_file_nor_its_temporary(tmp_path, monkeypatch):
    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ann.os, "replace", broken_replace)
    with pytest.raises(OSError):
        ann.write_atomic(tmp_path / "game.sgf", b"(;GM[1]SZ[9])")
    assert list(tmp_path.iterdir()) == []


def test_out_inside_or_equal_to_the_input_is_refused(games, tmp_path):
    with pytest.raises(ValueError, match="inside the input folder"):
        ann.annotate(games, games / "annotated", progress=False)
    with pytest.raises(ValueError, match="inside the input folder"):
        ann.annotate(games, games, progress=False)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="not a folder"):
        ann.annotate(games, tmp_path / "file", progress=False)
    assert not (games / "annotated").exists()


def test_tarball_input_gives_the_same_copies_as_the_folder(games, tmp_path):
    tarball = tmp_path / "games.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(games, arcname="games")
    folder_out, tar_out = tmp_path / "from-folder", tmp_path / "from-tar"
    ann.annotate(games, folder_out, workers=1, progress=False)
    summary = ann.annotate(tarball, tar_out, workers=2, progress=False)
    assert summary.count(ann.ANNOTATED) == 3 and summary.count(ann.FAILED) == 2
    for name in ("two-walls.sgf", "club/two-walls-chinese.sgf", "two-walls-resigned.sgf"):
        assert (tar_out / "games" / name).read_bytes() == (folder_out / name).read_bytes()


def test_limit_takes_the_first_names_only(games, tmp_path):
    summary = ann.annotate(games, tmp_path / "out", limit=2, progress=False)
    assert [r.name for r in summary.rows] == ["broken.sgf", "club/two-walls-chinese.sgf"]


def test_rules_option_recounts_every_game(games, tmp_path):
    out = tmp_path / "out"
    ann.annotate(games, out, options=ann.Options(rules="chinese"), progress=False)
    copy = sgf.load(out / "two-walls.sgf")
    assert copy.rules == "chinese" and copy.komi == 6.5 and copy.result == "W+15.5"


def test_use_markup_counts_with_the_files_marks(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    grid = board(TWO_WALLS).grid
    everything_but_black = "".join(f"[{coords.index_to_sgf(i, 9)}]"
                                   for i in (grid.ravel() != coords.BLACK).nonzero()[0])
    (src / "wall-marked-dead.sgf").write_text(record(TWO_WALLS, result="B+76.5", moves="")
                                              .replace(";B[];W[])", f";B[];W[]TB{everything_but_black})"))
    summary = ann.annotate(src, tmp_path / "out", options=ann.Options(use_markup=True), progress=False)
    assert summary.rows[0].result == "B+76.5" and summary.rows[0].agree is True
    plain = ann.annotate(src, tmp_path / "out2", progress=False)
    assert plain.rows[0].result == "W+13.5"



@pytest.mark.parametrize("rules, marked", [("tromp-taylor", []), ("chinese", ["B7", "H6"])])
def test_a_copys_marks_hold_only_the_stones_the_count_takes_off(tmp_path, rules, marked):
    """Issue #7: under Tromp-Taylor no stone is dead, so no mark calls B7 or H6 dead beside an RE
    that counts them; the comment names them as read dead. Chinese rules mark them, as KGS does."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "left-in.sgf").write_text(STONES_LEFT_IN)
    assert cli_main(["annotate", str(src), "--out", str(tmp_path / "out"), "--rules", rules]) == 0
    copy = sgf.load(tmp_path / "out" / "left-in.sgf")
    assert copy.result == "W+7.5"
    dead = sorted(coords.index_to_gtp(int(i), 9) for i in copy.marked_dead().ravel().nonzero()[0])
    assert dead == sorted(marked)
    text = (tmp_path / "out" / "left-in.sgf").read_text()
    assert (f"Note: {LEFT_IN_NOTE}." in text) is (rules == "tromp-taylor")
    recounted = score_game(copy, use_markup=copy.has_markup)  # by its own marks, or none
    assert recounted.result == copy.result and len(recounted.dead) == len(marked)


def test_archive_member_names_that_leave_the_output_folder_are_refused(tmp_path):
    with pytest.raises(ValueError, match="unsafe name"):
        ann.output_path(tmp_path, "../escape.sgf")
    with pytest.raises(ValueError, match="unsafe name"):
        ann.output_path(tmp_path, "/etc/x.sgf")
    assert ann.output_path(tmp_path, "a/b.sgf") == tmp_path / "a" / "b.sgf"


def test_comment_names_uncertain_blocks_with_their_probability():
    score = score_position(Board.from_rows(board(TWO_WALLS).to_rows()), rules="japanese", komi=6.5)
    c7 = coords.gtp_to_index("C7", 9)
    score = dataclasses.replace(score, blocks=[dataclasses.replace(b, doubt="model", p_alive=0.46)
                                               if c7 in b.points else b for b in score.blocks])
    text = annotated.comment(score, "W+13.5")
    assert "Uncertain blocks, check these: C7 (white, 1 stone, dead, p(alive) 0.46)." in text
    assert text.startswith("seog: W+13.5 under japanese rules, komi 6.5.")


def test_dask_local_cluster_gives_the_same_copies(games, tmp_path):
    """Two worker processes, so the tasks and the shipped model travel as they do to a real cluster."""
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local", tmp_path / "dask"
    ann.annotate(games, local, workers=1, progress=False)
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        summary = ann.annotate(games, remote, dask=cluster.scheduler_address, progress=False)
    assert summary.count(ann.ANNOTATED) == 3 and summary.count(ann.FAILED) == 2
    for name in ("two-walls.sgf", "club/two-walls-chinese.sgf", "two-walls-resigned.sgf"):
        assert (remote / name).read_bytes() == (local / name).read_bytes()


def test_cli_prints_the_summary_and_writes_the_report(games, tmp_path, capsys):
    out = tmp_path / "out"
    report = tmp_path / "report.csv"
    code = cli_main(["annotate", str(games), "--out", str(out), "--workers", "2", "--quiet",
                     "--report", str(report)])
    printed = capsys.readouterr().out
    assert code == 1  # two games failed: the summary says how many, the report why
    assert "processed 3, skipped 0 (written before), failed 2" in printed
    assert len(report_rows(report)) == 5


def test_cli_errors_name_the_problem(games, tmp_path, capsys):
    assert cli_main(["annotate", str(games), "--out", str(games / "x")]) == 1
    assert "inside the input folder" in capsys.readouterr().err
    assert cli_main(["annotate", str(games), "--out", str(tmp_path / "o"), "--rules", "french"]) == 1
    assert "unknown rules 'french'" in capsys.readouterr().err
    assert cli_main(["annotate", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 1
    assert "no such file or folder" in capsys.readouterr().err


def test_old_kgs_record_with_an_empty_time_limit_is_annotated():
    # KGS records of 2001 carry TM[] (an empty real): the copy keeps it as written.
    text = record(TWO_WALLS).replace("RU[Japanese]", "RU[Japanese]TM[]PC[KGS]")
    row, data = ann.annotate_bytes("old-kgs.sgf", text.encode())
    assert row.status == ann.ANNOTATED and row.result == "W+13.5", row.error
    copy = sgf.loads(data)
    assert copy.properties.get("PC") == "KGS" and b"TM[]" in data


def test_a_damaged_tarball_is_an_error_naming_it_not_a_traceback(games, tmp_path, capsys):
    tarball = tmp_path / "games.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(games, arcname="games")
    tarball.write_bytes(tarball.read_bytes()[: tarball.stat().st_size // 2])
    assert cli_main(["annotate", str(tarball), "--out", str(tmp_path / "out"), "--quiet"]) == 1
    assert "damaged" in capsys.readouterr().err


def test_a_handicap_game_with_its_stones_in_a_node_of_their_own_keeps_them_in_the_copy():
    """A real KGS handicap game (Chinese, two stones) rewritten with AB in the first node after
    the root, as some editors write it: the copy keeps the stones and reproduces RE by its marks."""
    text = (shared_dir("kgs-2017-q1") / "2017-01-03-2.sgf").read_text(encoding="utf-8")
    game = sgf.loads(text.replace("AB[", ";AB[", 1))
    assert game.handicap == 2 and len(game.setup) == 2
    row, data = ann.annotate_bytes("g.sgf", text.replace("AB[", ";AB[", 1).encode("utf-8"))
    copy = sgf.loads(data)
    assert (copy.board.grid == game.board.grid).all() and copy.handicap == 2
    assert row.agree and score_game(copy, use_markup=True).result == copy.result == "B+2.5"


def test_an_unreadable_file_fails_alone_and_the_run_goes_on(games, tmp_path, monkeypatch):
    """A file that cannot be read (no permission, deleted mid-run) is a failed row, not the end."""
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "two-walls.sgf":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    for workers in (1, 2):
        out = tmp_path / f"out{workers}"
        summary = ann.annotate(games, out, workers=workers, progress=False)
        rows = report_rows(out / ann.REPORT_NAME)
        assert rows["two-walls.sgf"]["error"] == "cannot read the file (Permission denied)"
        assert summary.count(ann.ANNOTATED) == 2 and summary.count(ann.FAILED) == 3
        assert (out / "club/two-walls-chinese.sgf").exists()


def test_no_output_option_can_write_over_an_input(games, tmp_path, capsys):
    source = games / "two-walls.sgf"
    before = source.read_bytes()
    for argv, words in [
        (["annotate", str(games), "--out", str(tmp_path / "o"), "--report", str(source)], "not a game"),
        (["annotate", str(games), "--out", str(tmp_path / "o"), "--report", str(games / "r.csv")],
         "inside the input folder"),
        (["select", str(source), "--out", str(source)], "not a game"),
        (["select", str(games), "--out", str(games / "club" / "s.csv")], "inside the input folder"),
        (["evaluate", str(games), "--csv", str(games / "e.csv")], "inside the input folder"),
        (["evaluate", str(games), "--csv", str(tmp_path / "labels.json")], "not a game, label"),
    ]:
        assert cli_main(argv) == 1, argv
        assert words in capsys.readouterr().err, argv
    assert source.read_bytes() == before and not (games / "r.csv").exists()


# ---- a run that is stopped, rerun or broken keeps its report -----------------------------------

def test_a_suicide_in_a_record_whose_ru_does_not_say_follows_the_rules_given():
    """Black's four stones in the corner take themselves off (move 7): annotating under
    --rules nz counts White's four prisoners; under the default Japanese rules the row fails
    naming the move."""
    record = (b"(;SZ[9]KM[7]RE[W+20]AW[ca][cb][ac][bc][cc];B[aa];W[ee];B[ab];W[ef];B[ba];W[eg];"
              b"B[bb];W[];B[])")
    row, data = ann.annotate_bytes("nz.sgf", record, ann.Options(rules="nz"))
    assert row.status == ann.ANNOTATED and data
    assert sgf.loads(data).board.prisoners[coords.WHITE] == 4
    row, data = ann.annotate_bytes("jp.sgf", record)
    assert row.status == ann.FAILED and data is None
    assert row.error == "move 7 (B B8) is illegal: it is suicide, which japanese rules forbid"


REAL_ANNOTATE_BYTES = ann.annotate_bytes


def start_annotate(source, out, *options):
    """A real ``python -m seog annotate`` on two workers, with Ctrl-C at its default even when
    this process ignores it (a background job of a non-interactive shell does)."""
    return subprocess.Popen(
        [sys.executable, "-m", "seog", "annotate", str(source), "--out", str(out), "--workers", "2",
         "--quiet", *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_a_row(report, proc):
    """Return once the report of the running ``proc`` holds a finished game's row."""
    deadline = time.monotonic() + 120  # only against a hang
    while proc.poll() is None and time.monotonic() < deadline:
        if report.exists() and len(report.read_text().splitlines()) > 1:
            return
        time.sleep(0.02)
    proc.kill()
    pytest.fail("the run ended (or hung) before any row reached the report")


def children(pid):
    """The ids of the processes whose parent is ``pid`` (pool workers), from /proc."""
    return [int(p.name) for p in Path("/proc").iterdir()
            if p.name.isdigit() and process_state(int(p.name), parent=True) == str(pid)]


def process_state(pid, parent=False):
    """The state letter of ``pid`` (or its parent's id), None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    return fields[1] if parent else fields[0]


def copies_and_rows(out):
    written = {p.relative_to(out).as_posix() for p in out.rglob("*.sgf")}
    return written, report_rows(out / ann.REPORT_NAME)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_run_with_the_summary_the_report_and_exit_128_plus_it(tmp_path, signum):
    out = tmp_path / "out"
    proc = start_annotate(shared_dir("kgs-2017-q1"), out)
    wait_for_a_row(out / ann.REPORT_NAME, proc)
    proc.send_signal(signum)
    printed, errors = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, errors
    written, rows = copies_and_rows(out)
    assert f"processed {len(written)}, skipped 0 (written before), failed 0" in printed
    assert "rerun to continue" in errors and "Traceback" not in errors
    assert set(rows) == written and all(rows[n]["status"] == "annotated" and rows[n]["result"] for n in written)
    assert not list(out.rglob(".*.part"))


def test_sighup_stops_the_run_as_ctrl_c_does(games, tmp_path, monkeypatch):
    """A dropped ssh connection: the signal is sent to this very process while a game is scored."""
    if signal.getsignal(signal.SIGHUP) != signal.SIG_DFL:
        pytest.skip("SIGHUP is ignored here (nohup), and so left alone by annotate")

    def hangs_up(name, data, options=ann.Options()):
        if name == "illegal.sgf":
            os.kill(os.getpid(), signal.SIGHUP)
        return REAL_ANNOTATE_BYTES(name, data, options)

    monkeypatch.setattr(ann, "annotate_bytes", hangs_up)
    out = tmp_path / "out"
    with pytest.raises(ann.Interrupted) as stop:
        ann.annotate(games, out, workers=1, progress=False)
    assert stop.value.signum == signal.SIGHUP and signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
    assert [r.name for r in stop.value.summary.rows] == ["broken.sgf", "club/two-walls-chinese.sgf"]
    assert set(report_rows(out / ann.REPORT_NAME)) == {"broken.sgf", "club/two-walls-chinese.sgf"}


def test_sigterm_just_after_a_copy_and_its_row_keeps_the_row_in_the_report(games, tmp_path, monkeypatch):
    """A scheduler's kill that lands right after a game's row (and copy, when it has one) is
    written, before the run counts the game, and reaches another thread of the process (a process
    pool's, tqdm's): the run stops after that game, row and count kept. The test waits until the
    signal has reached the process (its wakeup byte), then has Python run its handler there and
    then, so that where the handler runs does not depend on when the other thread got it."""
    real_keep = ann._keep
    done = threading.Event()
    other = threading.Thread(target=done.wait)
    arrived, wakeup = socket.socketpair()
    wakeup.setblocking(False)

    def keep_then_killed(out, row, data, append):
        kept = real_keep(out, row, data, append)
        signal.pthread_kill(other.ident, signal.SIGTERM)
        assert select.select([arrived], [], [], 10)[0], "the signal never reached the process"
        signal.signal(signal.SIGUSR1, signal.getsignal(signal.SIGUSR1))  # runs the handlers pending now
        return kept

    monkeypatch.setattr(ann, "_keep", keep_then_killed)
    out = tmp_path / "out"
    other.start()
    before = signal.set_wakeup_fd(wakeup.fileno(), warn_on_full_buffer=False)
    try:
        with pytest.raises(ann.Interrupted) as stop:
            ann.annotate(games, out, workers=1, progress=False)
    finally:
        signal.set_wakeup_fd(before)
        done.set()
        other.join()
        arrived.close()
        wakeup.close()
    assert stop.value.signum == signal.SIGTERM
    assert [r.name for r in stop.value.summary.rows] == ["broken.sgf"]
    assert set(report_rows(out / ann.REPORT_NAME)) == {"broken.sgf"}


def test_kill_9_leaves_whole_files_a_copy_for_every_row_and_no_worker_behind(tmp_path):
    """A copy is renamed into place before its row is added: a kill between the two leaves a copy
    without its row, which the rerun scores again (tests/test_annotate_faults.py)."""
    out = tmp_path / "out"
    proc = start_annotate(shared_dir("kgs-2017-q1"), out)
    wait_for_a_row(out / ann.REPORT_NAME, proc)
    workers = children(proc.pid)
    proc.kill()
    proc.wait()
    assert len(workers) == 2
    written, rows = copies_and_rows(out)
    assert rows and set(rows) <= written and all(r["status"] == "annotated" and r["result"] for r in rows.values())
    names = sorted(p.name for p in shared_dir("kgs-2017-q1").glob("*.sgf"))
    _, todo = ann.plan(names, out, ann.read_report(out / ann.REPORT_NAME), {})
    assert set(todo) == set(names) - set(rows)  # every game without its row, its copy there or not
    deadline = time.monotonic() + 60  # only against a hang: orphaned workers end themselves
    while any(process_state(w) not in (None, "Z") for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(process_state(w) in (None, "Z") for w in workers)


def test_a_rerun_on_fewer_names_or_another_input_keeps_the_other_rows(games, tmp_path):
    out = tmp_path / "out"
    ann.annotate(games, out, progress=False)
    again = ann.annotate(games, out, limit=2, progress=False)
    assert len(again.rows) == 2
    rows = report_rows(out / ann.REPORT_NAME)
    assert len(rows) == 5 and rows["two-walls.sgf"]["agree"] == "yes"
    other = tmp_path / "other"
    other.mkdir()
    (other / "more.sgf").write_text(record(TWO_WALLS))
    ann.annotate(other, out, progress=False)
    rows = report_rows(out / ann.REPORT_NAME)
    assert len(rows) == 6 and rows["more.sgf"]["result"] == rows["two-walls.sgf"]["result"] == "W+13.5"


@pytest.mark.parametrize("damage", [b"\xff\xfe", b"title,author\nGo Proverbs,anonymous\n"])
def test_a_damaged_report_is_kept_aside_and_a_fresh_one_started(games, tmp_path, damage):
    out = tmp_path / "out"
    ann.annotate(games, out, limit=1, progress=False)
    report = out / ann.REPORT_NAME
    report.write_bytes(report.read_bytes() + damage if damage.startswith(b"\xff") else damage)
    before = report.read_bytes()
    summary = ann.annotate(games, out, progress=False)
    aside = out / (ann.REPORT_NAME + ".damaged")
    assert aside.read_bytes() == before
    assert f"kept as {aside}; a fresh report is started" in "\n".join(summary.lines())
    assert len(report_rows(report)) == 5



def dies_in_a_worker(name, data, options=ann.Options()):
    """``annotate_bytes``, but the worker given 'dies.sgf' is killed, as the out-of-memory killer would."""
    if name == "dies.sgf" and multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    return REAL_ANNOTATE_BYTES(name, data, options)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="workers must inherit the patch")
@pytest.mark.parametrize("chunk", [1, 3])
def test_a_worker_that_dies_fails_its_games_and_the_run_goes_on_in_a_fresh_pool(tmp_path, monkeypatch, chunk):
    """A game a task at first, several when the run is long (``pool_chunk``): the games of the
    dead worker's tasks fail, the ones after them are scored."""
    src = tmp_path / "in"
    src.mkdir()
    games = 12 * chunk  # more than the 8 tasks kept in flight
    for name in ["dies", *(f"game-{i:02}" for i in range(games))]:
        (src / f"{name}.sgf").write_text(record(TWO_WALLS))
    monkeypatch.setattr(ann, "annotate_bytes", dies_in_a_worker)
    monkeypatch.setattr(ann, "pool_chunk", lambda games, workers: chunk)
    summary = ann.annotate(src, tmp_path / "out", workers=2, progress=False)
    rows = {r.name: r for r in summary.rows}
    assert rows["dies.sgf"].status == ann.FAILED and rows["dies.sgf"].error == ann.WORKER_DIED
    assert all(r.status == ann.ANNOTATED or r.error == ann.WORKER_DIED for r in rows.values())
    assert len(rows) == games + 1 and summary.count(ann.ANNOTATED) >= 1  # the games after the death were scored
    monkeypatch.setattr(ann, "annotate_bytes", REAL_ANNOTATE_BYTES)
    rest = ann.annotate(src, tmp_path / "out", workers=2, progress=False)
    assert rest.count(ann.FAILED) == 0 and rest.count(ann.ANNOTATED) == summary.count(ann.FAILED)


def model_loaded_in_this_process() -> bool:
    from seog.scoring import score

    return score._default_loaded and score._default_model is not None


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="only forked workers inherit")
def test_pool_workers_start_with_the_parents_model_instead_of_loading_their_own(monkeypatch):
    from seog.scoring import score

    monkeypatch.setattr(score, "_default_loaded", False)
    monkeypatch.setattr(score, "_default_model", None)
    ann._preload(ann.Options())
    pool = ann._new_pool(1)
    try:
        assert pool.submit(model_loaded_in_this_process).result(timeout=60)
    finally:
        pool.shutdown()


def test_a_long_run_hands_a_worker_several_games_a_task_and_a_short_one_one():
    assert [ann.pool_chunk(games, 2) for games in (5, 31, 64, 100, 500, 8270)] == [1, 1, 2, 3, 8, 8]
    assert ann.pool_chunk(500, 16) == 1


def test_exit_code_is_1_when_a_game_failed_and_0_when_every_game_is_written(games, tmp_path, capsys):
    good = tmp_path / "good"
    good.mkdir()
    (good / "a.sgf").write_text(record(TWO_WALLS))
    assert cli_main(["annotate", str(games), "--out", str(tmp_path / "o1"), "--quiet"]) == 1
    assert cli_main(["annotate", str(good), "--out", str(tmp_path / "o2"), "--quiet"]) == 0
    assert cli_main(["annotate", str(good), "--out", str(tmp_path / "o2"), "--quiet"]) == 0  # written before
    assert "failed 0" in capsys.readouterr().out


def test_an_input_without_games_and_a_zip_are_errors(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a game")
    assert cli_main(["annotate", str(empty), "--out", str(tmp_path / "o"), "--quiet"]) == 1
    assert "no SGF games found" in capsys.readouterr().err and not (tmp_path / "o").exists()
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as zf:
        zf.writestr("a.sgf", record(TWO_WALLS))
    assert cli_main(["annotate", str(tmp_path / "games.zip"), "--out", str(tmp_path / "o"), "--quiet"]) == 1
    assert "zip archives are not supported; use a folder or .tar.gz/.tar.xz" in capsys.readouterr().err


def test_workers_are_capped_at_the_games_to_do(games, tmp_path):
    summary = ann.annotate(games, tmp_path / "out", workers=16, limit=2, progress=False)
    assert summary.workers == 2 and "2 workers" in summary.lines()[0]


def test_tar_links_duplicates_and_clashing_names_are_reported_not_lost(tmp_path):
    text = record(TWO_WALLS).encode()
    path = tmp_path / "games.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        def add(name, data=b"", **kind):
            info = tarfile.TarInfo(name)
            for key, value in kind.items():
                setattr(info, key, value)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        add("g/a.sgf", text)
        add("g/hard.sgf", type=tarfile.LNKTYPE, linkname="g/a.sgf")
        add("g/link.sgf", type=tarfile.SYMTYPE, linkname="a.sgf")
        add("g/dup.sgf", b"(;GM[1]SZ[9];B[dd];W[")  # replaced by the next member of its name
        add("g/dup.sgf", text)
        add("g/./c//d.sgf", text)
        add("g/c/d.sgf", text)
    out = tmp_path / "out"
    summary = ann.annotate(path, out, workers=1, progress=False)
    status = {r.name: r.status for r in summary.rows}
    first = f"{'g/dup.sgf'} (member 1 of that name)"
    assert status == {"g/a.sgf": "annotated", "g/hard.sgf": "annotated", "g/dup.sgf": "annotated",
                      "g/c/d.sgf": "annotated", "g/link.sgf": "skipped", first: "skipped",
                      "g/./c//d.sgf": "skipped"}
    assert sgf.load(out / "g/hard.sgf").result == sgf.load(out / "g/dup.sgf").result == "W+13.5"
    lines = "\n".join(summary.lines())
    assert "skipped 0 (written before) and 3 not read (see below)" in lines
    assert "skipped: g/link.sgf: a symbolic link" in lines and "same file as the copy of g/c/d.sgf" in lines
    assert len(report_rows(out / ann.REPORT_NAME)) == 7


def test_two_runs_never_write_into_one_folder(games, tmp_path):
    from seog import folders

    out = tmp_path / "out"
    with folders.claimed(out, "annotate"):  # a run writing there now
        with pytest.raises(ValueError, match="another seog annotate is writing there"):
            ann.annotate(games, out, progress=False, limit=1)
    summary = ann.annotate(games, out, progress=False)
    assert summary.count(ann.ANNOTATED) >= 3 and not (out / ".seog-annotate.lock").exists()


def test_workers_leave_the_parents_sigterm_handler_behind():
    """Forked workers inherit the parent's handler, which raises in the worker and can leave the
    pool's queue locked when the whole process group gets SIGTERM (timeout, systemctl, scancel)."""
    import signal

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGTERM, ann._raise_interrupted)  # as the parent has it during a run
        ann._start_worker()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


# ---- a cut tarball, a name stored twice, a signal before the games start, a full disk ------------

def varied_games(count):
    """``count`` good records told apart by a name of hashed hex digits, so that a compressed
    tarball of them has its members spread over its bytes (identical records compress to nothing)."""
    return {f"g/game-{i:02}.sgf": record(TWO_WALLS).replace(
        "(;GM[1]", f"(;GM[1]GN[{hashlib.sha256(str(i).encode()).hexdigest() * 4}]").encode()
        for i in range(count)}


def tarball(path, games, mode):
    with tarfile.open(path, mode) as tar:
        for name, data in games.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("mode, workers", [("w:gz", 1), ("w:xz", 2)], ids=["tar.gz", "tar.xz-2-workers"])
def test_a_cut_tarball_is_annotated_up_to_the_damage_then_named_with_exit_1(tmp_path, capsys, mode, workers):
    games = varied_games(12)
    suffix = mode.replace("w:", ".tar.")
    whole = tarball(tmp_path / f"whole{suffix}", games, mode)
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 6 // 10])  # as an interrupted download leaves it
    out = tmp_path / "out"
    argv = ["annotate", str(cut), "--out", str(out), "--quiet", "--workers", str(workers)]
    assert cli_main(argv) == 1
    printed, errors = capsys.readouterr()
    message = f"seog annotate: error: {cut}: the archive is cut short after "
    assert message in errors and "(damaged or truncated)" in errors and "Traceback" not in errors
    read = int(errors.split(message)[1].split(" record(s)")[0])
    assert 0 < read < 12
    rows = report_rows(out / ann.REPORT_NAME)
    assert sorted(rows) == sorted(games)[:read]  # every game before the damage, in stored order
    annotated = {n for n, r in rows.items() if r["status"] == "annotated"}
    assert len(annotated) >= read - 1 and f"processed {len(annotated)}," in printed
    for name in set(rows) - annotated:  # the member the damage falls in
        assert "the tarball is damaged or cut short inside it" in rows[name]["error"]
    assert {p.relative_to(out).as_posix() for p in out.rglob("*.sgf")} == annotated
    assert cli_main(argv) == 1 and message + f"{read} record(s)" in capsys.readouterr().err  # a rerun says so too
    assert cli_main(["annotate", str(whole), "--out", str(out), "--quiet"]) == 0  # the whole archive: the rest
    rows = report_rows(out / ann.REPORT_NAME)
    assert sorted(rows) == sorted(games) and all(r["status"] in ("annotated", "skipped") for r in rows.values())


def test_a_name_stored_again_by_tar_append_is_read_from_its_last_member_by_annotate_and_select(tmp_path):
    path = tmp_path / "games.tar"
    older, newer = record(TWO_WALLS, result="B+R"), record(TWO_WALLS, result="W+13.5")
    tarball(path, {"g/game.sgf": older.encode(), "g/other.sgf": older.encode()}, "w")
    tarball(path, {"g/game.sgf": newer.encode()}, "a")  # as tar --append adds a newer version
    out = tmp_path / "out"
    summary = ann.annotate(path, out, progress=False)
    first = "g/game.sgf (member 1 of that name)"
    rows = {r.name: r for r in summary.rows}
    assert rows["g/game.sgf"].recorded == "W+13.5" and rows["g/game.sgf"].agree  # the newer version
    assert rows[first].status == ann.SKIPPED and "replaced by a later one" in rows[first].error
    assert "only the last is read" in "\n".join(summary.lines())
    assert sgf.load(out / "g/game.sgf").recorded == "W+13.5"
    from seog.datasets.select import select

    records = {r.name: r for r in select(path)}  # select reads the same member and names the other
    assert records["g/game.sgf"].kept and records["g/game.sgf"].data == newer.encode()
    assert records[first].reason == "unreadable" and records[first].detail == rows[first].error


def interrupt_once(monkeypatch, module, name, when=lambda *args: True):
    """Make ``module.name`` raise KeyboardInterrupt (Ctrl-C) at its first call for which ``when`` holds."""
    real, done = getattr(module, name), []

    def interrupted(*args, **kwargs):
        if not done and when(*args):
            done.append(args)
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, interrupted)
    return done


@pytest.mark.parametrize("where", ["listing", "first report"])
def test_ctrl_c_while_listing_or_writing_the_first_report_stops_as_later(games, tmp_path, monkeypatch, capsys, where):
    out = tmp_path / "out"
    ann.annotate(games, out, limit=1, progress=False)  # a report from an earlier run
    before = (out / ann.REPORT_NAME).read_bytes()
    if where == "listing":
        done = interrupt_once(monkeypatch, ann.archive, "listing")
    else:
        done = interrupt_once(monkeypatch, ann.os, "replace", lambda src, dst: Path(dst).name == ann.REPORT_NAME)
    assert cli_main(["annotate", str(games), "--out", str(out), "--quiet", "--workers", "1"]) == 130
    assert done
    errors = capsys.readouterr().err
    assert "interrupted (SIGINT): the copies written and the report are kept; rerun to continue" in errors
    assert not list(out.rglob(".*.part")) and not (out / ".seog-annotate.lock").exists()
    assert (out / ann.REPORT_NAME).read_bytes() == before  # whole, with the earlier run's row


SIGTERM_AT = """
import os, signal, sys
from pathlib import Path

from seog.cli import main
from seog.datasets import archive

where, real = sys.argv[1], {"listing": archive.listing, "replace": os.replace}


def listing(source, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)
    return real["listing"](source, **kwargs)


def replace(src, dst):  # the report's temporary file is written: SIGTERM before its rename
    if Path(dst).name == "annotate-report.csv" and "sent" not in real:
        real["sent"] = True
        os.kill(os.getpid(), signal.SIGTERM)
    return real["replace"](src, dst)


archive.listing, os.replace = (listing, real["replace"]) if where == "listing" else (real["listing"], replace)
sys.exit(main(["annotate", *sys.argv[2:], "--quiet", "--workers", "1"]))
"""


@pytest.mark.parametrize("where", ["listing", "first report"])
def test_sigterm_while_listing_or_writing_the_first_report_stops_as_later(games, tmp_path, where):
    """A real SIGTERM to a real process: before the run's handlers were set, it died on the spot,
    silent, and left the report's temporary file behind."""
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", SIGTERM_AT, where, str(games), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    assert "interrupted (SIGTERM): the copies written and the report are kept; rerun to continue" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists() if where == "listing" else not list(out.rglob(".*.part"))


class FillingDisk:
    """``open`` for the annotate module on a disk that fills up at its ``room``-th write: that
    write puts down half its bytes, then it and every later write raise ENOSPC."""

    def __init__(self, room):
        self.room, self.writes = room, 0

    def __call__(self, path, mode="r", *args, **kwargs):
        return Filling(self, open(path, mode, *args, **kwargs))


class Filling:
    def __init__(self, disk, fh):
        self.disk, self.fh = disk, fh

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.close()

    def __getattr__(self, name):
        return getattr(self.fh, name)

    def write(self, data):
        self.disk.writes += 1
        if self.disk.writes < self.disk.room:
            return self.fh.write(data)
        if self.disk.writes == self.disk.room:
            self.fh.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("room, full", [(4, "b.sgf"), (5, ann.REPORT_NAME)], ids=["copy", "report"])
def test_a_full_disk_stops_the_run_at_once_leaving_whole_files_and_one_message(tmp_path, monkeypatch, capsys,
                                                                               room, full):
    """Writes: the report, then each game's copy and row. The 4th is b.sgf's copy, the 5th its row."""
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    for name in "abcd":
        (src / f"{name}.sgf").write_text(record(TWO_WALLS))
    scored = []
    monkeypatch.setattr(ann, "annotate_bytes", lambda name, *a: scored.append(name) or REAL_ANNOTATE_BYTES(name, *a))
    monkeypatch.setattr(ann, "open", FillingDisk(room), raising=False)
    assert cli_main(["annotate", str(src), "--out", str(out), "--quiet", "--workers", "1"]) == 1
    printed, errors = capsys.readouterr()
    assert errors == f"seog annotate: error: disk full writing {out / full}: 1 game written, rerun to continue\n"
    assert "processed 1, skipped 0 (written before), failed 0" in printed
    assert scored == ["a.sgf", "b.sgf"]  # the run stopped at the first full write, not game after game
    assert sorted(p.name for p in out.iterdir()) == ["a.sgf", ann.REPORT_NAME]  # no half copy, no .part
    report = (out / ann.REPORT_NAME).read_bytes()
    assert report.endswith(b"\n") and set(report_rows(out / ann.REPORT_NAME)) == {"a.sgf"}  # no torn row
    monkeypatch.setattr(ann, "open", open, raising=False)  # room again
    assert cli_main(["annotate", str(src), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    assert {n: r["status"] for n, r in report_rows(out / ann.REPORT_NAME).items()} == {
        "a.sgf": "skipped", "b.sgf": "annotated", "c.sgf": "annotated", "d.sgf": "annotated"}


def test_seog_score_of_a_copy_shows_the_players_result_as_its_json_does(tmp_path, capsys):
    """Issue #7: the text and the SVG of a copy seog wrote said 'recorded:' with seog's own RE
    (W+13.5), while --json's recorded_result was the players' B+30."""
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "a.sgf").write_text(record(TWO_WALLS, result="B+30"))
    assert cli_main(["annotate", str(src), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    picture = tmp_path / "a.svg"
    capsys.readouterr()
    assert cli_main(["score", str(out / "a.sgf"), "--color", "never", "--svg", str(picture)]) == 0
    assert "Result: W+13.5   (recorded: B+30)" in capsys.readouterr().out
    assert "(recorded: B+30)" in picture.read_text()
    assert cli_main(["score", str(out / "a.sgf"), "--json"]) == 0
    assert '"recorded_result": "B+30"' in capsys.readouterr().out


def refusing(real, errnum, where):
    """A stand-in for ``real`` (``open``, ``Path.mkdir``) that fails with ``errnum`` on ``where``,
    as the disk does, and does the real thing elsewhere."""
    def fail(path, *args, **kwargs):
        if Path(path) == where:
            raise OSError(errnum, os.strerror(errnum), str(path))
        return real(path, *args, **kwargs)
    return fail


@pytest.mark.parametrize("errnum, what, disk", [
    (errno.ENOSPC, "lock", "disk full"), (errno.EROFS, "lock", "read-only file system"),
    (errno.ENOSPC, "out", "disk full"), (errno.EROFS, "out", "read-only file system"),
    (errno.EDQUOT, "out", "disk quota exceeded")])
def test_a_full_or_read_only_disk_where_the_run_starts_is_the_disk_full_message(tmp_path, monkeypatch, capsys,
                                                                              errnum, what, disk):
    """The lock file and --out itself are the run's first writes: they failed as a bare OSError."""
    from seog import folders

    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "a.sgf").write_text(record(TWO_WALLS))
    where = out / ".seog-annotate.lock" if what == "lock" else out
    if what == "lock":
        monkeypatch.setattr(folders, "open", refusing(open, errnum, where), raising=False)
    else:
        monkeypatch.setattr(Path, "mkdir", refusing(Path.mkdir, errnum, where))
    scored = []
    monkeypatch.setattr(ann, "annotate_bytes", lambda name, *a: scored.append(name) or REAL_ANNOTATE_BYTES(name, *a))
    assert cli_main(["annotate", str(src), "--out", str(out), "--quiet", "--workers", "1"]) == 1
    printed, errors = capsys.readouterr()
    assert errors == f"seog annotate: error: {disk} writing {where}: 0 games written, rerun to continue\n"
    assert scored == [] and printed == ""
    assert not where.exists() and not (out.exists() and any(out.iterdir()))  # nothing written


def test_an_out_folder_seog_may_not_write_in_is_named(tmp_path, monkeypatch, capsys):
    from seog import folders

    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "a.sgf").write_text(record(TWO_WALLS))
    monkeypatch.setattr(folders, "open", refusing(open, errno.EACCES, out / ".seog-annotate.lock"), raising=False)
    assert cli_main(["annotate", str(src), "--out", str(out), "--quiet", "--workers", "1"]) == 1
    assert capsys.readouterr().err == f"seog annotate: error: --out {out}: no permission to write there\n"


@pytest.mark.parametrize("option", ["--out", "--report"])
def test_an_out_or_report_under_a_file_is_one_line_naming_it_before_any_game(tmp_path, monkeypatch, capsys, option):
    """Issue #7: it was Python's '[Errno 20] Not a directory: ...', the report's only after the lock."""
    src, afile = tmp_path / "in", tmp_path / "afile"
    src.mkdir()
    (src / "a.sgf").write_text(record(TWO_WALLS))
    afile.write_text("")
    scored = []
    monkeypatch.setattr(ann, "annotate_bytes", lambda name, *a: scored.append(name) or REAL_ANNOTATE_BYTES(name, *a))
    out, report = (afile / "out", None) if option == "--out" else (tmp_path / "out", afile / "r.csv")
    args = ["annotate", str(src), "--out", str(out), "--quiet", "--workers", "1"]
    assert cli_main(args + (["--report", str(report)] if report else [])) == 1
    printed, errors = capsys.readouterr()
    assert errors == f"seog annotate: error: {option} {report or out}: cannot write ({afile} is not a folder)\n"
    assert scored == [] and printed == ""
