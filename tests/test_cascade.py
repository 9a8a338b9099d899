"""The cascade: statuses for open blocks from a model, and training one from a feature cache."""

import numpy as np
import pytest

from conftest import board
from seog.classifiers import model_file
from seog.classifiers.cascade import classify, dynamic_inputs
from seog.classifiers.mlp import Net
from seog.classifiers.model_file import Model
from seog.classifiers.settings import DEFAULT
from seog.classifiers.status import decide, static_statuses
from seog.features import vector
from seog.features.scaling import Scaler
from seog.features.topology import analyze


@pytest.fixture
def train(one_torch_thread):
    """The trainer (torch): its tests skip where torch is not installed, the numpy ones run."""
    from seog.classifiers import train

    return train

# Four lone groups in open space, none settled by the static pass: a corner stone (2 liberties),
# a stone on the edge (3), a three-stone wall on the edge (5) and a two-stone group in the centre (6).
LONE_GROUPS = """
X . . O O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O . . . X X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def liberty_model(nets=1):
    """p(alive) = sigmoid(2 * liberties - 10): alive from 6 liberties, 50/50 at 5, dead below."""
    first = Net([np.array([[20.0]])], [np.array([-10.0])])
    later = [Net([np.array([[0.0, 10.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]])], [np.array([-8.0])])]
    return Model([first] + later * (nets - 1), ["liberties_1"], Scaler(np.array([0.0]), np.array([10.0])), 0.25)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def test_slot_means_skip_padding_and_read_one_half_for_an_empty_slot():
    p = np.array([1.0, 0.0, 0.25, 0.75])
    related = -np.ones((2, 7, 3), dtype=int)
    related[0, 0, :1] = [0]
    related[0, 1, :3] = [1, 2, 3]
    related[1, 6, :2] = [3, 2]
    got = dynamic_inputs(p, related)
    assert got[0].tolist() == [1.0, pytest.approx(1 / 3), 0.5, 0.5, 0.5, 0.5, 0.5]
    assert got[1].tolist() == [0.5] * 6 + [0.5]  # mean of 0.75 and 0.25


def test_padded_slot_means_agree_with_the_feature_module_on_a_real_position():
    topology = analyze(board(LONE_GROUPS).grid)
    ids = list(range(len(topology.blocks)))
    related = vector.related(topology, ids)
    p = np.linspace(0.1, 0.9, len(ids))
    assert np.allclose(dynamic_inputs(p, vector.related_array(topology, ids)), vector.dynamic(p, related))


def test_a_liberty_counting_model_decides_the_open_blocks():
    topology = analyze(board(LONE_GROUPS).grid)
    assert static_statuses(topology) == {}  # every block is left to the model
    by_libs = {len(topology.blocks[s.block].liberties): s for s in decide(topology, liberty_model())}
    assert {libs: s.alive for libs, s in by_libs.items()} == {2: False, 3: False, 5: True, 6: True}
    for libs, s in by_libs.items():
        assert s.source == "model"
        assert s.p_alive == pytest.approx(sigmoid(2 * libs - 10))
    # only the wall on the edge (p = 0.5 exactly) is near the boundary; 0.12 and 0.88 are not
    assert [libs for libs, s in sorted(by_libs.items()) if s.uncertain] == [5]


def test_a_model_file_flags_by_its_own_margins_and_one_that_names_none_by_the_settings(tmp_path):
    import json

    shipped = model_file.load_default()  # its margins, chosen on held-out data, come first
    assert (shipped.uncertain_margin, shipped.refiner_margin) == (0.0, 0.25)
    assert DEFAULT.cascade_margin == 0.25
    topology = analyze(board(LONE_GROUPS).grid)
    model = liberty_model()
    model.uncertain_margin = 0.0
    path = model_file.save(tmp_path / "m.npz", model)
    assert not any(s.uncertain for s in decide(topology, model_file.load(path)))  # the wall at 0.5 too
    arrays = dict(np.load(path))
    meta = json.loads(str(arrays["meta"]))
    del meta["uncertain_margin"]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    bare = model_file.load(path)  # a file that names no margin: the settings'
    assert bare.uncertain_margin == DEFAULT.cascade_margin
    flags = [s.uncertain for s in decide(topology, bare)]
    assert any(flags) and flags == [s.uncertain for s in decide(topology, liberty_model())]  # the wall at 0.5
    assert Model(model.nets, model.feature_names, model.scaler).uncertain_margin == DEFAULT.cascade_margin


def test_a_second_net_reads_the_first_nets_predictions_of_related_blocks():
    topology = analyze(board(LONE_GROUPS).grid)
    ids = [b.id for b in topology.blocks]
    libs = np.array([len(b.liberties) for b in topology.blocks], dtype=float)
    p1 = sigmoid(2 * libs - 10)
    dyn = vector.dynamic(p1, vector.related(topology, ids))
    expected = sigmoid(10 * dyn[:, 0] + dyn[:, 1:].sum(axis=1) - 8)
    got = classify(topology, ids, {}, liberty_model(nets=2))
    assert [got[b].p_alive for b in ids] == pytest.approx(expected.tolist())
    # three nets: the second net's output feeds the third
    p2 = np.array([got[b].p_alive for b in ids])
    dyn2 = vector.dynamic(p2, vector.related(topology, ids))
    got3 = classify(topology, ids, {}, liberty_model(nets=3))
    assert [got3[b].p_alive for b in ids] == pytest.approx(sigmoid(10 * dyn2[:, 0] + dyn2[:, 1:].sum(axis=1) - 8))


# ---------------------------------------------------------------- training on a synthetic cache


def relay_cache(n_pos=60, pairs=10, seed=0):
    """Positions of ``pairs`` pairs of open blocks. A *clear* block's label shows in its first feature;
    its *murky* partner has random features and shares the clear block's label, which it can only
    learn through the dynamic input of its friend slot (slot 7) in a cascade."""
    rng = np.random.default_rng(seed)
    n = n_pos * pairs * 2
    x = rng.random((n, 3))
    clear = np.arange(n) % 2 == 0
    label = np.repeat(rng.random(n // 2) < 0.5, 2)
    x[clear, 0] = np.where(label[clear], 0.6 + 0.4 * x[clear, 0], 0.4 * x[clear, 0])
    x[:, 1] = clear
    related = -np.ones((n, 7, 1), dtype=np.int32)
    related[:, 0, 0] = np.arange(n)
    related[~clear, 6, 0] = np.flatnonzero(clear)
    related[clear, 6, 0] = np.flatnonzero(~clear)
    static = np.full(n, -1, dtype=np.int8)
    return {"X": x.astype(np.float32), "feature_names": np.array(["f0", "clear", "f2"]),
            "y": label.astype(np.int8), "static": static,
            "position": (np.arange(n) // (2 * pairs)).astype(np.int32), "related": related,
            "positions": np.array([f"pos{i}" for i in range(n_pos)])}


def test_a_second_net_learns_what_only_the_related_blocks_show(train):
    cache = relay_cache()
    config = train.TrainConfig(method="impro", hidden=4, max_epochs=400, patience=100)
    result = train.train_cascade(cache, ["f0", "clear", "f2"], config, nets=2, seed=1)
    first, second = result.nets
    assert first.test_rms > 0.3  # the murky half is a coin toss for the first net
    assert second.test_rms < 0.5 * first.test_rms
    assert first.test_accuracy < 0.85 and second.test_accuracy > 0.95
    assert result.model.layout == [[3, 4, 1], [10, 4, 1]]


def test_a_trained_cascade_saves_and_predicts_the_same_with_numpy(tmp_path, train):
    cache = relay_cache(n_pos=20)
    config = train.TrainConfig(method="rprop", hidden=3, max_epochs=30)
    result = train.train_cascade(cache, ["f0", "clear", "f2"], config, nets=2, seed=2,
                                 meta={"feature_set": "test"})
    loaded = model_file.load(model_file.save(tmp_path / "m.npz", result.model))
    assert loaded.meta["training"]["method"] == "rprop"
    assert [n["epochs"] for n in loaded.meta["training"]["nets"]] == [r.epochs for r in result.nets]
    x = loaded.scale(cache["X"].astype(float))
    assert np.array_equal(loaded.nets[0].predict(x), result.model.nets[0].predict(x))
    # the best epoch's test error is reproduced by the saved first net
    _, test = train.split_rows(cache)
    p = loaded.nets[0].predict(x[test])
    assert np.sqrt(np.mean((p - cache["y"][test]) ** 2)) == pytest.approx(result.nets[0].test_rms, abs=1e-5)


def test_a_cascade_given_its_rows_learns_from_those_alone(train):
    """The rows a caller chooses (a held-out side left out) are the rows trained and tested on:
    the split of the whole cache is not used."""
    cache = relay_cache(n_pos=40)
    every_train, every_test = train.split_rows(cache)
    rows = (every_train[cache["position"][every_train] < 20], every_test[cache["position"][every_test] < 20])
    config = train.TrainConfig(method="rprop", hidden=3, max_epochs=20)
    result = train.train_cascade(cache, ["f0", "clear", "f2"], config, nets=1, seed=2, rows=rows)
    training = result.model.meta["training"]
    assert (training["train_rows"], training["test_rows"]) == (len(rows[0]), len(rows[1]))
    assert len(rows[0]) < len(every_train)
    x = result.model.scale(cache["X"].astype(float))
    p = result.model.nets[0].predict(x[rows[1]])
    assert np.sqrt(np.mean((p - cache["y"][rows[1]]) ** 2)) == pytest.approx(result.nets[0].test_rms, abs=1e-5)


def test_the_position_split_keeps_each_position_on_one_side(train):
    cache = relay_cache(n_pos=40)
    cache["static"][::7] = 1  # settled rows never train
    tr, te = train.split_rows(cache, games=30)
    assert set(cache["position"][te]) == {9, 19, 29}
    assert not set(cache["position"][tr]) & {9, 19, 29} and cache["position"][tr].max() == 28
    assert (cache["static"][np.concatenate([tr, te])] == -1).all()
    tr, te = train.split_rows(cache, split="example")
    assert len(te) == (len(tr) + len(te)) // 10


def test_solved_examples_sit_out_and_come_back_when_refreshed(train):
    import torch

    active = torch.tensor([True, True, True, False])
    idx = torch.tensor([0, 1, 2])
    sq = torch.tensor([0.0001, 0.5, 0.0001])  # rows 0 and 2 solved (error 0.01 < 0.05)
    keep = train.TrainConfig(drop_solved=True)
    assert train._next_active(active, idx, sq, keep, first=False).tolist() == [False, True, False, False]
    refresh = train.TrainConfig(drop_solved=True, refresh_dropped=True)
    assert train._next_active(active, idx, sq, refresh, first=False).tolist() == [False, True, False, True]
    half = train.TrainConfig(start_on_half_training_set=True)
    assert train._next_active(active, idx, sq, half, first=True).tolist() == [True] * 4


@pytest.mark.parametrize("flags", [dict(drop_solved=True, refresh_dropped=True, start_on_half_training_set=True),
                                   dict(drop_solved=True)])
def test_training_with_the_skipping_flags_still_learns(flags, train):
    cache = relay_cache()
    tr, te = train.split_rows(cache)
    x = cache["X"].astype(float)
    y = cache["y"].astype(float)
    clear = x[:, 1] == 1
    config = train.TrainConfig(method="impro", hidden=3, max_epochs=300, **flags)
    result = train.train_net(x[tr][clear[tr]], y[tr][clear[tr]], x[te][clear[te]], y[te][clear[te]], config, seed=3)
    assert result.test_rms < 0.15


def test_seog_train_writes_curves_plots_summary_and_a_loadable_model(tmp_path, capsys, train):
    from seog.cli import main

    names = vector.SET_A
    rng = np.random.default_rng(4)
    n = 600
    x = rng.random((n, len(names))).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 1).astype(np.int8)
    cache = {"X": x, "feature_names": np.array(names), "y": y, "static": np.full(n, -1, dtype=np.int8),
             "position": (np.arange(n) // 10).astype(np.int32),
             "related": np.full((n, 7, 1), -1, dtype=np.int32), "positions": np.array(["p"] * 60)}
    np.savez_compressed(tmp_path / "cache.npz", **cache)
    out = tmp_path / "runs"
    code = main(["train", "--cache", str(tmp_path / "cache.npz"), "--method", "impro,rprop", "--hidden", "2",
                 "--runs", "2", "--first-net", "5", "--epochs", "40", "--out", str(out),
                 "--model", str(tmp_path / "best.npz"), "--threads", "1"])
    assert code == 0
    for method in ("impro", "rprop"):
        folder = out / "33-2-1" / method
        assert {p.name for p in folder.iterdir()} == {"run-005.csv", "run-006.csv", "curves.csv", "curves.png",
                                                     "model.npz"}
        header = (folder / "curves.csv").read_text().splitlines()[0]
        assert header == "epoch,run5_train,run5_test,run6_train,run6_test"
    assert (out / "compare-33-2-1.png").stat().st_size > 1000
    table = (out / "summary.md").read_text()
    assert "### 33-2-1 (2 runs each)" in table and "| impro |" in table and "| rprop |" in table
    assert model_file.load(tmp_path / "best.npz").feature_names == names
    assert model_file.load(tmp_path / "best.npz").meta["picks"] == "ids"  # what the model learnt from
    out, err = capsys.readouterr()
    assert "33-2-1 rprop run 6" in out
    # a cache without its picks was built before ties went by features: training says so, and goes on
    assert f"{tmp_path / 'cache.npz'} picks neighbours by ids, seog now by features" in err


def test_seog_train_names_a_missing_cache_or_a_bad_method(tmp_path, capsys, train):
    from seog.cli import main

    assert main(["train", "--cache", str(tmp_path / "none.npz")]) == 1  # the path and why, not '[Errno 2] ...'
    assert capsys.readouterr().err == f"seog train: error: {tmp_path / 'none.npz'}: No such file or directory\n"
    np.savez(tmp_path / "c.npz", X=np.zeros((2, 2)))
    assert main(["train", "--cache", str(tmp_path / "c.npz")]) == 1
    assert "not a feature cache" in capsys.readouterr().err
    assert main(["train", "--cache", str(tmp_path / "c.npz"), "--method", "adam"]) == 1
    assert "unknown training method 'adam'" in capsys.readouterr().err
