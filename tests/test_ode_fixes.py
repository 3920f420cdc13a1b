"""What neural-ODE, score-matching and gradient-penalty code found different from PyTorch:
``torch.func`` results that kept a graph when a transform ran inside another one, forward-mode
products through a rule that splits its cotangent by sign (logcumsumexp), and hardsigmoid's
missing second derivative.

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); the values are also checked against analytic results.
"""
import numpy as np
import pytest

import tapegrad

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def f64(lib, values, grad=False):
    return lib.tensor(values, dtype=lib.float64, requires_grad=grad)


# ------------------------------------------------ transforms run inside the function of another

def _energy(w, x):
    return (w * x ** 2).sum() + (w.sin() * x).sum()


def _nested_cases(lib):
    """(name, result) of transforms whose inner transform's leaves stay inside the outer one."""
    func = lib.func
    w = f64(lib, [1.0, 2.0, -0.5])
    xs = f64(lib, [[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]])
    per_example = func.vmap(func.grad(_energy, argnums=1), in_dims=(None, 0))
    return [
        ("grad(vmap(grad))", func.grad(lambda w: per_example(w, xs).sum())(w)),
        ("grad(grad)", func.grad(lambda w: func.grad(_energy, argnums=1)(w, xs[0]).sum())(w)),
        ("jacrev(vmap(grad))", func.jacrev(lambda w: per_example(w, xs))(w)),
        ("grad_and_value has_aux", func.grad_and_value(
            lambda w: (per_example(w, xs).sum(), func.grad(_energy)(w, xs[0])), has_aux=True)(w)),
    ]


def _flat(result):
    if isinstance(result, tuple):
        return [t for r in result for t in _flat(r)]
    return [result]


def test_results_of_nested_transforms_are_detached():
    """Nothing outside differentiates the inner transform's own leaves, so the outer result
    keeps no graph (PyTorch's outermost results never do)."""
    for name, result in _nested_cases(tapegrad):
        for t in _flat(result):
            assert t.grad_fn is None and not t.requires_grad, name


def test_nested_transform_values_are_analytic():
    """d/dw sum_n d/dx E(w, x_n) with E = sum w x^2 + sin(w) x: sum_n 2 x_n + cos(w)."""
    (_, result), *_ = _nested_cases(tapegrad)
    xs = np.array([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]])
    np.testing.assert_allclose(result.numpy(), 2 * xs.sum(0) + 2 * np.cos([1.0, 2.0, -0.5]))


def test_nested_transforms_same_as_torch(torch):
    ours, theirs = _nested_cases(tapegrad), _nested_cases(torch)
    for (name, a), (_, b) in zip(ours, theirs):
        for x, y in zip(_flat(a), _flat(b)):
            np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-10, err_msg=name)
            assert x.requires_grad == y.requires_grad, name


def test_outer_parameter_that_requires_grad_keeps_the_graph():
    """An inner transform's result that depends on a user's tensor requiring grad stays
    differentiable with respect to it."""
    w = f64(tapegrad, [1.0, 2.0, -0.5], grad=True)
    xs = f64(tapegrad, [[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]])
    g = tapegrad.func.vmap(tapegrad.func.grad(_energy, argnums=1), in_dims=(None, 0))(w, xs)
    assert g.requires_grad
    (dw,) = tapegrad.autograd.grad(g.sum(), w)
    np.testing.assert_allclose(dw.numpy(), 2 * xs.numpy().sum(0) + 2 * np.cos(w.detach().numpy()))


# ------------------------------------------------ forward-mode products through logcumsumexp

X = [0.3, -0.2, 0.5, 0.1]
V = [1.0, -1.0, 0.5, 2.0]


def _logcumsumexp_jacobian(x):
    """d out_k / d x_i = exp(x_i - out_k) for i <= k."""
    x = np.asarray(x)
    out = np.logaddexp.accumulate(x)
    return np.tril(np.exp(x[None, :] - out[:, None]))


def _forward_products(lib):
    f = lambda t: lib.logcumsumexp(t, 0)  # noqa: E731
    x, v = f64(lib, X), f64(lib, V)
    with lib.autograd.forward_ad.dual_level():
        dual = f(lib.autograd.forward_ad.make_dual(x, v))
        forward_ad = lib.autograd.forward_ad.unpack_dual(dual).tangent
    return (forward_ad,
            lib.func.jvp(f, (x,), (v,))[1],
            lib.func.jacfwd(f)(x),
            lib.autograd.functional.jacobian(f, x, vectorize=True, strategy="forward-mode"))


def test_logcumsumexp_forward_products_are_analytic():
    """Its rule sums the cotangent's positive and negative parts in log space, which has a kink
    at a zero cotangent: the double-vjp trick must not differentiate it there."""
    jacobian = _logcumsumexp_jacobian(X)
    forward_ad, jvp, jacfwd, functional = _forward_products(tapegrad)
    for product in (forward_ad, jvp):
        np.testing.assert_allclose(product.numpy(), jacobian @ np.asarray(V))
    for full in (jacfwd, functional):
        np.testing.assert_allclose(full.numpy(), jacobian)


def test_logcumsumexp_forward_products_same_as_torch(torch):
    assert_same(_forward_products, torch)


def test_functional_jvp_and_hvp_through_logcumsumexp_are_analytic():
    """(PyTorch's own double-backward trick differentiates at zero and gives nan here.)"""
    f = lambda t: tapegrad.logcumsumexp(t, 0)  # noqa: E731
    x, v = f64(tapegrad, X), f64(tapegrad, V)
    jacobian = _logcumsumexp_jacobian(X)
    _, jvp = tapegrad.autograd.functional.jvp(f, x, v)
    np.testing.assert_allclose(jvp.numpy(), jacobian @ np.asarray(V))
    _, hvp = tapegrad.autograd.functional.hvp(lambda t: f(t).sum(), x, v)
    _, vhp = tapegrad.autograd.functional.vhp(lambda t: f(t).sum(), x, v)
    np.testing.assert_allclose(hvp.numpy(), vhp.numpy())


# --------------------------------------------------------------------------------- hardsigmoid

def _hardsigmoid_penalty(lib):
    """A gradient penalty through hardsigmoid: needs the derivative of hardsigmoid_backward."""
    x = f64(lib, [-4.0, -1.0, 0.5, 2.0], grad=True)
    w = f64(lib, 2.0, grad=True)
    (g,) = lib.autograd.grad(lib.nn.functional.hardsigmoid(x * w).sum(), x, create_graph=True)
    return lib.autograd.grad((g ** 2).sum(), w)


def _hardsigmoid_gradient(lib):
    x = f64(lib, [-4.0, -1.0, 0.5, 2.0, 3.0], grad=True)
    (g,) = lib.autograd.grad(lib.nn.functional.hardsigmoid(x).sum(), x, create_graph=True)
    return g, g.grad_fn.name()


def test_hardsigmoid_second_derivative_is_refused():
    x = f64(tapegrad, [-4.0, -1.0, 0.5], grad=True)
    (g,) = tapegrad.autograd.grad(tapegrad.nn.functional.hardsigmoid(x).sum(), x,
                                  create_graph=True)
    assert repr(g.grad_fn).startswith("<NotImplemented object")
    np.testing.assert_array_equal(g.detach().numpy(), [0.0, np.float32(1 / 6), np.float32(1 / 6)])
    with pytest.raises(RuntimeError, match="^derivative for aten::hardsigmoid_backward is not "
                                           "implemented$"):
        _hardsigmoid_penalty(tapegrad)


def test_hardsigmoid_same_as_torch(torch):
    assert_same(_hardsigmoid_penalty, torch)
    ours, theirs = _hardsigmoid_gradient(tapegrad), _hardsigmoid_gradient(torch)
    np.testing.assert_array_equal(ours[0].detach().numpy(), theirs[0].detach().numpy())
    assert ours[1] == theirs[1]
