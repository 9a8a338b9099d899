"""The study's five full-batch training methods as torch optimizers: RPROP, iRPROP+ and SARPROP.

All three adapt one step size per weight from the sign of its gradient alone:

- the gradient kept its sign since the last epoch: the step grows by ``eta_plus`` (at most
  ``step_max``) and the weight moves one step against the gradient;
- the gradient flipped: the step shrinks by ``eta_minus`` (at least ``step_min``), the weight does
  not move on (RPROP undoes its last change; iRPROP+ does so only if the epoch's error grew;
  SARPROP never does), and the stored gradient is zeroed so the next epoch counts as a fresh start;
- no stored gradient (first epoch, or after a flip): the weight moves one step, the step unchanged.

SARPROP adds noise to a shrinking step that is already small: when a flip finds a step below
``k2 * E**2`` the new step is ``step * eta_minus + k3 * E * r * 2**(-T * epoch)``, with ``E`` the
epoch's RMS error, ``r`` uniform in [0, 1) from the optimizer's own seeded generator and ``epoch``
counted from 1. As in the study, its weight-decay term on the gradient is left out.

Each ``step`` needs the epoch's error: pass a closure that zeroes the gradients, computes the
error over the whole training set, calls ``backward()`` and returns it, or pass ``error=`` after
computing the gradients yourself. The sign rules make any error with the same minimum work alike;
training uses the RMS error.
"""

from __future__ import annotations

import math

import torch

ETA_PLUS, ETA_MINUS, STEP_INIT, STEP_MIN, STEP_MAX = 1.2, 0.5, 0.1, 1e-6, 50.0
SARPROP_K2, SARPROP_K3 = 0.1, 3.0


class _SignRule(torch.optim.Optimizer):
    """The update shared by the family; subclasses decide what a flip does to the step and the weight."""

    def __init__(self, params, eta_plus: float = ETA_PLUS, eta_minus: float = ETA_MINUS,
                 step_init: float = STEP_INIT, step_min: float = STEP_MIN, step_max: float = STEP_MAX):
        if not 0.0 < eta_minus < 1.0 < eta_plus:
            raise ValueError(f"need 0 < eta_minus < 1 < eta_plus, got {eta_minus} and {eta_plus}")
        if not 0.0 < step_min <= step_init <= step_max:
            raise ValueError(f"need 0 < step_min <= step_init <= step_max, got {step_min}, {step_init}, {step_max}")
        super().__init__(params, dict(eta_plus=eta_plus, eta_minus=eta_minus, step_init=step_init,
                                      step_min=step_min, step_max=step_max))
        self.epoch = 0
        self.prev_error = math.inf

    @torch.no_grad()
    def step(self, closure=None, error: float | None = None):
        """One epoch's update of every weight; returns the closure's error (or ``error``)."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
            if error is None:
                error = float(loss)
        if error is None:
            raise ValueError("this optimizer needs the epoch's error: pass a closure or error=")
        if not math.isfinite(error):
            raise ValueError(f"the training error is not a finite number: {error}")
        self.epoch += 1
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["prev_grad"] = torch.zeros_like(p)
                    state["step"] = torch.full_like(p, group["step_init"])
                self._update(p, p.grad, state, group, error)
        self.prev_error = error
        return loss if loss is not None else error

    def _update(self, p, grad, state, group, error):
        prev_grad, step = state["prev_grad"], state["step"]
        product = grad * prev_grad
        kept, flipped = product > 0, product < 0
        old_step = step.clone()
        grown = torch.clamp(step * group["eta_plus"], max=group["step_max"])
        step.copy_(torch.where(kept, grown, step))
        step.copy_(torch.where(flipped, self._flipped_step(old_step, group, error), step))
        move = torch.where(flipped, torch.zeros_like(p), -torch.sign(grad) * step)
        if self._undo(error):
            move = move + torch.where(flipped, torch.sign(prev_grad) * old_step, torch.zeros_like(p))
        p.add_(move)
        prev_grad.copy_(torch.where(flipped, torch.zeros_like(grad), grad))

    def _flipped_step(self, old_step, group, error):
        return torch.clamp(old_step * group["eta_minus"], min=group["step_min"])

    def _undo(self, error) -> bool:
        return False


class Rprop(_SignRule):
    """RPROP with weight backtracking: a flip undoes the weight's last change."""

    def _undo(self, error) -> bool:
        return True


class IRpropPlus(_SignRule):
    """iRPROP+: a flip undoes the weight's last change only if the epoch's error grew."""

    def _undo(self, error) -> bool:
        return error > self.prev_error


class Sarprop(_SignRule):
    """SARPROP: RPROP without backtracking, with annealed noise added to small shrinking steps."""

    def __init__(self, params, temperature: float = 0.01, k2: float = SARPROP_K2, k3: float = SARPROP_K3,
                 seed: int | None = None, **kwargs):
        if temperature <= 0:
            raise ValueError(f"the SARPROP temperature must be positive, got {temperature}")
        super().__init__(params, **kwargs)
        self.temperature, self.k2, self.k3 = temperature, k2, k3
        self.generator = torch.Generator()
        self.generator.manual_seed(seed if seed is not None else torch.seed())

    def _flipped_step(self, old_step, group, error):
        shrunk = torch.clamp(old_step * group["eta_minus"], min=group["step_min"])
        r = torch.rand(old_step.shape, generator=self.generator, dtype=old_step.dtype)
        noise = self.k3 * error * r * 2.0 ** (-self.temperature * self.epoch)
        noisy = torch.clamp(old_step * group["eta_minus"] + noise, min=group["step_min"], max=group["step_max"])
        return torch.where(old_step < self.k2 * error ** 2, noisy, shrunk)


METHODS = {
    "rprop": (Rprop, {}),
    "impro": (IRpropPlus, {}),
    "sarp10": (Sarprop, {"temperature": 0.01}),
    "sarp15": (Sarprop, {"temperature": 0.015}),
    "sarp20": (Sarprop, {"temperature": 0.02}),
}


def make_optimizer(method: str, params, seed: int | None = None, **kwargs) -> _SignRule:
    """The optimizer for one of the study's method names (``rprop``, ``impro``, ``sarp10/15/20``)."""
    try:
        cls, extra = METHODS[method]
    except KeyError:
        raise ValueError(f"unknown training method {method!r}; choose from {', '.join(METHODS)}") from None
    if cls is Sarprop:
        return cls(params, seed=seed, **extra, **kwargs)
    return cls(params, **extra, **kwargs)
