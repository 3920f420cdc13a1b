"""Differences found by the reinforcement-learning programs (rl2_*): the ``weight=`` argument of
``F.mse_loss`` / ``F.l1_loss`` / ``F.huber_loss`` (importance weights of prioritized replay), and
the target's gradient of the pointwise losses computed by the swapped rule, as PyTorch does (an
exact match gives ``+0.``, not ``-0.``)."""
import math

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

LOSSES = ("mse_loss", "l1_loss", "huber_loss")
REDUCTIONS = ("none", "sum", "mean")


def _pair(lib, requires_grad=False):
    input = lib.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=requires_grad)
    target = lib.tensor([[0.0, 1.0], [0.5, 0.25]])
    return input, target


def _weight(lib, requires_grad=False):
    return lib.tensor([[1.0, 0.5], [0.25, 2.0]], requires_grad=requires_grad)


# ------------------------------------------------------------------ weighted losses, vs PyTorch

@needs_torch
@pytest.mark.parametrize("name", LOSSES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_weighted_loss_values_and_gradients_match_torch(name, reduction):
    def case(lib):
        input, target = _pair(lib, requires_grad=True)
        weight = _weight(lib, requires_grad=True)
        loss = getattr(lib.nn.functional, name)(input, target, reduction=reduction, weight=weight)
        loss.sum().backward()
        return loss, input.grad, weight.grad
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("name", LOSSES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_weighted_loss_grad_fn_matches_torch(name, reduction):
    def node(lib):
        input, target = _pair(lib, requires_grad=True)
        loss = getattr(lib.nn.functional, name)(input, target, reduction=reduction,
                                                weight=_weight(lib))
        return loss.grad_fn.name()
    assert node(tapegrad) == node(torch)


@needs_torch
@pytest.mark.parametrize("name", LOSSES)
@pytest.mark.parametrize("bad", ["shape", "reduction"])
def test_weighted_loss_errors_match_torch(name, bad):
    def case(lib):
        input, target = _pair(lib)
        weight = lib.ones(4) if bad == "shape" else _weight(lib)
        reduction = "avg" if bad == "reduction" else "mean"
        return getattr(lib.nn.functional, name)(input, target, reduction=reduction, weight=weight)
    assert_same(case, torch)


@needs_torch
def test_weighted_loss_broadcast_target_and_legacy_reduction_match_torch():
    def case(lib):
        input = lib.tensor([[0.5], [2.0], [-1.0]])
        target = lib.tensor([0.0, 1.0, 3.0])
        weight = lib.tensor([[1.0], [0.5], [0.0]])
        return (lib.nn.functional.mse_loss(input, target, weight=weight),
                lib.nn.functional.huber_loss(input, target, weight=weight, delta=0.5),
                lib.nn.functional.mse_loss(input, target, weight=weight, reduce=False))
    assert_same(case, torch)


# ------------------------------------------------------------------ weighted losses, analytic

def test_weighted_mse_mean_divides_by_the_weights_sum():
    input, target = _pair(tapegrad)
    weight = _weight(tapegrad)
    loss = TF.mse_loss(input, target, weight=weight)
    squared = (np.array([[0.5, -1.0], [2.0, 0.25]]) - np.array([[0.0, 1.0], [0.5, 0.25]])) ** 2
    weights = np.array([[1.0, 0.5], [0.25, 2.0]])
    assert math.isclose(loss.item(), (squared * weights).sum() / weights.sum(), rel_tol=1e-6)


def test_weighted_huber_mean_divides_by_the_count():
    input, target = _pair(tapegrad)
    weight = _weight(tapegrad)
    unweighted = TF.huber_loss(input, target, reduction="none")
    loss = TF.huber_loss(input, target, weight=weight)
    assert math.isclose(loss.item(), (unweighted * weight).mean().item(), rel_tol=1e-6)


def test_weighted_l1_gradient_is_sign_times_weight_over_weight_sum():
    input, target = _pair(tapegrad, requires_grad=True)
    weight = _weight(tapegrad)
    TF.l1_loss(input, target, weight=weight).backward()
    expected = np.sign([[0.5, -2.0], [1.5, 0.0]]) * weight.numpy() / weight.numpy().sum()
    np.testing.assert_allclose(input.grad.numpy(), expected, rtol=1e-6)


# ------------------------------------------------------------------ target gradients

def _signbits(tensor):
    return np.signbit(tensor.numpy()).tolist()


@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "huber_loss"])
def test_target_gradient_of_an_exact_match_is_positive_zero(name):
    prediction = tapegrad.tensor([1.0, 2.0, 3.0])
    target = tapegrad.tensor([1.0, 1.5, 3.0], requires_grad=True)
    getattr(TF, name)(prediction, target).backward()
    assert _signbits(target.grad) == [False, True, False]


@needs_torch
@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "huber_loss"])
@pytest.mark.parametrize("scale", [1.0, -1.0])
def test_target_gradient_signs_match_torch(name, scale):
    def grads(lib):
        input = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        target = lib.tensor([1.0, 2.5, 3.0], requires_grad=True)
        (scale * getattr(lib.nn.functional, name)(input, target, reduction="sum")).backward()
        return _signbits(input.grad) + _signbits(target.grad)
    assert grads(tapegrad) == grads(torch)


@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "huber_loss"])
def test_target_gradient_matches_finite_differences(name):
    input = tapegrad.tensor([0.3, -1.7, 2.2], dtype=tapegrad.float64, requires_grad=True)
    target = tapegrad.tensor([0.1, 0.4, -0.6], dtype=tapegrad.float64, requires_grad=True)
    assert tapegrad.autograd.gradcheck(lambda a, b: getattr(TF, name)(a, b), (input, target))
    assert tapegrad.autograd.gradgradcheck(lambda a, b: getattr(TF, name)(a, b), (input, target))
