"""The selector keeps finished counted games and names why it drops the others."""

import io
import string
import tarfile

import pytest

from conftest import shared_dir
from seog.cli import main
from seog.datasets.labels import gnugo_available
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


def wide_wall(size: int = 21) -> bytes:
    """The same wall on a bigger board (Black on column J, White on K, White's C19 dead), marked;
    GNU Go plays on 19x19 at most."""
    last = string.ascii_lowercase[size - 1]
    black = "".join(f"[j{c}]" for c in string.ascii_lowercase[:size])
    white = "".join(f"[k{c}]" for c in string.ascii_lowercase[:size])
    return (f"(;GM[1]FF[4]SZ[{size}]KM[6.5]RU[Japanese]RE[W+26.5]AB{black}AW{white}[cc]"
            f";B[];W[]TB[aa:i{last}]TW[la:{last}{last}])").encode()


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


def test_a_suicide_is_dropped_where_the_records_rules_forbid_it():
    # White's A9 takes off its own stone: legal under New Zealand rules, not Japanese.
    moves = b";B[ba];W[ii];B[ab];W[aa];B[];W[])"
    rec = judge("j.sgf", b"(;SZ[9]RU[Japanese]RE[B+1.5]" + moves)
    assert rec.reason == "illegal move" and "W A9" in rec.detail and "suicide" in rec.detail
    assert judge("nz.sgf", b"(;SZ[9]RU[NZ]RE[B+1.5]" + moves).kept


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


def test_cli_out_under_a_file_is_one_line_naming_it(tmp_path, capsys):
    """Issue #7: it was Python's '[Errno 17] File exists: ...', naming neither --out nor why."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "ok.sgf").write_bytes(wall())
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "sel.csv"
    assert main(["select", str(tmp_path / "games"), "--out", str(out), "--quiet"]) == 1
    assert capsys.readouterr().err == f"seog select: error: --out {out}: cannot write ({tmp_path / 'afile'} is not a folder)\n"


def test_regression_games_keep_all_but_the_ones_with_variations():
    records = list(select(shared_dir("gnugo-regression-games")))
    kept, dropped = tally(records)
    assert (kept, dict(dropped)) == (133, {"variations": 4})
    assert all(r.marked for r in records if r.kept)


def _kgs_tarball(path, games: int = 40) -> None:
    folder = shared_dir("kgs-2017-q1")
    _tarball(path, {f"kgs/{p.name}": p.read_bytes() for p in sorted(folder.glob("*.sgf"))[:games]})


def test_truncated_tarball_reports_the_games_before_the_cut(tmp_path, capsys):
    whole = tmp_path / "kgs.tar.gz"
    _kgs_tarball(whole)
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])  # as head -c does
    out = tmp_path / "sel.csv"
    assert main(["select", str(cut), "--out", str(out), "--quiet"]) == 1
    captured = capsys.readouterr()
    read = int(captured.out.split(" records")[0])
    inside = "unreadable                1   e.g. kgs/" in captured.out  # the record the cut falls in, named
    assert not inside or "the tarball is damaged or cut short inside it" in captured.out
    assert 0 < read < 40 and f"kept {read - inside} " in captured.out  # every kgs-2017-q1 game is a counted one
    assert f"{cut}: the archive is cut short after {read} record(s) (damaged or truncated)" in captured.err
    assert len(out.read_text().splitlines()) == read + 1


def test_tarball_of_noise_is_a_one_line_error(tmp_path, capsys):
    noise = tmp_path / "noise.tar.gz"
    noise.write_bytes(bytes(range(256)) * 4)
    assert main(["select", str(noise), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"seog select: error: {noise}: cannot read the archive") and len(err.splitlines()) == 1


@pytest.mark.skipif(not gnugo_available(), reason="GNU Go is not installed")
def test_gtp_teacher_skips_a_21x21_game_gnugo_cannot_load(tmp_path, capsys):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "wall.sgf").write_bytes(wall())
    (tmp_path / "g" / "wide.sgf").write_bytes(wide_wall())
    assert main(["select", str(tmp_path / "g"), "--sizes", "9,21", "--gtp-teacher", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "kept 2 (2 with dead-stone marks)" in text
    assert "teacher gtp: 1 kept games labelled, 1 consistent with RE (100.0%), 1 not answered" in text
    assert "skipped wide.sgf: gnugo cannot load it (cannot load 'wide.sgf')" in text
