"""Model files: what is saved comes back the same, and nothing but a model file is accepted."""

import json
import subprocess
import sys

import numpy as np
import pytest

from seog.classifiers import model_file
from seog.classifiers.mlp import Net
from seog.classifiers.model_file import Model, ModelFileError
from seog.features.scaling import Scaler

NAMES = ["size", "liberties", "eyes"]


def random_net(sizes, seed):
    rng = np.random.default_rng(seed)
    return Net([rng.normal(size=(o, i)) for i, o in zip(sizes, sizes[1:])],
               [rng.normal(size=o) for o in sizes[1:]])


def two_net_model():
    return Model([random_net([3, 4, 1], 1), random_net([10, 4, 2, 1], 2)], NAMES,
                 Scaler(np.array([1.0, 0.0, 0.0]), np.array([50.0, 20.0, 3.0])), 0.2,
                 {"training": {"method": "impro", "games": 7}})


def test_a_saved_cascade_loads_with_the_same_weights_names_scaler_and_margin(tmp_path):
    model = two_net_model()
    loaded = model_file.load(model_file.save(tmp_path / "m.npz", model))
    assert loaded.feature_names == NAMES
    assert loaded.layout == [[3, 4, 1], [10, 4, 2, 1]]
    assert loaded.uncertain_margin == 0.2
    assert loaded.meta["training"] == {"method": "impro", "games": 7}
    x = np.random.default_rng(0).random((20, 10))
    for a, b in zip(model.nets, loaded.nets):
        assert np.array_equal(a.predict(x[:, :a.n_inputs]), b.predict(x[:, :b.n_inputs]))
    raw = np.array([[1.0, 0.0, 0.0], [50.0, 20.0, 3.0], [25.5, 10.0, 3.0]])
    assert np.allclose(loaded.scale(raw), [[0, 0, 0], [1, 1, 1], [0.5, 0.5, 1]])


def test_a_constant_feature_scales_to_zero_instead_of_dividing_by_zero():
    model = Model([random_net([2, 2, 1], 0)], ["a", "b"], Scaler(np.array([0.0, 4.0]), np.array([2.0, 4.0])))
    with np.errstate(all="raise"):
        assert model.scale(np.array([[1.0, 4.0], [2.0, 9.0]])).tolist() == [[0.5, 0.0], [1.0, 0.0]]


def test_a_file_holding_pickled_objects_is_refused_not_unpickled(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(path, meta=np.array([{"format": "seog-cascade"}], dtype=object))
    with pytest.raises(ModelFileError, match="not a readable model file"):
        model_file.load(path)


def test_files_that_are_not_seog_models_get_clear_errors(tmp_path):
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ModelFileError, match="not a readable model file"):
        model_file.load(tmp_path / "text.npz")
    np.savez(tmp_path / "other.npz", meta=np.array(json.dumps({"format": "something"})))
    with pytest.raises(ModelFileError, match="not a seog model file"):
        model_file.load(tmp_path / "other.npz")
    path = model_file.save(tmp_path / "m.npz", two_net_model())
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    del arrays["net1_w2"]
    np.savez(tmp_path / "cut.npz", **arrays)
    with pytest.raises(ModelFileError, match="net1_w2"):
        model_file.load(tmp_path / "cut.npz")


def test_a_cascade_whose_nets_do_not_fit_the_features_is_refused():
    with pytest.raises(ModelFileError, match="net 2 .* takes 3 inputs, expected 10"):
        Model([random_net([3, 2, 1], 0), random_net([3, 2, 1], 1)], NAMES, Scaler(np.zeros(3), np.ones(3)))
    with pytest.raises(ModelFileError, match="net 1 .* expected 3"):
        Model([random_net([4, 2, 1], 0)], NAMES, Scaler(np.zeros(3), np.ones(3)))


def test_load_default_is_none_while_no_model_is_shipped(tmp_path, monkeypatch):
    monkeypatch.setattr(model_file, "DEFAULT_MODEL", tmp_path / "absent.npz")
    assert model_file.load_default() is None
    model_file.save(tmp_path / "absent.npz", two_net_model())
    assert model_file.load_default().layout == [[3, 4, 1], [10, 4, 2, 1]]


def test_the_scoring_path_never_imports_torch():
    code = ("import sys, seog.scoring.score, seog.classifiers.cascade, seog.classifiers.model_file; "
            "seog.classifiers.model_file.load_default(); assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
