"""erfinv (function, method, in place, ``tapegrad.special``) and the normal distribution's cdf and
icdf: values, first and second derivatives and recorded nodes against finite differences and
PyTorch."""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad import distributions as D
from tapegrad.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)
INTERIOR = RNG.uniform(-0.9, 0.9, (3, 4))
# the points where erfinv is infinite or undefined, and the tails where it grows fastest
EDGES = np.array([1.0, -1.0, 1.5, -2.0, np.nan, 0.0, 0.999999, -0.9999, 1e-30])


def _graph_names(node):
    """Node names of a graph in depth-first order of its edges (None edges skipped)."""
    if node is None:
        return []
    names = [node.name()]
    for child, _ in node.next_functions:
        names += _graph_names(child)
    return names


# ----------------------------------------------------------------------------- erfinv itself

@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_values_equal_torchs(dtype_name):
    torch = pytest.importorskip("torch")
    values = np.concatenate([INTERIOR.ravel(), EDGES])
    ours = tapegrad.erfinv(tapegrad.tensor(values, dtype=getattr(tapegrad, dtype_name)))
    theirs = torch.erfinv(torch.tensor(values, dtype=getattr(torch, dtype_name)))
    assert str(ours.dtype) == str(theirs.dtype)
    # PyTorch's float32 kernel is a rational approximation; ours is exact to the float32 ulp
    tol = dict(rtol=1e-6) if dtype_name == "float32" else dict(rtol=1e-14)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **tol)


def test_integer_and_half_inputs_follow_torchs_dtypes():
    torch = pytest.importorskip("torch")
    for values, dtype_name in [([1, 0, -1, 2], "int64"), ([0.5, -0.25, 0.99], "float16")]:
        ours = tapegrad.tensor(values, dtype=getattr(tapegrad, dtype_name)).erfinv()
        theirs = torch.tensor(values, dtype=getattr(torch, dtype_name)).erfinv()
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy().astype(np.float64),
                                   theirs.numpy().astype(np.float64), rtol=1e-3)


def test_is_the_inverse_of_erf():
    x = tapegrad.tensor(INTERIOR, dtype=tapegrad.float64)
    np.testing.assert_allclose(tapegrad.erf(tapegrad.erfinv(x)).numpy(), INTERIOR, rtol=1e-14)


def test_gradients_match_finite_differences():
    x = tapegrad.tensor(INTERIOR, dtype=tapegrad.float64, requires_grad=True)
    assert gradcheck(tapegrad.erfinv, (x,))
    assert gradgradcheck(tapegrad.erfinv, (x,))


def test_derivative_is_the_analytic_one():
    x = tapegrad.tensor(INTERIOR, dtype=tapegrad.float64, requires_grad=True)
    (grad,) = tapegrad.autograd.grad(x.erfinv().sum(), x)
    y = np.array([[tapegrad.erfinv(tapegrad.tensor(v, dtype=tapegrad.float64)).item()
                   for v in row] for row in INTERIOR])
    np.testing.assert_allclose(grad.numpy(), math.sqrt(math.pi) / 2 * np.exp(y ** 2),
                               rtol=1e-13)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_first_and_second_derivatives_and_nodes_equal_torchs(dtype_name):
    torch = pytest.importorskip("torch")

    def derivatives(library):
        x = library.tensor(INTERIOR, dtype=getattr(library, dtype_name), requires_grad=True)
        y = library.erfinv(x)
        (grad,) = library.autograd.grad(y, x, library.ones_like(y), create_graph=True)
        (second,) = library.autograd.grad(grad.sum(), x)
        return y, grad, second

    ours, theirs = derivatives(tapegrad), derivatives(torch)
    tol = dict(rtol=2e-6) if dtype_name == "float32" else dict(rtol=1e-13)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), **tol)
    assert type(ours[0].grad_fn).__name__ == ours[0].grad_fn.name() == "ErfinvBackward0"
    assert ours[0].grad_fn.name() == theirs[0].grad_fn.name()
    # The backward graph is PyTorch's, except that tapegrad records a product with a Python number
    # as MulBackward0 where PyTorch's C++ formula records MulBackward1 (true of every rule).
    their_graph = [n.replace("MulBackward1", "MulBackward0")
                   for n in _graph_names(theirs[1].grad_fn)]
    assert _graph_names(ours[1].grad_fn) == their_graph
    assert their_graph[2:] == ["ExpBackward0", "PowBackward0", "ErfinvBackward0",
                               "torch::autograd::AccumulateGrad"]


def test_in_place_form_equals_torchs():
    torch = pytest.importorskip("torch")

    def run(library):
        x = library.tensor(INTERIOR, dtype=library.float64, requires_grad=True)
        y = x * 2 / 3
        returned = y.erfinv_()
        assert returned is y
        (grad,) = library.autograd.grad(y, x, library.ones_like(y))
        return y, grad

    (ours, our_grad), (theirs, their_grad) = run(tapegrad), run(torch)
    assert ours.grad_fn.name() == theirs.grad_fn.name() == "ErfinvBackward0"
    assert ours._version == theirs._version == 1
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-14)
    np.testing.assert_allclose(our_grad.numpy(), their_grad.numpy(), rtol=1e-13)


@pytest.mark.parametrize("make", [
    lambda lib: lib.tensor([1, 0]),  # the float result cannot be written into integers
    lambda lib: lib.tensor([0.5, 0.25], requires_grad=True),  # a leaf that requires grad
])
def test_in_place_errors_equal_torchs_and_leave_the_tensor_unchanged(make):
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as theirs:
        make(torch).erfinv_()
    target = make(tapegrad)
    with pytest.raises(RuntimeError) as ours:
        target.erfinv_()
    assert str(ours.value) == str(theirs.value)
    assert target.tolist() == make(torch).tolist() and target._version == 0


def test_erfinv_is_a_function_and_a_method_as_in_torch():
    torch = pytest.importorskip("torch")
    for name in ("erfinv", "erfinv_"):
        assert hasattr(tapegrad, name) == hasattr(torch, name)
        assert hasattr(tapegrad.Tensor, name) and hasattr(torch.Tensor, name)


# ------------------------------------------------------------------------ tapegrad.special

SPECIAL_CALLS = {
    "erf": lambda s, x: s.erf(x),
    "erfinv": lambda s, x: s.erfinv(x * 0.4),
    "expm1": lambda s, x: s.expm1(x),
    "exp2": lambda s, x: s.exp2(x),
    "log1p": lambda s, x: s.log1p(x.abs()),
    "logit": lambda s, x: s.logit(x.sigmoid(), eps=1e-3),
    "expit": lambda s, x: s.expit(x),
    "softmax": lambda s, x: s.softmax(x, 1, dtype=x.dtype),
    "log_softmax": lambda s, x: s.log_softmax(x, 0),
    "logsumexp": lambda s, x: s.logsumexp(x, 1, keepdim=True),
    "xlogy": lambda s, x: s.xlogy(x, x.abs() + 0.5),
    "xlog1py": lambda s, x: s.xlog1py(x, x.abs()),
    # the pointwise gaps (tests/test_ops_pointwise_gaps.py covers them across their domains)
    "entr": lambda s, x: s.entr(x.abs()),
    "erfc": lambda s, x: s.erfc(x),
    "erfcx": lambda s, x: s.erfcx(x),
    "sinc": lambda s, x: s.sinc(x),
    "i0": lambda s, x: s.i0(x),
    "i0e": lambda s, x: s.i0e(x),
    "i1": lambda s, x: s.i1(x),
    "i1e": lambda s, x: s.i1e(x),
    "ndtr": lambda s, x: s.ndtr(x),
    "log_ndtr": lambda s, x: s.log_ndtr(x),
    "ndtri": lambda s, x: s.ndtri(x.sigmoid()),
    "digamma": lambda s, x: s.digamma(x.abs() + 0.5),
    "psi": lambda s, x: s.psi(x.abs() + 0.5),
    "polygamma": lambda s, x: s.polygamma(2, x.abs() + 0.5),
    "gammaln": lambda s, x: s.gammaln(x.abs() + 0.5),
    "multigammaln": lambda s, x: s.multigammaln(x.abs() + 2, 3),
    "zeta": lambda s, x: s.zeta(3.0, x.abs() + 0.5),
    "round": lambda s, x: s.round(x * 3),
    # differentiable in x only (PyTorch's derivative for a is not implemented)
    "gammainc": lambda s, x: s.gammainc(x.detach().abs() + 0.5, x.abs() + 0.1),
    "gammaincc": lambda s, x: s.gammaincc(x.detach().abs() + 0.5, x.abs() + 0.1),
}


def test_every_special_function_has_a_case():
    """(The Bessel functions and polynomials PyTorch does not differentiate are tested in
    test_special_and_gradcheck.py.)"""
    from tapegrad.ops.special_functions import __all__ as not_differentiable
    differentiable = set(tapegrad.special.__all__) - set(not_differentiable)
    assert sorted(differentiable) == sorted(SPECIAL_CALLS)


@pytest.mark.parametrize("name", sorted(SPECIAL_CALLS))
def test_special_namespace_equals_torchs(name):
    torch = pytest.importorskip("torch")
    values = RNG.standard_normal((3, 4))

    def run(library):
        x = library.tensor(values, dtype=library.float64, requires_grad=True)
        out = SPECIAL_CALLS[name](library.special, x)
        (grad,) = library.autograd.grad(out.sum(), x)
        return out, grad

    for ours, theirs in zip(run(tapegrad), run(torch)):
        assert tuple(ours.shape) == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
        # atol: softmax's gradient of a sum is 0 exactly, and rounds to ±1e-17 either way
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-12,
                                   atol=1e-15)


# ------------------------------------------------------------------- Normal: cdf and icdf

LOC = RNG.standard_normal(4)
SCALE = RNG.uniform(0.5, 2.0, 4)
PROBABILITIES = RNG.uniform(0.02, 0.98, (2, 4))


@pytest.mark.parametrize("method", ["cdf", "icdf"])
def test_normal_cdf_and_icdf_and_their_gradients_equal_torchs(method):
    torch = pytest.importorskip("torch")
    value = PROBABILITIES if method == "icdf" else RNG.standard_normal((2, 4))

    def run(library):
        loc, scale, v = (library.tensor(a, dtype=library.float64, requires_grad=True)
                         for a in (LOC, SCALE, value))
        out = getattr(library.distributions.Normal(loc, scale), method)(v)
        grads = library.autograd.grad(out, (loc, scale, v), library.ones_like(out))
        return [out.detach(), *grads]

    for ours, theirs in zip(run(tapegrad), run(torch)):
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-14)


def test_normal_icdf_gradients_match_finite_differences():
    loc, scale, p = (tapegrad.tensor(a, dtype=tapegrad.float64, requires_grad=True)
                     for a in (LOC, SCALE, PROBABILITIES))
    assert gradcheck(lambda loc, scale, p: D.Normal(loc, scale).icdf(p), (loc, scale, p))


def test_normal_icdf_is_the_quantile_function():
    dist = D.Normal(tapegrad.tensor(LOC), tapegrad.tensor(SCALE))
    p = tapegrad.tensor(PROBABILITIES, dtype=tapegrad.float32)
    np.testing.assert_allclose(dist.cdf(dist.icdf(p)).numpy(), PROBABILITIES, rtol=1e-5)
    standard = D.Normal(0.0, 1.0).icdf(tapegrad.tensor([0.5, 0.975, 0.0, 1.0]))
    np.testing.assert_allclose(standard.numpy(), [0.0, 1.959964, -np.inf, np.inf], rtol=1e-6)


def test_normal_icdf_is_not_validated_as_in_torch():
    """PyTorch checks no probability in icdf, even with validate_args: outside [0, 1] is nan."""
    torch = pytest.importorskip("torch")
    outside = [1.5, -0.2, 1.0]
    ours = D.Normal(tapegrad.zeros(3), 1.0, validate_args=True).icdf(tapegrad.tensor(outside))
    theirs = torch.distributions.Normal(torch.zeros(3), 1.0, validate_args=True).icdf(
        torch.tensor(outside))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert np.isnan(ours.numpy()[:2]).all()


@pytest.mark.parametrize("call", [
    lambda d, lib: d.Normal(lib.zeros(3), 1.0, validate_args=True).cdf(
        lib.tensor([0.0, float("nan"), 1.0])),
    lambda d, lib: d.Normal(lib.zeros(3), 1.0, validate_args=True).cdf(lib.zeros(2)),
    lambda d, lib: d.Normal(0.0, 1.0, validate_args=True).cdf(0.5),
])
def test_normal_cdf_validation_errors_equal_torchs(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError) as theirs:
        call(torch.distributions, torch)
    with pytest.raises(ValueError) as ours:
        call(D, tapegrad)
    assert str(ours.value) == str(theirs.value)
