"""Activation behaviour that energy-based models and score matching run into: second derivatives
at the kinks (ELU/CELU/SELU at 0, softplus at its threshold, Mish at 0), NaN propagation in the
piecewise activations, the signed zeros of softshrink, Mish/SiLU gradients in float16 under
create_graph, the in-place negative-slope errors and module reprs. Checked against PyTorch where
installed, and against analytic values without it.
"""
import math

import numpy as np
import pytest

import tapegrad
import tapegrad.nn as tnn
import tapegrad.nn.functional as TF
from same_as_torch import assert_same, outcome

NAN = float("nan")


def _second_derivative(lib, fn, values, dtype_name="float64"):
    """(first, second) derivative of ``sum(fn(x))`` at ``values`` through create_graph."""
    x = lib.tensor(values, dtype=getattr(lib, dtype_name), requires_grad=True)
    (g,) = lib.autograd.grad(fn(lib.nn.functional, x * 1).sum(), x, create_graph=True)
    (h,) = lib.autograd.grad(g.sum(), x)
    return g, h


# ------------------------------------------------------------------ truths without PyTorch

def test_mish_second_derivative_at_zero_is_0_64():
    """mish'' (0) = 2·sigmoid(0)·(1 - tanh(log 2)^2) = 0.64 (not 0.96 from a kinked softplus)."""
    _, h = _second_derivative(tapegrad, lambda F, x: F.mish(x), [0.0])
    assert h.item() == pytest.approx(0.64, abs=1e-12)


@pytest.mark.parametrize("fn", [lambda F, x: F.elu(x, 0.5), lambda F, x: F.celu(x, 2.0),
                                lambda F, x: F.selu(x),
                                lambda F, x: F.elu(x, 0.5, inplace=True)])
def test_elu_family_curvature_is_zero_at_zero(fn):
    g, h = _second_derivative(tapegrad, fn, [-1.0, 0.0, -0.0, 1.0])
    assert h.tolist()[1:] == [0.0, 0.0, 0.0]
    assert h.tolist()[0] > 0


def test_softplus_curvature_is_zero_at_the_threshold():
    g, h = _second_derivative(tapegrad, lambda F, x: F.softplus(x, beta=2.0, threshold=2.0),
                              [0.0, 0.999, 1.0])
    s = 1 / (1 + math.exp(-2.0))
    assert g.tolist()[2] == pytest.approx(s)  # still the smooth slope at the threshold ...
    assert h.tolist()[2] == 0.0  # ... but no curvature
    assert h.tolist()[0] == pytest.approx(0.5)


def test_piecewise_activations_propagate_nan():
    x = tapegrad.tensor([NAN, -0.3, 0.3, -1.0], requires_grad=True)
    for fn in [lambda t: TF.softshrink(t, 0.5), lambda t: TF.hardshrink(t, 0.5),
               lambda t: TF.threshold(t, 0.5, -1.0)]:
        assert math.isnan(fn(x)[0].item())
    for fn in [lambda t: TF.softshrink(t, 0.5), lambda t: TF.hardshrink(t, 0.5), TF.hardtanh,
               TF.relu6, TF.elu, TF.selu, TF.hardswish]:
        (g,) = tapegrad.autograd.grad(fn(x).sum(), x)
        assert not math.isnan(g[0].item()) and g[0].item() != 0, fn


def test_softshrink_zero_sign_follows_kernel_tail():
    """+0 in ATen's vectorized body (16 float32 lanes per step), ``a * 0`` in the scalar tail."""
    y = TF.softshrink(tapegrad.full((20,), -0.3), 0.5)
    assert np.signbit(y.numpy()).tolist() == [False] * 16 + [True] * 4


def test_in_place_negative_slope_refuses_backward():
    z = tapegrad.ones(3, requires_grad=True)
    for fn, name in [(lambda t: TF.leaky_relu(t, -0.5, inplace=True), "leakyReLu"),
                     (lambda t: TF.elu(t, -0.5, inplace=True), "elu")]:
        y = fn(z * 1)
        with pytest.raises(RuntimeError, match=f"In-place {name} backward calculation"):
            y.sum().backward()


def test_hardswish_and_hardsigmoid_repr_hide_inplace():
    assert repr(tnn.Hardswish(inplace=True)) == "Hardswish()"
    assert repr(tnn.Hardsigmoid(inplace=True)) == "Hardsigmoid()"
    assert repr(tnn.SiLU(inplace=True)) == "SiLU(inplace=True)"


# ------------------------------------------------------------------ against PyTorch

_KINK_VALUES = [-100.0, -3.0, -1.0, -0.0, 0.0, 1.0, 2.0, 3.0, 20.0, 100.0, 1000.0, NAN]
_FUNCTIONS = {
    "elu": lambda F, x: F.elu(x, 0.7),
    "elu_inplace": lambda F, x: F.elu(x, 0.7, inplace=True),
    "celu": lambda F, x: F.celu(x, 3.0),
    "selu_inplace": lambda F, x: F.selu(x, inplace=True),
    "softplus": lambda F, x: F.softplus(x, beta=2.0, threshold=4.0),
    "softplus_beta_half": lambda F, x: F.softplus(x, beta=0.5, threshold=1.0),
    "mish": lambda F, x: F.mish(x),
    "silu": lambda F, x: F.silu(x),
    "hardswish": lambda F, x: F.hardswish(x),
    "softshrink": lambda F, x: F.softshrink(x, 1.0),
    "hardtanh": lambda F, x: F.hardtanh(x, -1.0, 2.0),
}


@pytest.mark.parametrize("name", list(_FUNCTIONS))
@pytest.mark.parametrize("dtype_name", ["float64", "float32", "float16"])
def test_second_derivatives_match_torch(name, dtype_name):
    torch = pytest.importorskip("torch")
    values = [v for v in _KINK_VALUES if dtype_name != "float16" or abs(v) < 100]

    def case(lib):
        return _second_derivative(lib, _FUNCTIONS[name], values, dtype_name)

    if dtype_name != "float16":
        assert_same(case, torch)
        return
    for ours, theirs in zip(outcome(tapegrad, case), outcome(torch, case)):
        # each op rounds to float16: a last-bit difference in a intermediate is allowed
        np.testing.assert_allclose(ours, theirs, rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("dtype_name", ["float16", "float32"])
def test_mish_silu_float16_first_derivative_under_create_graph(dtype_name):
    torch = pytest.importorskip("torch")

    def case(lib):
        x = lib.linspace(-5, 5, 11, dtype=getattr(lib, dtype_name), requires_grad=True)
        out = []
        for fn in (lib.nn.functional.mish, lib.nn.functional.silu):
            (g,) = lib.autograd.grad(fn(x).sum(), x, create_graph=True)
            out.append((g, g.grad_fn.name()))
        return out

    assert_same(case, torch)


def test_nan_and_zero_signs_match_torch():
    torch = pytest.importorskip("torch")
    values = [NAN, -0.3, -0.0, 0.0, 0.3, -1.0, -math.inf, math.inf]

    def case(lib):
        F = lib.nn.functional
        x = lib.tensor(values, requires_grad=True)
        out = []
        for fn in [lambda t: F.softshrink(t, 0.5), lambda t: F.hardshrink(t, 0.5),
                   lambda t: F.threshold(t, 0.5, -1.0), F.hardtanh, F.relu6, F.elu, F.selu,
                   F.hardswish]:
            y = fn(x)
            (g,) = lib.autograd.grad(y.sum(), x)
            out.append((y, np.signbit(y.detach().numpy()).tolist(), g))
        return out

    assert_same(case, torch)


def test_in_place_negative_slope_errors_match_torch():
    torch = pytest.importorskip("torch")
    for fn in [lambda F, t: F.leaky_relu(t, -0.5, inplace=True),
               lambda F, t: F.elu(t, -0.5, inplace=True),
               lambda F, t: F.celu(t, -0.5, inplace=True)]:
        def case(lib, fn=fn):
            z = lib.ones(3, requires_grad=True)
            fn(lib.nn.functional, z * 1).sum().backward()
            return z.grad

        assert_same(case, torch)


def test_activation_reprs_match_torch():
    torch = pytest.importorskip("torch")
    for make in [lambda nn: nn.Hardswish(inplace=True), lambda nn: nn.Hardsigmoid(inplace=True),
                 lambda nn: nn.Mish(inplace=True), lambda nn: nn.SELU(inplace=True),
                 lambda nn: nn.Hardswish()]:
        assert repr(make(tnn)) == repr(make(torch.nn))


def test_tanh_gelu_saturates_like_aten():
    """ATen's GELU kernel uses SLEEF's tanh, exactly ±1 beyond |inner| > 8.664: the tail of the
    tanh approximation is -0 with a zero gradient far below zero, and x itself far above."""
    x = tapegrad.tensor([-6.0, -5.5, 5.5, 6.0], requires_grad=True)
    y = TF.gelu(x, approximate="tanh")
    (g,) = tapegrad.autograd.grad(y.sum(), x)
    assert y.tolist() == [0.0, 0.0, 5.5, 6.0] and np.signbit(y.detach().numpy()[:2]).all()
    assert g.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_tanh_gelu_matches_torch_across_the_range():
    torch = pytest.importorskip("torch")

    def case(lib):
        x = lib.linspace(-7, 7, 281, requires_grad=True)
        y = lib.nn.functional.gelu(x, approximate="tanh")
        (g,) = lib.autograd.grad(y.sum(), x)
        return y, g

    assert_same(case, torch)
