"""The selector keeps finished counted games and names why it drops the others."""

import io
import tarfile

import pytest

from conftest import shared_dir
from seog.cli import main
from seog.datasets.select import judge, select, tally

# Black's wall on column E against White's on column F; a lone white stone inside Black's side
# (C7) is dead and marked so by TB. Japanese count: Black 36 + 1 prisoner, White 27 + 6.5 -> B+3.5.
WALL = """(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]RE[{re}]
AB[ea][eb][ec][ed][ee][ef][eg][eh][ei]
AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][cc]
;B[tt];W[tt]{marks})"""
MARKS = "TB[aa:di]TW[ga:ii]"


def wall(re="B+3.5", marks=MARKS) -> bytes:
    return WALL.format(re=re, marks=marks).encode()


def test_counted_game_with_marks_is_kept_with_its_dead_stone():
    rec = judge("wall.sgf", wall())
    assert rec.kept and rec.reason == ""
    assert rec.dead == ["cc"]
    assert (rec.size, rec.rules, rec.komi, rec.result) == (9, "Japanese", 6.5, "B+3.5")


def test_counted_game_without_marks_is_kept_unlabelled():
    rec = judge("wall.sgf", wall(marks=""))
    assert rec.kept and not rec.marked and rec.dead is None


@pytest.mark.parametrize("re, reason", [("W+Resign", "resignation"), ("B+R", "resignation"),
                                        ("W+Time", "time loss"), ("B+F", "forfeit"), ("", "no result"),
                                        ("Void", "result not a count"), ("W+?", "result not a count")])
def test_games_not_scored_by_counting_are_dropped(re, reason):
    assert judge("g.sgf", wall(re=re)).reason == reason


def test_jigo_is_a_count():
    assert judge("g.sgf", wall(re="0")).kept


def test_variations_are_dropped():
    data = b"(;SZ[9]KM[6.5]RE[B+3.5];B[ee](;W[cc])(;W[gg]))"
    assert judge("v.sgf", data).reason == "variations"


def test_illegal_move_is_dropped_with_the_move_named():
    data = b"(;SZ[9]RE[B+1.5];B[ee];W[ee])"
    rec = judge("bad.sgf", data)
    assert rec.reason == "illegal move" and "E5" in rec.detail


def test_unreadable_and_wrong_size():
    assert judge("x.sgf", b"not sgf at all").reason == "unreadable"
    rec = judge("s.sgf", b"(;SZ[7]RE[B+1.5];B[dd])")
    assert rec.reason == "wrong size" and rec.detail == "7x7"
    assert judge("s.sgf", b"(;SZ[7]RE[B+1.5];B[dd])", sizes=(7,)).kept


def _tarball(path, files):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_select_reads_a_tarball_and_tallies_reasons(tmp_path):
    archive = tmp_path / "games.tar.gz"
    _tarball(archive, {"a/1.sgf": wall(), "a/2.sgf": wall(re="W+Resign"), "a/3.sgf": wall(re="B+T"),
                       "a/readme.txt": b"not a game"})
    kept, dropped = tally(select(archive))
    assert kept == 1 and dropped == {"resignation": 1, "time loss": 1}


def test_cli_writes_csv_and_reports_drops(tmp_path, capsys):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "ok.sgf").write_bytes(wall())
    (tmp_path / "games" / "resigned.sgf").write_bytes(wall(re="B+Resign"))
    out = tmp_path / "sel.csv"
    assert main(["select", str(tmp_path / "games"), "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "kept 1 (1 with dead-stone marks), dropped 1" in text and "resignation" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and lines[0].startswith("name,kept,reason")
    assert any(line.startswith("ok.sgf,1,") and line.endswith(",1,cc") for line in lines)


def test_cli_teacher_column_is_checked_against_the_result(tmp_path, capsys):
    import gzip
    import json
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "wall.sgf").write_bytes(wall(marks=""))
    teacher = tmp_path / "t.jsonl.gz"
    with gzip.open(teacher, "wt") as fh:
        fh.write(json.dumps({"name": "wall", "katago_dead": ["cc"]}) + "\n")
    out = tmp_path / "sel.csv"
    assert main(["select", str(tmp_path / "g"), "--teacher", f"katago={teacher}", "--out", str(out),
                 "--quiet"]) == 0
    assert "teacher katago: 1 kept games labelled, 1 consistent" in capsys.readouterr().out
    assert "B+3.5,1,0.0" in out.read_text()


def test_cli_error_on_missing_archive(tmp_path, capsys):
    assert main(["select", str(tmp_path / "nothing")]) == 1
    assert "no such file or folder" in capsys.readouterr().err


def test_regression_games_keep_all_but_the_ones_with_variations():
    records = list(select(shared_dir("gnugo-regression-games")))
    kept, dropped = tally(records)
    assert (kept, dict(dropped)) == (133, {"variations": 4})
    assert all(r.marked for r in records if r.kept)
