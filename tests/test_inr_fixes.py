"""Derivative formulas of coordinate-network activations and of division: the graphs that
``create_graph=True`` records (node names, as PyTorch's derivatives.yaml writes them) and the
values they give, checked against PyTorch and against closed forms."""
import math

import numpy as np
import pytest

import tapegrad

# (name, points inside the domain): second-order node names follow PyTorch's formulas
UNARY = [("asin", [0.0, 0.3, -0.45]), ("acos", [0.0, 0.3, -0.45]), ("erf", [0.0, 0.3, -0.45]),
         ("erfc", [0.0, 0.3, -0.45]), ("asinh", [0.0, 0.3, -0.45]), ("acosh", [1.5, 2.0, 3.0]),
         ("atanh", [0.0, 0.3, -0.45]), ("log1p", [0.0, 0.3, -0.45]), ("log2", [0.2, 0.3, 0.45]),
         ("log10", [0.2, 0.3, 0.45]), ("exp2", [0.0, 0.3, -0.45])]


def _derivatives(lib, name, points, dtype):
    """First, second and third derivatives of ``name`` at ``points`` (nested autograd.grad)."""
    x = lib.tensor(points, dtype=dtype, requires_grad=True)
    first, = lib.autograd.grad(getattr(lib, name)(x).sum(), x, create_graph=True)
    second, = lib.autograd.grad(first.sum(), x, create_graph=True)
    third, = lib.autograd.grad(second.sum(), x)
    return first, second, third


def _node_names(*tensors):
    return [type(t.grad_fn).__name__ for t in tensors]


@pytest.mark.parametrize("name,points", UNARY)
def test_higher_order_graphs_match_torch(name, points):
    torch = pytest.importorskip("torch")
    ours = _derivatives(tapegrad, name, points, tapegrad.float64)
    theirs = _derivatives(torch, name, points, torch.float64)
    assert _node_names(*ours[:2]) == _node_names(*theirs[:2])
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12)


@pytest.mark.parametrize("name", ["asin", "acos", "erf", "erfc", "asinh", "atanh", "log1p",
                                  "log2", "log10", "exp2", "acosh"])
def test_float32_slopes_bitwise_as_torch(name):
    """The formulas' order of operations is PyTorch's, so float32 slopes round the same way."""
    torch = pytest.importorskip("torch")
    points = {"acosh": [1.0001, 1.3, 1.7777, 10.3], "log2": [0.1234567, 0.37, 7.77777, 0.05],
              "log10": [0.1234567, 0.37, 7.77777, 0.05]}.get(name, [0.1234567, -0.37, 0.777777, 0.05])
    ours = _derivatives(tapegrad, name, points, tapegrad.float32)[0]
    theirs = _derivatives(torch, name, points, torch.float32)[0]
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def test_second_derivatives_closed_form():
    """d²/dx² asin = x (1-x²)^-3/2, erf'' = -4x/sqrt(pi) e^{-x²}, log2'' = -1/(x² ln 2)."""
    x = np.array([0.1, 0.3, -0.45])
    cases = {"asin": x * (1 - x * x) ** -1.5, "erf": -4 * x / math.sqrt(math.pi) * np.exp(-x * x)}
    for name, expected in cases.items():
        second = _derivatives(tapegrad, name, x.tolist(), tapegrad.float64)[1]
        np.testing.assert_allclose(second.detach().numpy(), expected, rtol=1e-12)
    second = _derivatives(tapegrad, "log2", [0.2, 0.5], tapegrad.float64)[1]
    np.testing.assert_allclose(second.detach().numpy(), -1 / (np.array([0.2, 0.5]) ** 2 * math.log(2)))


def _divide_gradients(lib):
    a = lib.linspace(0.1, 3.3, 7, requires_grad=True)
    b = lib.linspace(-2.2, 1.7, 7, requires_grad=True)
    grad_a, grad_b = lib.autograd.grad((a / b).sum(), (a, b), create_graph=True)
    (curvature,) = lib.autograd.grad(grad_b.sum(), b)
    return grad_a, grad_b, curvature


def test_division_denominator_gradient_as_torch():
    """-grad * ((a / b) / b): PyTorch's rounding in float32 and a Mul node under create_graph."""
    torch = pytest.importorskip("torch")
    ours, theirs = _divide_gradients(tapegrad), _divide_gradients(torch)
    assert type(ours[1].grad_fn).__name__ == type(theirs[1].grad_fn).__name__ == "MulBackward0"
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def test_division_second_derivative_closed_form():
    a = tapegrad.tensor([0.5, 2.0], dtype=tapegrad.float64, requires_grad=True)
    b = tapegrad.tensor([1.5, -4.0], dtype=tapegrad.float64, requires_grad=True)
    (grad_b,) = tapegrad.autograd.grad((a / b).sum(), b, create_graph=True)
    (second,) = tapegrad.autograd.grad(grad_b.sum(), b)
    np.testing.assert_allclose(grad_b.detach().numpy(), [-0.5 / 2.25, -2.0 / 16.0])
    np.testing.assert_allclose(second.numpy(), [2 * 0.5 / 1.5 ** 3, 2 * 2.0 / (-4.0) ** 3])
    assert tapegrad.autograd.gradcheck(lambda p, q: p / q, (a.detach().requires_grad_(),
                                                            b.detach().requires_grad_()))


def _jvp_of_coordinate_field(lib):
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    x = lib.tensor([0.3, 0.2])
    (value, field), (slope, _) = lib.func.jvp(lambda p: ((w * p).sin().sum(), p.cos()), (x,),
                                              (lib.ones(2),))
    return w, value, field, slope


def test_jvp_primal_output_is_an_alias_on_the_outer_graph():
    """torch.func.jvp unpacks its primal outputs from dual tensors: a view (AliasBackward0)
    when they depend on tensors outside the transform, no graph otherwise."""
    w, value, field, slope = _jvp_of_coordinate_field(tapegrad)
    assert type(value.grad_fn).__name__ == "AliasBackward0" and field.grad_fn is None
    value.backward()
    np.testing.assert_allclose(w.grad.numpy(), np.cos([0.15, -0.2]) * [0.3, 0.2], rtol=1e-6)
    np.testing.assert_allclose(slope.detach().numpy(), np.cos(0.15) * 0.5 - np.cos(-0.2), rtol=1e-6)


def test_jvp_primal_output_as_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _jvp_of_coordinate_field(tapegrad), _jvp_of_coordinate_field(torch)
    assert _node_names(ours[1]) == _node_names(theirs[1])
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6)


def _power_derivatives(lib):
    a = lib.tensor([0.0, 0.0, 2.0, 0.0], dtype=lib.float64, requires_grad=True)
    b = lib.tensor([-1.0, 1.0, 0.5, 0.0], dtype=lib.float64, requires_grad=True)
    grad_a, grad_b = lib.autograd.grad((a ** b).sum(), (a, b), create_graph=True)
    second = lib.autograd.grad(grad_b.sum(), (a, b))
    return (grad_a, grad_b) + second


def test_power_exponent_gradient_at_zero_base_as_torch():
    """d(0 ** b)/db is -inf for b < 0 and 0 for b >= 0 (PyTorch's mask); its double backward
    keeps the masked branch's nan, as PyTorch's nested where does."""
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_power_derivatives(tapegrad), _power_derivatives(torch)):
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def test_power_exponent_gradient_closed_form():
    grad_b = _power_derivatives(tapegrad)[1].detach().numpy()
    np.testing.assert_array_equal(grad_b[[0, 1, 3]], [-np.inf, 0.0, 0.0])
    np.testing.assert_allclose(grad_b[2], 2 ** 0.5 * math.log(2))
