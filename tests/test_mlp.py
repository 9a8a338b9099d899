"""The numpy forward pass: the study's topologies, and the same outputs as the torch net it was trained as."""

import numpy as np
import pytest

from seog.classifiers.mlp import Net, layer_sizes, topology_name

torch = pytest.importorskip("torch", reason="the numpy net is checked against the torch net it was trained as, "
                            "and torch is not installed")

from seog.classifiers.train import to_numpy_net, torch_net  # noqa: E402 (needs torch)


@pytest.mark.parametrize("inputs, hidden, layers, name", [
    (33, 2, 1, "33-2-1"), (33, 12, 1, "33-12-1"), (33, 32, 1, "33-32-1"),
    (33, 16, 3, "33-16-8-4-1"), (89, 32, 1, "89-32-1"), (40, 32, 1, "40-32-1"),
])
def test_layer_sizes_name_the_study_topologies(inputs, hidden, layers, name):
    assert topology_name(layer_sizes(inputs, hidden, layers)) == name


@pytest.mark.parametrize("sizes", [[33, 32, 1], [33, 16, 8, 4, 1], [89, 32, 1], [40, 2, 1]])
def test_numpy_inference_equals_torch_inference(sizes):
    module = torch_net(sizes, seed=5, dtype=torch.float64)
    # Large weights, as training leaves them, so that the outputs span the whole sigmoid.
    gen = torch.Generator().manual_seed(5)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=gen, dtype=torch.float64) * 3.0)
    x = np.random.default_rng(1).uniform(-1.0, 1.0, (500, sizes[0]))
    with torch.no_grad():
        expected = module(torch.from_numpy(x)).squeeze(1).numpy()
    got = to_numpy_net(module).predict(x)
    assert np.max(np.abs(got - expected)) < 1e-6
    assert np.ptp(got) > 0.05  # the rows really differ: the comparison is not between constants


def test_a_float32_trained_net_runs_in_float64_within_1e_6():
    module = torch_net([33, 32, 1], seed=2)  # float32, as training uses
    x = np.random.default_rng(3).random((200, 33))
    with torch.no_grad():
        expected = module(torch.from_numpy(x.astype(np.float32))).squeeze(1).double().numpy()
    assert np.max(np.abs(to_numpy_net(module).predict(x) - expected)) < 1e-6


def test_extreme_inputs_saturate_without_warnings():
    net = Net([np.array([[100.0]])], [np.array([0.0])])
    with np.errstate(all="raise"):
        assert net.predict(np.array([[-50.0], [50.0]])).tolist() == [0.0, 1.0]


def test_malformed_nets_and_inputs_are_refused():
    with pytest.raises(ValueError, match="one output"):
        Net([np.zeros((2, 3))], [np.zeros(2)])
    with pytest.raises(ValueError, match="feeds"):
        Net([np.zeros((4, 3)), np.zeros((1, 5))], [np.zeros(4), np.zeros(1)])
    with pytest.raises(ValueError, match="3 inputs"):
        Net([np.zeros((1, 3))], [np.zeros(1)]).predict(np.zeros((2, 4)))
    with pytest.raises(ValueError, match="hidden"):
        layer_sizes(33, 0)
