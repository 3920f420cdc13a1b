"""LLM fine-tuning internals as PyTorch does them: ``rms_norm`` of a float16 input computed in
float32 (with float32's epsilon by default) and cast back, and activation checkpointing's
options and limits (the explicit ``use_reentrant`` warning, ``context_fn``/``determinism_check``,
double backward through the non-reentrant form, the reentrant form refusing ``.grad()``).

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); independent checks (analytic values and derivatives) run without PyTorch.
"""
import contextlib
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as F
from tapegrad.utils.checkpoint import checkpoint, checkpoint_sequential

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


# --- rms_norm in half precision -----------------------------------------------------------------

def test_half_rms_norm_does_not_overflow_and_matches_float32():
    x = tapegrad.tensor([[300.0, -200.0, 100.0, 50.0]], dtype=tapegrad.float16)
    out = F.rms_norm(x, (4,))
    expected = x.float().numpy() / np.sqrt(np.mean(x.float().numpy() ** 2) + np.finfo(np.float32).eps)
    assert out.dtype == tapegrad.float16
    np.testing.assert_allclose(out.float().numpy(), expected, rtol=1e-3)


def test_half_rms_norm_default_eps_is_float32_epsilon():
    x = tapegrad.tensor([[1e-4, 0.0, 0.0]], dtype=tapegrad.float16)
    mean_square = float(x.float()[0, 0]) ** 2 / 3
    expected = float(x.float()[0, 0]) / np.sqrt(mean_square + np.finfo(np.float32).eps)
    np.testing.assert_allclose(float(F.rms_norm(x, (3,))[0, 0]), expected, rtol=2e-3)


def test_half_rms_norm_casts_back_last():
    x = tapegrad.ones(2, 3, dtype=tapegrad.float16, requires_grad=True)
    weight = tapegrad.ones(3, dtype=tapegrad.float16)
    assert F.rms_norm(x, (3,), weight).grad_fn.name() == "ToCopyBackward0"
    assert F.rms_norm(x.detach().float().requires_grad_(), (3,)).grad_fn.name() == "MulBackward0"


@pytest.mark.parametrize("eps", [None, 1e-6, 3e-7])
def test_half_rms_norm_same_as_torch(torch, eps):
    def case(lib):
        x = lib.tensor([[1e-3, 0.0, 0.0], [300.0, -200.0, 100.0], [0.1, 0.3, 0.7]],
                       dtype=lib.float16, requires_grad=True)
        w = lib.tensor([1.37, 2.11, 3.03], dtype=lib.float16)
        y = lib.nn.functional.rms_norm(x, (3,), w, eps)
        y.float().pow(2).sum().backward()
        return y, x.grad, lib.nn.RMSNorm(3, eps=eps)(x.detach())
    assert_same(case, torch)


# --- checkpoint --------------------------------------------------------------------------------

def test_checkpoint_without_use_reentrant_warns_at_the_caller():
    x = tapegrad.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly") as w:
        checkpoint(lambda t: t * 2, x)
    assert w[0].filename == __file__
    with pytest.warns(UserWarning, match="checkpoint_sequential: the use_reentrant parameter"):
        checkpoint_sequential([tapegrad.nn.Tanh()], 1, x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        checkpoint(lambda t: t * 2, x, use_reentrant=False)


def test_non_reentrant_checkpoint_has_second_derivatives():
    w = tapegrad.tensor([0.5, -1.0, 2.0], dtype=tapegrad.float64, requires_grad=True)
    f = checkpoint(lambda t: (t.sin() * t ** 2).sum(), w, use_reentrant=False)
    (g,) = tapegrad.autograd.grad(f, w, create_graph=True)
    (h,) = tapegrad.autograd.grad(g.sum(), w)
    t = w.detach().numpy()
    np.testing.assert_allclose(g.detach().numpy(), np.cos(t) * t ** 2 + 2 * t * np.sin(t))
    np.testing.assert_allclose(h.numpy(), -np.sin(t) * t ** 2 + 4 * t * np.cos(t) + 2 * np.sin(t))


def test_non_reentrant_checkpoint_passes_gradgradcheck():
    x = tapegrad.tensor([0.3, -0.7], dtype=tapegrad.float64, requires_grad=True)
    w = tapegrad.tensor([1.5, 0.4], dtype=tapegrad.float64, requires_grad=True)
    fn = lambda x, w: checkpoint(lambda a, b: (a * b).tanh() ** 3, x, w, use_reentrant=False)  # noqa: E731
    assert tapegrad.autograd.gradgradcheck(fn, (x, w))


def test_context_fn_enters_forward_then_recompute_context():
    entered = []

    @contextlib.contextmanager
    def tag(name):
        entered.append(name)
        yield

    x = tapegrad.ones(3, requires_grad=True)
    y = checkpoint(lambda t: t.exp(), x, use_reentrant=False,
                   context_fn=lambda: (tag("forward"), tag("recompute")))
    assert entered == ["forward"]
    y.sum().backward()
    assert entered == ["forward", "recompute"]


@pytest.mark.parametrize("kwargs", [
    dict(use_reentrant=False, determinism_check="shape"),
    dict(use_reentrant=True, debug=True),
    dict(use_reentrant=True, context_fn=lambda: None),
    dict(use_reentrant=True, extra=1),
    dict(use_reentrant=False, determinism_check="none", debug=False, early_stop=False,
         preserve_rng_state=False),
])
def test_checkpoint_options_same_as_torch(torch, kwargs):
    def case(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return lib.utils.checkpoint.checkpoint(lambda t: t * 3, x, **kwargs)
    assert_same(case, torch)


@pytest.mark.parametrize("via", ["grad", "backward_inputs"])
def test_reentrant_checkpoint_refuses_targeted_backward(torch, via):
    def case(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: t ** 3, x, use_reentrant=True).sum()
        if via == "grad":
            return lib.autograd.grad(y, x)
        y.backward(inputs=[x])
        return x.grad
    assert_same(case, torch)


def test_reentrant_checkpoint_plain_backward_still_works():
    x = tapegrad.tensor([1.0, 2.0], requires_grad=True)
    checkpoint(lambda t: t ** 3, x, use_reentrant=True).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])


# --- float16 activations -----------------------------------------------------------------------

HALF_ACTIVATIONS = {
    "silu": lambda F, t: F.silu(t),
    "gelu": lambda F, t: F.gelu(t),
    "gelu_tanh": lambda F, t: F.gelu(t, approximate="tanh"),
    "mish": lambda F, t: F.mish(t),
    "softplus": lambda F, t: F.softplus(t, beta=2.0),
    "elu": lambda F, t: F.elu(t),
    "selu": lambda F, t: F.selu(t),
    "hardswish": lambda F, t: F.hardswish(t),
    "leaky_relu": lambda F, t: F.leaky_relu(t, 0.1),
    "glu": lambda F, t: F.glu(t.view(3, 6)),
}


@pytest.mark.parametrize("name", sorted(set(HALF_ACTIVATIONS) - {"glu"}))
def test_half_activation_is_float32_rounded_once(name):
    """The float16 result and gradient equal the float32 computation rounded to float16 (GLU's
    gradient, whose kernel rounds the gate's sigmoid first, is compared with PyTorch below)."""
    fn = HALF_ACTIVATIONS[name]
    x = tapegrad.linspace(-4, 4, 18).half().requires_grad_(True)
    y = fn(F, x)
    (g,) = tapegrad.autograd.grad(y.float().sum(), x)
    x32 = x.detach().float().requires_grad_(True)
    y32 = fn(F, x32)
    (g32,) = tapegrad.autograd.grad(y32.sum(), x32)
    assert y.dtype == g.dtype == tapegrad.float16
    np.testing.assert_allclose(y.detach().float().numpy(), y32.detach().half().float().numpy(),
                               rtol=1e-3, atol=1e-7)
    np.testing.assert_allclose(g.float().numpy(), g32.half().float().numpy(), rtol=1e-3, atol=1e-7)


@pytest.mark.parametrize("name", ["silu", "gelu_tanh", "mish", "elu", "hardswish", "glu"])
def test_half_activation_same_as_torch(torch, name):
    fn = HALF_ACTIVATIONS[name]

    def case(lib):
        x = lib.linspace(-5, 5, 18, dtype=lib.float16, requires_grad=True)
        y = fn(lib.nn.functional, x)
        (g,) = lib.autograd.grad(y.sum(), x)
        return y, g
    assert_same(case, torch)


def test_half_prelu_same_as_torch(torch):
    def case(lib):
        x = lib.linspace(-2, 2, 12, dtype=lib.float16).view(4, 3).requires_grad_(True)
        m = lib.nn.PReLU(3, init=0.15).half()
        y = m(x)
        y.sum().backward()
        return y, x.grad, m.weight.grad
    assert_same(case, torch)


# --- float16 layer / group / batch norm --------------------------------------------------------

def _big_half(lib):
    return (lib.linspace(-3, 3, 24).view(2, 3, 4) * 100).half()


def test_half_layer_norm_of_large_values_is_finite_and_normalised():
    x = _big_half(tapegrad).requires_grad_(True)
    y = F.layer_norm(x, (4,))
    y.float().pow(2).sum().backward()
    x32 = x.detach().float().numpy()
    centered = x32 - x32.mean(-1, keepdims=True)
    expected = centered / np.sqrt((centered ** 2).mean(-1, keepdims=True) + 1e-5)
    assert y.dtype == x.grad.dtype == tapegrad.float16
    np.testing.assert_allclose(y.detach().float().numpy(), expected, rtol=1e-3)
    assert np.isfinite(x.grad.float().numpy()).all()


def test_half_batch_norm_updates_running_stats_in_float32():
    bn = tapegrad.nn.BatchNorm1d(3)
    x = _big_half(tapegrad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow in the variance of x
        bn(x)
    x32 = x.float().numpy()
    np.testing.assert_allclose(bn.running_var.numpy(), 0.9 + 0.1 * x32.var((0, 2), ddof=1),
                               rtol=1e-5)


@pytest.mark.parametrize("module", ["layer", "group", "batch_half", "batch_half_eval",
                                    "batch_mixed_eval"])
def test_half_normalisation_same_as_torch(torch, module):
    def case(lib):
        x = _big_half(lib).requires_grad_(True)
        m = {"layer": lambda: lib.nn.LayerNorm(4).half(),
             "group": lambda: lib.nn.GroupNorm(1, 3).half(),
             "batch_half": lambda: lib.nn.BatchNorm1d(3).half(),
             "batch_half_eval": lambda: lib.nn.BatchNorm1d(3).half(),
             "batch_mixed_eval": lambda: lib.nn.BatchNorm1d(3)}[module]()
        if module.endswith("eval"):
            with lib.no_grad():
                m.running_mean.fill_(3.0)
                m.running_var.fill_(900.0)
            m.eval()
        y = m(x)
        y.float().sum().backward()
        return y, getattr(m, "running_var", None), x.grad if module.endswith("eval") else None
    assert_same(case, torch)
