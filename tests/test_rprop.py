"""The RPROP family followed epoch by epoch against sequences worked out by hand."""

import pytest

torch = pytest.importorskip("torch", reason="Rprop trains torch nets; torch is not installed")

from seog.classifiers.rprop import IRpropPlus, Rprop, Sarprop, make_optimizer  # noqa: E402 (needs torch)

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def run(opt, weight, grads, errors):
    """Feed the optimizer the given gradients and epoch errors; the weights after each epoch."""
    seen = []
    for g, e in zip(grads, errors):
        weight.grad = torch.tensor(g, dtype=torch.float64)
        opt.step(error=e)
        seen.append(weight.detach().clone().tolist())
    return seen


def close(a, b):
    return all(x == pytest.approx(y, abs=1e-12) for ra, rb in zip(a, b) for x, y in zip(ra, rb))


# Two weights from 0 with the initial step 0.1. Gradient signs per epoch: weight 0 (+, +, -, -),
# weight 1 (-, +, +, +); the error falls, falls, grows, falls.
GRADS = [[1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [-1.0, 1.0]]
ERRORS = [1.0, 0.9, 1.1, 1.0]


def test_rprop_backtracks_on_every_sign_flip():
    w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    seen = run(Rprop([w]), w, GRADS, ERRORS)
    # 1: both move one step against the gradient. 2: w0 kept its sign, step 0.12; w1 flipped: its
    # last change (+0.1) is undone and its step halves to 0.05. 3: w0 flipped: undo -0.12; w1 has no
    # stored gradient, moves 0.05. 4: w0 moves its halved step 0.06; w1 kept its sign, step 0.06.
    assert close(seen, [[-0.1, 0.1], [-0.22, 0.0], [-0.10, -0.05], [-0.04, -0.11]])


def test_irprop_plus_backtracks_only_when_the_error_grew():
    w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    seen = run(IRpropPlus([w]), w, GRADS, ERRORS)
    # Epoch 2: w1 flips while the error fell: no undo, it stays at 0.1 with step 0.05.
    # Epoch 3: w0 flips while the error grew: its last change is undone as in RPROP.
    assert close(seen, [[-0.1, 0.1], [-0.22, 0.1], [-0.10, 0.05], [-0.04, -0.01]])


def test_rprop_on_a_parabola_steps_back_to_the_last_good_weight():
    # E(w) = (w - 0.25)^2 from w = 0: steps 0.1, 0.12, 0.144 overshoot to 0.364; the flip takes the
    # weight back to 0.22 and halves the step; the same happens with 0.072 and 0.036.
    w = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = Rprop([w])

    def closure():
        opt.zero_grad()
        loss = ((w - 0.25) ** 2).sum()
        loss.backward()
        return loss

    seen = []
    for _ in range(8):
        opt.step(closure)
        seen.append(float(w.detach()))
    assert seen == pytest.approx([0.1, 0.22, 0.364, 0.22, 0.292, 0.22, 0.256, 0.22], abs=1e-12)


def test_steps_stay_between_their_bounds():
    w = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = Rprop([w], step_min=0.04, step_max=0.15)
    seen = run(opt, w, [[1.0]] * 4 + [[-1.0], [-1.0], [1.0]], [1.0] * 7)
    # growth 0.1, 0.12, 0.144, then capped at 0.15; the flip undoes 0.15 and halves the step to 0.075;
    # a fresh step of 0.075; the next flip would halve it to 0.0375 but the floor holds it at 0.04.
    assert [s[0] for s in seen] == pytest.approx([-0.1, -0.22, -0.364, -0.514, -0.364, -0.289, -0.364])
    assert float(opt.state[w]["step"]) == pytest.approx(0.04)


def test_sarprop_adds_annealed_noise_to_a_small_shrinking_step():
    seed, temperature = 7, 0.01
    w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    opt = Sarprop([w], temperature=temperature, seed=seed)
    seen = run(opt, w, [[1.0, 1.0], [-1.0, -1.0], [-1.0, -1.0]], [2.0, 2.0, 2.0])
    # The optimizer draws one uniform r per weight and epoch from its own generator; epoch 2 uses the
    # second draw. The step 0.1 is below k2 * E^2 = 0.4, so it becomes 0.05 + 3 * 2 * r * 2^(-0.02).
    gen = torch.Generator().manual_seed(seed)
    r = [torch.rand(2, generator=gen, dtype=torch.float64) for _ in range(2)][1]
    step = 0.05 + 3.0 * 2.0 * r * 2.0 ** (-temperature * 2)
    assert seen[0] == pytest.approx([-0.1, -0.1])
    assert seen[1] == pytest.approx([-0.1, -0.1])  # a flip never moves the weight in SARPROP
    assert seen[2] == pytest.approx((-0.1 + step).tolist())
    assert opt.state[w]["step"].tolist() == pytest.approx(step.tolist())


def test_sarprop_without_noise_when_the_step_is_already_large():
    w = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = Sarprop([w], temperature=0.02, seed=1)
    # E = 0.5: the threshold k2 * E^2 = 0.025 is below the step 0.1, so the flip only halves it.
    seen = run(opt, w, [[1.0], [-1.0], [-1.0]], [0.5, 0.5, 0.5])
    assert [s[0] for s in seen] == pytest.approx([-0.1, -0.1, -0.05])


def test_sarprop_noise_repeats_with_the_same_seed():
    def final(seed):
        w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
        opt = Sarprop([w], temperature=0.015, seed=seed)
        run(opt, w, [[1.0, -1.0, 1.0], [-1.0, 1.0, -1.0], [-1.0, 1.0, -1.0]], [1.5, 1.5, 1.5])
        return w.detach().tolist()

    assert final(3) == final(3)
    assert final(3) != final(4)


@pytest.mark.parametrize("method", ["rprop", "impro", "sarp10", "sarp15", "sarp20"])
def test_every_method_learns_xor_with_a_2_4_1_net(method):
    torch.manual_seed(0)
    x = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = torch.tensor([0.0, 1.0, 1.0, 0.0])
    net = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Sigmoid(), torch.nn.Linear(4, 1), torch.nn.Sigmoid())
    opt = make_optimizer(method, net.parameters(), seed=0)

    def closure():
        opt.zero_grad()
        loss = torch.sqrt(torch.mean((net(x).squeeze(1) - y) ** 2))
        loss.backward()
        return loss

    first = float(closure().detach())
    for _ in range(400):
        last = float(opt.step(closure).detach())
    assert first > 0.45 and last < 0.1


def test_unknown_method_and_bad_constants_are_refused():
    w = torch.zeros(1, requires_grad=True)
    with pytest.raises(ValueError, match="unknown training method"):
        make_optimizer("adam", [w])
    with pytest.raises(ValueError, match="eta"):
        Rprop([w], eta_plus=0.9)
    with pytest.raises(ValueError, match="error"):
        Rprop([w]).step()
