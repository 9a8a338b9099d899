"""The held-out split of the training archives: fixed by a game's id, the same in every archive."""

import gzip
import io
import json
import tarfile

import numpy as np

from seog.classifiers import model_file
from seog.classifiers.refiner import N_INPUTS
from seog.datasets.split import HELD_OUT_YEAR, game_id, split_of


def test_a_game_in_two_archives_falls_on_the_same_side():
    for gid in (f"2006-03-{d:02d}-{k}" for d in range(1, 29) for k in range(1, 6)):
        assert split_of(f"kgs-19-2006__{gid}") == split_of(f"2006__{gid}") == split_of(f"kgs-6d-more/2006__{gid}.sgf")
    assert game_id("KGS2001__2000-10-16-1") == game_id("2001__2000-10-16-1") == "2000-10-16-1"


def test_a_position_before_the_end_falls_on_its_games_side():
    assert game_id("kgs-6d-more/2006__2006-03-14-21.sgf@-10") == "2006-03-14-21"
    assert split_of("2015__2015-01-02-3.sgf@-4") == "year"


def test_one_game_in_ten_is_held_out_by_hash_and_the_held_out_year_whole():
    sides = [split_of(f"2003__2003-{m:02d}-{d:02d}-{k}") for m in range(1, 13) for d in range(1, 29) for k in (1, 2, 3)]
    share = sides.count("hash") / len(sides)
    assert 0.08 < share < 0.12 and sides.count("year") == 0
    assert {split_of(f"kgs-19-{HELD_OUT_YEAR}__{HELD_OUT_YEAR}-05-{d:02d}-1") for d in range(1, 29)} == {"year"}


def _sgf(moves: str, result: str) -> bytes:
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RE[{result}]{moves})".encode()


def test_planes_cache_from_an_archive_and_its_ownership_file(tmp_path):
    """Each game of the tar whose name the ownership file lists becomes one position, with its
    result, its split and whether it was finished; a game the file does not list is left out."""
    from seog.datasets import planes as cache
    archive = tmp_path / "games.tar.xz"
    games = {"2001__2001-01-01-1": _sgf(";B[dd];W[pp];B[dp];W[pd]", "W+Resign"),
             "2001__2001-01-01-2": _sgf(";B[dd];W[pp];B[];W[]", "B+3.50"),
             "2001__2001-01-01-3": _sgf(";B[aa]", "B+R")}
    with tarfile.open(archive, "w:xz") as tar:
        for name, data in games.items():
            info = tarfile.TarInfo(f"more/{name}.sgf")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    owner = np.zeros((2, 361), dtype=np.int8)
    owner[0, 3 * 19 + 3] = 90
    labels = tmp_path / "labels.npz"
    np.savez(labels, names=np.array(["2001__2001-01-01-1", "2001__2001-01-01-2"]), ownership=owner)
    out = tmp_path / "planes.npz"
    meta = cache.build(None, model_file.DEFAULT_MODEL, out, archive=(archive, labels))
    data = np.load(out)
    assert meta["games"] == 2 and data["planes"].shape == (2, N_INPUTS, 19, 19)
    assert data["names"].tolist() == ["2001__2001-01-01-1", "2001__2001-01-01-2"]
    assert data["finished"].tolist() == [False, True] and data["results"].tolist() == ["W+Resign", "B+3.50"]
    assert data["planes"][0, 0, 3, 3] == 1 and data["planes"][0, 1, 15, 15] == 1  # B at D16, W at Q4
    assert data["ownership"][0, 3, 3] == 90


def test_held_out_measure_counts_a_teacher_that_disagrees(tmp_path):
    """The held-out measure reads the board from the planes and the truth from the ownership:
    a lone stone the teacher gives to its opponent is a wrong block when the model keeps it."""
    from seog.datasets import planes as cache
    from seog.datasets.heldout import measure
    rows = ["." * 19] * 19
    rows = [r[:3] + "X" + r[4:] if i == 3 else r for i, r in enumerate(rows)]
    record = {"name": "kgs__2001-01-01-9", "size": 19, "final_board": rows, "ownership": [-80] * 361,
              "result": "W+0.5", "katago_dead": []}
    teacher = tmp_path / "t.jsonl.gz"
    with gzip.open(teacher, "wt") as fh:
        fh.write(json.dumps(record) + "\n")
    out = tmp_path / "planes.npz"
    cache.build(teacher, model_file.DEFAULT_MODEL, out)
    data = np.load(out)
    from seog.classifiers.status import decide
    from seog.features.board import Board
    from seog.features.topology import analyze
    model = model_file.load_default()
    figures = measure(model, data["planes"], data["ownership"], [0], data["finished"])
    [status] = decide(analyze(Board.from_rows(rows).grid), model)
    product = figures["finished"]["ways"]["product"]
    assert product["positions"] == 1 and product["wrong_positions"] == int(status.alive)
    assert product["wrong_stones"] == int(status.alive)
    assert set(figures["finished"]["passes"]) == {"reading", "big-eye", "eyespace", "seki", "eyes", "life"}


def test_labelled_positions_skip_an_empty_board_and_read_the_teachers_verdict(tmp_path):
    """A cache of an empty board and a lone black stone the teacher gives to White: only the
    stone's position comes out, its one block dead for the teacher."""
    from seog.datasets import planes as cache
    from seog.datasets.heldout import labelled_positions
    empty = ["." * 19] * 19
    stone = [r[:3] + "X" + r[4:] if i == 3 else r for i, r in enumerate(empty)]
    teacher = tmp_path / "t.jsonl.gz"
    with gzip.open(teacher, "wt") as fh:
        for k, rows in enumerate((empty, stone)):
            fh.write(json.dumps({"name": f"kgs__2001-01-01-{k}", "size": 19, "final_board": rows,
                                 "ownership": [-80] * 361, "result": "W+0.5", "katago_dead": []}) + "\n")
    out = tmp_path / "planes.npz"
    cache.build(teacher, model_file.DEFAULT_MODEL, out)
    data = dict(np.load(out))
    assert len(data["planes"]) == 2
    [(row, topology, truth)] = list(labelled_positions(data, range(2)))
    assert row == 1
    assert [len(b.points) for b in topology.blocks] == [1] and topology.grid[3, 3] == 1
    assert truth.tolist() == [False]


def test_finished_statuses_give_the_models_verdicts_on_the_finished_positions_of_a_side(tmp_path):
    """A lone black stone the teacher gives to White, in a counted game and in a resigned one:
    only the counted one comes out, with the model's own verdict, wrong when the model keeps it."""
    from seog.classifiers.status import decide
    from seog.datasets import planes as cache
    from seog.datasets.heldout import any_wrong, finished_statuses
    from seog.features.board import Board
    from seog.features.topology import analyze
    rows = ["." * 19] * 19
    rows = [r[:3] + "X" + r[4:] if i == 3 else r for i, r in enumerate(rows)]
    teacher = tmp_path / "t.jsonl.gz"
    with gzip.open(teacher, "wt") as fh:
        for k, result in enumerate(("W+0.5", "W+Resign")):
            fh.write(json.dumps({"name": f"kgs__2001-01-01-{k}", "size": 19, "final_board": rows,
                                 "ownership": [-80] * 361, "result": result, "katago_dead": []}) + "\n")
    out = tmp_path / "planes.npz"
    cache.build(teacher, model_file.DEFAULT_MODEL, out)
    data = dict(np.load(out))
    model = model_file.load_default()
    [(row, topology, truth, statuses)] = list(finished_statuses(model, data, "all"))
    [expected] = decide(analyze(Board.from_rows(rows).grid), model)
    assert row == 0 and truth.tolist() == [False]
    assert statuses[0].alive == expected.alive
    assert any_wrong(topology, statuses, truth) == expected.alive
    assert data["split"].tolist() == ["train", "train"] and list(finished_statuses(model, data, "hash")) == []


def test_the_passes_kept_are_the_fewest_that_leave_the_fewest_positions_wrong():
    from seog.datasets.heldout import Subset, best_subsets, pass_subsets
    names = ["reading", "big-eye", "eyespace"]
    assert len(pass_subsets(names)) == 8 and pass_subsets(names)[0] == () and pass_subsets(names)[-1] == tuple(names)
    finished, unfinished = Subset(), Subset()
    for keep in pass_subsets(names):  # eyespace mends a finished position; reading an unfinished one
        finished.subsets[keep] = (10 - ("eyespace" in keep), 50 - 5 * len(keep))
        unfinished.subsets[keep] = (100 - ("reading" in keep), 500)
    ranked = best_subsets([finished, unfinished])
    assert ranked[0] == {"passes": ["reading", "eyespace"], "wrong_positions": 108, "wrong_stones": 540}
    assert ranked[1]["passes"] == ["reading", "big-eye", "eyespace"]  # as few wrong, one pass more


def test_calibration_factor_sharpens_modest_probabilities():
    from seog.datasets.heldout import calibration, fit_calibration
    rng = np.random.default_rng(3)
    alive = rng.random(4000) < 0.5
    sure = np.where(alive, 0.97, 0.03)            # right 97 times in 100 when it says 0.97 ...
    truth = np.where(rng.random(4000) < 0.995, alive, ~alive)  # ... but right 99.5 times in 100
    pairs = list(zip(sure, truth))
    assert fit_calibration(pairs) > 1.2
    table = calibration(pairs)
    assert table["bins"]["0.95-1.0"]["alive"] > 0.99 and table["best_factor"] == fit_calibration(pairs)


def test_held_out_measure_names_a_missing_cache(tmp_path, capsys):
    from seog.classifiers.model_file import DEFAULT_MODEL
    from seog.datasets.heldout import main
    # the shipped model by its path: --model's default is relative to the repository root
    assert main(["--model", str(DEFAULT_MODEL), "--planes", str(tmp_path / "nope.npz")]) == 2
    assert "not a planes cache" in capsys.readouterr().err


def test_trainer_names_a_missing_cache(tmp_path, capsys):
    import pytest
    pytest.importorskip("torch")
    from seog.classifiers.train_refiner import main
    assert main(["--planes", str(tmp_path / "nope.npz"), "--save", str(tmp_path / "m.npz")]) == 2
    assert "nope.npz" in capsys.readouterr().err
