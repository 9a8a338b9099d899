"""Evaluation: figures against the truth, the ceiling, the engine side by side, the dev-set readers."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from test_select import wall, wide_wall

from conftest import shared_dir
from seog.cli import main
from seog.datasets import devsets
from seog.datasets import evaluate as ev
from seog.datasets.labels import gnugo_available, mask_from_sgf


def _folder(tmp_path, **games):
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    for name, data in games.items():
        (folder / f"{name}.sgf").write_bytes(data)
    return folder


def test_devset_reads_marks_and_skips_unlabelled(tmp_path):
    positions, skipped = devsets.read(_folder(tmp_path, wall=wall(), bare=wall(marks="")))
    assert [p.name for p in positions] == ["wall"] and [s.name for s in skipped] == ["bare"]
    assert positions[0].dead.sum() == 1 and positions[0].result == "B+3.5"


def test_compare_counts_wrong_blocks_and_stones(tmp_path):
    (p,), _ = devsets.read(_folder(tmp_path, wall=wall()))
    assert ev.compare(p, p.dead)[:4] == (3, 0, 19, 0)
    # Calling Black's nine-stone wall dead as well: one more block and nine stones wrong.
    guess = p.dead | (p.board.grid == 1)
    blocks, wrong, stones, wrong_stones, listed = ev.compare(p, guess)
    assert (blocks, wrong, stones, wrong_stones) == (3, 1, 19, 9)
    assert listed == ["ea:9alive"]


def test_evaluate_gives_the_ceiling_and_scorer_figures(tmp_path):
    # The same wall with a wrong RE: the marks cannot reproduce it.
    positions, _ = devsets.read(_folder(tmp_path, wall=wall(), off=wall(re="W+0.5")))
    rows, _ = ev.evaluate(positions, model=None)
    assert [r.ceiling for r in rows] == [False, True]  # 'off' sorts first
    s = ev.summary(rows, "seog")
    assert s["positions"] == 2 and s["ceiling"] == 0.5 and s["with_result"] == 2
    assert 0 <= s["block_accuracy"] <= 1 and s["median_seconds"] > 0
    assert set(s) >= {"flagged", "wrong_flagged", "wrong_positions", "stone_accuracy", "results_exact"}


def test_positions_to_check_are_the_flagged_ones_and_those_whose_count_is_not_the_record():
    def row(name, wrong, result_ok, flagged):
        seog = ev.Outcome(3, int(wrong), 19, int(wrong), "B+3.5", result_ok, 0.01, flagged,
                          ["ea:9alive"] if wrong else [])
        return ev.Row(name, 9, "Japanese", "B+3.5", True, {"seog": seog})
    rows = [row("right", False, True, False), row("right-flagged", False, True, True),
            row("wrong-not-record", True, False, False), row("wrong-record", True, True, False),
            row("wrong-flagged", True, False, True), row("no-record", False, None, False)]
    s = ev.summary(rows, "seog")
    assert s["flagged"] == 2 / 6 and s["wrong_flagged"] == 1 / 3
    assert s["to_check"] == 3 / 6 and s["wrong_to_check"] == 2 / 3
    # with no counted result at all (OGS boards) only the flags apply
    assert "to_check" not in ev.summary(rows[-1:], "seog")


def _ogs(tmp_path):
    folder = tmp_path / "ogs"
    folder.mkdir()
    # Walls on columns C and D; a white stone dead inside Black's side (B4); an empty point marked too.
    (folder / "corner.game").write_text("""# 1=black -1=white 0=open
height 5
width 5
player_to_move 1
 0  0  1 -1  0
 0 -1  1 -1  0
 0  0  1 -1  0
 0  0  1 -1  0
 0  0  1 -1  0

 0  0  0  0  1
 0  1  0  0  0
 0  0  0  0  0
 0  0  0  0  0
 0  0  0  0  0
""")
    return folder


def test_ogs_boards_and_removal_maps(tmp_path):
    positions, skipped = devsets.read(_ogs(tmp_path))
    (p,) = positions
    assert not skipped and p.size == 5 and p.result == "" and not ev.counted(p)
    # The mark on a stone makes it dead; the mark on an empty point is only counted as dame.
    assert list(np.flatnonzero(p.dead)) == [6] and p.extra["dame_marked"] == 1
    rows, _ = ev.evaluate(positions, model=None)
    assert rows[0].ceiling is None and rows[0].outcomes["seog"].result_ok is None


def test_bad_ogs_file_is_skipped_with_a_reason(tmp_path):
    folder = tmp_path / "ogs"
    folder.mkdir()
    (folder / "bad.game").write_text("height 3\nwidth 3\n0 0 0\n")
    positions, skipped = devsets.read(folder)
    assert not positions and "removal grid" in skipped[0].reason


@pytest.mark.skipif(not gnugo_available(), reason="GNU Go is not installed")
def test_engine_answers_are_cached(tmp_path):
    positions, _ = devsets.read(_folder(tmp_path, wall=wall()))
    cache = tmp_path / "answers.json"
    engine = ev.EngineScorer("gnugo", 10, cache)
    first = engine.outcome(positions[0])
    engine.close()
    assert first.all_right and first.result_ok and first.seconds > 0
    again = ev.EngineScorer("gnugo", 10, cache)
    second = again.outcome(positions[0])
    assert again.teacher is None and second.seconds == pytest.approx(first.seconds, abs=1e-4)
    assert next(iter(json.loads(cache.read_text()).values()))["dead"] == ["cc"]


def test_cli_writes_csv_summary_and_plot(tmp_path, capsys):
    folder = _folder(tmp_path, wall=wall())
    out = tmp_path / "report" / "ev.csv"
    assert main(["evaluate", str(folder), "--no-model", "--csv", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "1 positions, 3 blocks, 1 with a counted result" in text and "ceiling (marks)" in text
    assert out.read_text().splitlines()[0].startswith("name,size,rules,recorded,ceiling,seog_result")
    summary = json.loads(out.with_suffix(".summary.json").read_text())
    assert summary["seog"]["positions"] == 1 and summary["seog"]["ceiling"] == 1.0
    assert out.with_suffix(".png").stat().st_size > 1000


def test_cli_csv_under_a_file_is_one_line_naming_it_before_the_work(tmp_path, capsys, monkeypatch):
    """Issue #7: the folder was made after every position was scored, and failed as a bare OSError."""
    from seog.cli import evaluate as cli_evaluate

    folder = _folder(tmp_path, wall=wall())
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "ev.csv"
    monkeypatch.setattr(cli_evaluate, "run_folders", lambda *a: pytest.fail("evaluated before the check"))
    assert main(["evaluate", str(folder), "--no-model", "--csv", str(out), "--quiet"]) == 1
    assert capsys.readouterr().err == f"seog evaluate: error: --csv {out}: cannot write ({tmp_path / 'afile'} is not a folder)\n"


def test_cli_csv_that_is_a_folder_is_refused_before_the_work(tmp_path, capsys, monkeypatch):
    """It printed the whole report, then 'Is a directory'."""
    from seog.cli import evaluate as cli_evaluate

    folder = _folder(tmp_path, wall=wall())
    (tmp_path / "out.csv").mkdir()
    monkeypatch.setattr(cli_evaluate, "run_folders", lambda *a: pytest.fail("evaluated before the check"))
    assert main(["evaluate", str(folder), "--no-model", "--csv", str(tmp_path / "out.csv"), "--quiet"]) == 1
    assert capsys.readouterr().err == f"seog evaluate: error: --csv {tmp_path / 'out.csv'} is a folder: name a file\n"


def test_cli_csv_without_matplotlib_writes_the_table_and_summary_and_names_the_extra(tmp_path, capsys,
                                                                                  monkeypatch):
    """A server's install has no matplotlib: the CSV and the summary are written all the same, and
    one line says the PNG needs the plots extra (which does not bring torch)."""
    folder = _folder(tmp_path, wall=wall())
    out = tmp_path / "report" / "ev.csv"
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    assert main(["evaluate", str(folder), "--no-model", "--csv", str(out), "--quiet"]) == 0
    printed = capsys.readouterr()
    assert printed.err == (f"seog evaluate: no {out.with_suffix('.png')}: the PNG needs matplotlib, which this "
                           "install lacks: pip install 'seog[plots]'\n")
    assert out.read_text().splitlines()[1].startswith("wall,9,")
    assert json.loads(out.with_suffix(".summary.json").read_text())["seog"]["positions"] == 1
    assert not out.with_suffix(".png").exists()
    assert printed.out.rstrip().endswith(f"wrote {out}, {out.with_suffix('.summary.json')}")


def test_the_plots_extra_brings_matplotlib_without_torch():
    import tomllib

    extras = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert [r.split(">")[0] for r in extras["plots"]] == ["matplotlib"]


@pytest.mark.parametrize("missing, named", [(["torch"], "torch"), (["matplotlib"], "matplotlib"),
                                            (["torch", "matplotlib"], "torch and matplotlib")])
def test_train_without_its_extra_names_it_before_the_work(tmp_path, capsys, monkeypatch, missing, named):
    """``seog train`` needs torch for the nets and matplotlib for the learning curves."""
    if "torch" not in missing:
        pytest.importorskip("torch", reason="matplotlib named alone needs torch installed")
    for name in missing:
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["train", "--cache", str(tmp_path / "none.npz"), "--out", str(tmp_path / "runs")]) == 1
    assert capsys.readouterr().err == (f"seog train: error: training needs {named}, which this install lacks: "
                                       "pip install 'seog[train]'\n")
    assert not (tmp_path / "runs").exists()


def test_cli_error_on_folder_without_labels_counts_the_reasons(tmp_path, capsys):
    folder = _folder(tmp_path, bare=wall(marks=""), bare2=wall(marks="", re="W+0.5"), broken=b"(;SZ[9]")
    assert main(["evaluate", str(folder), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "no labelled positions found" in err
    assert "3 file(s) skipped (2 unlabelled (no TB/TW marks); 1 " in err


@pytest.mark.parametrize("limit", ["0", "-1", "1.5"])
def test_cli_limit_is_a_positive_whole_number(tmp_path, limit, capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", str(_folder(tmp_path, wall=wall())), "--limit", limit])
    assert "--limit" in capsys.readouterr().err


def test_cli_limit_reads_no_file_after_the_first_positions(tmp_path, capsys):
    folder = _folder(tmp_path, a=wall(), b=wall(), c=b"(;SZ[9]")  # c would be skipped as broken
    assert main(["evaluate", str(folder), "--limit", "1", "--no-model", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "all: 1 positions" in text and "skipped" not in text


def test_cli_reads_ogs_boards_and_sgf_files_of_one_folder(tmp_path, capsys):
    folder = _ogs(tmp_path)
    (folder / "wall.sgf").write_bytes(wall())
    assert main(["evaluate", str(folder), "--no-model", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "reading 1 OGS .game board(s) and 1 SGF file(s)" in captured.err
    assert "all: 2 positions" in captured.out and "5x5" in captured.out and "9x9" in captured.out


def test_damaged_answer_cache_is_set_aside_and_its_whole_answers_kept(tmp_path):
    positions, _ = devsets.read(_folder(tmp_path, wall=wall(), off=wall(re="W+0.5")))
    cache = tmp_path / "answers.json"
    engine = ev.EngineScorer("gnugo", 10, None)
    answers = {engine.key(p, False): {"name": p.name, "dead": ["cc"], "seconds": 0.5} for p in positions}
    text = json.dumps(answers, indent=0)
    cache.write_text(text[: len(text) - 20])  # the second answer cut short
    engine = ev.EngineScorer("gnugo", 10, cache)
    assert "was damaged" in engine.note and str(cache) in engine.note and "kept its 1 whole answer(s)" in engine.note
    assert (tmp_path / "answers.json.damaged").read_text() == text[: len(text) - 20]
    assert json.loads(cache.read_text()) == dict(list(answers.items())[:1])
    outcome = engine.outcome(positions[0])  # 'off' sorts first: its answer was kept
    assert engine.teacher is None and outcome.wrong_blocks == 0 and outcome.seconds == 0.5


@pytest.mark.skipif(not gnugo_available(), reason="GNU Go is not installed")
def test_cli_leaves_out_of_both_columns_a_21x21_game_gnugo_cannot_load(tmp_path, capsys):
    folder = _folder(tmp_path, wide=wide_wall())
    for suffix in (".sgf", ".json"):
        (folder / f"2017-01-01-12{suffix}").write_bytes((shared_dir("kgs-2017-q1") / f"2017-01-01-12{suffix}").read_bytes())
    cache = tmp_path / "answers.json"
    assert main(["evaluate", str(folder), "--engine", "gnugo", "--engine-cache", str(cache), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "all: 1 positions" in text and "19x19" not in text and "21x21" not in text
    assert "skipped wide: gnugo cannot load it (cannot load 'wide')" in text
    assert "left out of every column: 1 position(s) gnugo gave no answer for" in text
    assert [e["name"] for e in json.loads(cache.read_text()).values()] == ["2017-01-01-12"]


@pytest.mark.skipif(not gnugo_available(), reason="GNU Go is not installed")
def test_default_answer_cache_is_in_the_user_cache_folder(tmp_path, monkeypatch, capsys):
    folder = _folder(tmp_path, wall=wall())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.chdir(tmp_path)
    assert main(["evaluate", str(folder), "--engine", "gnugo", "--no-model", "--quiet"]) == 0
    assert not (tmp_path / "cache").exists()
    assert (tmp_path / "user-cache" / "seog" / "gnugo-answers.json").exists()


def test_dev_set_json_lists_equal_the_tb_tw_marks():
    positions, skipped = devsets.read(shared_dir("gnugo-regression-games"))
    assert len(positions) == 137 and not skipped
    assert all((p.game.marked_dead() == p.dead).all() for p in positions if p.game.has_markup)


def test_ogs_dev_set_reads_every_position():
    positions, skipped = devsets.read(shared_dir("ogs-score-estimator"))
    assert len(positions) == 54 and not skipped
    index = {e["name"]: e for e in json.loads((shared_dir("ogs-score-estimator") / "_index.json").read_text())}
    for p in positions:
        side = json.loads((shared_dir("ogs-score-estimator") / f"{p.name}.json").read_text())
        dead = mask_from_sgf(side["dead_black"] + side["dead_white"], p.size)
        assert (dead == p.dead).all(), p.name
        assert int(p.dead.sum()) == index[p.name]["n_dead_black"] + index[p.name]["n_dead_white"]
