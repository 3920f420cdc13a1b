"""autograd.functional: values against analytic formulas and PyTorch, output structure,
create_graph and strict semantics."""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import functional as F

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3))
Y = RNG.standard_normal(3)
V_OUT = RNG.standard_normal(3)
V_X = RNG.standard_normal((2, 3))
V_Y = RNG.standard_normal(3)


def _t(library, array):
    return library.tensor(array, dtype=library.float64)


def _vector_function(x):
    """R^{2×3} → R^3: y_j = exp(x_0j) · sin(x_1j)."""
    return x[0].exp() * x[1].sin()


def _pair_function(x, y):
    """Two outputs of two inputs, one output independent of y."""
    return (x * y).sum(0), x.pow(2).sum()


def _scalar_function(x, y):
    return (x.sin() * y).sum() + (x ** 3).sum() * y.pow(2).sum()


def test_jacobian_of_an_elementwise_function_is_analytic():
    x = tapegrad.tensor(X)
    jac = F.jacobian(_vector_function, x)
    assert jac.shape == (3, 2, 3)
    expected = np.zeros((3, 2, 3))
    for j in range(3):
        expected[j, 0, j] = np.exp(X[0, j]) * np.sin(X[1, j])
        expected[j, 1, j] = np.exp(X[0, j]) * np.cos(X[1, j])
    np.testing.assert_allclose(jac.numpy(), expected, rtol=1e-12)
    assert not jac.requires_grad


def test_hessian_of_a_quadratic_form_is_the_symmetrised_matrix():
    a = RNG.standard_normal((4, 4))
    a_t = tapegrad.tensor(a)
    hess = F.hessian(lambda x: x @ (a_t @ x), tapegrad.tensor(RNG.standard_normal(4)))
    np.testing.assert_allclose(hess.numpy(), a + a.T, rtol=1e-12)


def test_products_agree_with_the_full_matrices():
    x, y = tapegrad.tensor(X), tapegrad.tensor(Y)
    v_x, v_y = tapegrad.tensor(V_X), tapegrad.tensor(V_Y)
    (j_xx, j_xy), _ = F.jacobian(_pair_function, (x, y))
    _, (jvp_0, _) = F.jvp(_pair_function, (x, y), (v_x, v_y))
    np.testing.assert_allclose(jvp_0.numpy(), np.tensordot(j_xx.numpy(), V_X, 2)
                               + j_xy.numpy() @ V_Y, rtol=1e-12)
    (h_xx, h_xy), (h_yx, h_yy) = F.hessian(_scalar_function, (x, y))
    _, (hvp_x, hvp_y) = F.hvp(_scalar_function, (x, y), (v_x, v_y))
    _, (vhp_x, vhp_y) = F.vhp(_scalar_function, (x, y), (v_x, v_y))
    expected_x = np.tensordot(h_xx.numpy(), V_X, 2) + h_xy.numpy() @ V_Y
    expected_y = np.tensordot(h_yx.numpy(), V_X, 2) + h_yy.numpy() @ V_Y
    for got, expected in ((hvp_x, expected_x), (vhp_x, expected_x), (hvp_y, expected_y),
                          (vhp_y, expected_y)):
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10)


CASES = {
    "vjp": lambda lib, F: F.vjp(_vector_function, _t(lib, X), _t(lib, V_OUT)),
    "vjp-tuple": lambda lib, F: F.vjp(_pair_function, (_t(lib, X), _t(lib, Y)),
                                      (_t(lib, V_OUT), _t(lib, 2.0))),
    "jvp": lambda lib, F: F.jvp(_vector_function, _t(lib, X), _t(lib, V_X)),
    "jvp-tuple": lambda lib, F: F.jvp(_pair_function, (_t(lib, X), _t(lib, Y)),
                                      (_t(lib, V_X), _t(lib, V_Y))),
    "jvp-scalar-no-v": lambda lib, F: F.jvp(lambda t: t.exp() * 3, _t(lib, 0.5)),
    "jacobian": lambda lib, F: F.jacobian(_vector_function, _t(lib, X)),
    "jacobian-tuple": lambda lib, F: F.jacobian(_pair_function, (_t(lib, X), _t(lib, Y))),
    "jacobian-tuple-in-tensor-out": lambda lib, F: F.jacobian(lambda a, b: a * b,
                                                              (_t(lib, Y), _t(lib, V_Y))),
    "jacobian-vectorize": lambda lib, F: F.jacobian(_pair_function, (_t(lib, X), _t(lib, Y)),
                                                    vectorize=True),
    "hessian": lambda lib, F: F.hessian(lambda x: (x.sin() ** 2).sum(), _t(lib, X)),
    "hessian-tuple": lambda lib, F: F.hessian(_scalar_function, (_t(lib, X), _t(lib, Y))),
    "hvp": lambda lib, F: F.hvp(lambda x: x.pow(3).sum(), _t(lib, Y), _t(lib, V_Y)),
    "vhp-tuple": lambda lib, F: F.vhp(_scalar_function, (_t(lib, X), _t(lib, Y)),
                                      (_t(lib, V_X), _t(lib, V_Y))),
    "hvp-tuple": lambda lib, F: F.hvp(_scalar_function, (_t(lib, X), _t(lib, Y)),
                                      (_t(lib, V_X), _t(lib, V_Y))),
    "hvp-unused-input": lambda lib, F: F.hvp(lambda x, y: (x ** 3).sum(),
                                             (_t(lib, X), _t(lib, Y)),
                                             (_t(lib, V_X), _t(lib, V_Y))),
}


def _structure_and_values(result):
    """Nested tuples of numpy arrays, keeping the tuple structure."""
    if isinstance(result, tuple):
        return tuple(_structure_and_values(r) for r in result)
    return result.detach().numpy()


def _assert_same(ours, theirs):
    assert isinstance(ours, tuple) == isinstance(theirs, tuple)
    if isinstance(ours, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_same(a, b)
    else:
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", CASES)
def test_values_and_structure_equal_pytorchs(case):
    torch = pytest.importorskip("torch")
    from torch.autograd import functional as torch_functional
    ours = _structure_and_values(CASES[case](tapegrad, F))
    theirs = _structure_and_values(CASES[case](torch, torch_functional))
    _assert_same(ours, theirs)


def test_create_graph_lets_the_result_be_differentiated_again():
    x = tapegrad.tensor(Y, requires_grad=True)
    _, product = F.vjp(lambda t: t ** 3, x, tapegrad.ones(3), create_graph=True)
    assert product.requires_grad
    (second,) = tapegrad.autograd.grad(product.sum(), x)
    np.testing.assert_allclose(second.numpy(), 6 * Y, rtol=1e-12)
    hess = F.hessian(lambda t: (t ** 4).sum(), x, create_graph=True)
    (third,) = tapegrad.autograd.grad(hess.sum(), x)
    np.testing.assert_allclose(third.numpy(), 24 * Y, rtol=1e-12)
    _, plain = F.vjp(lambda t: t ** 3, x, tapegrad.ones(3))
    assert not plain.requires_grad and plain.grad_fn is None


def test_results_do_not_depend_on_grad_mode_or_touch_the_inputs():
    x = tapegrad.tensor(Y, requires_grad=True)
    with tapegrad.no_grad():
        jac = F.jacobian(lambda t: t.sin(), x)
    np.testing.assert_allclose(jac.numpy(), np.diag(np.cos(Y)), rtol=1e-12)
    assert x.grad is None


@pytest.mark.parametrize("call, message", [
    (lambda: F.jacobian(lambda x, y: x * 2, (tapegrad.ones(2), tapegrad.ones(2)), strict=True),
     ("Output 0 of the user-provided function is independent of input 1. This is not allowed in "
      "strict mode.")),
    (lambda: F.vjp(lambda x: tapegrad.ones(2), tapegrad.ones(2), tapegrad.ones(2), strict=True),
     "Output 0 of the user-provided function does not require gradients."),
    (lambda: F.hessian(lambda x: x.sum() * 2, tapegrad.ones(2), strict=True),
     ("While computing the hessian, found that the jacobian of the user-provided function with "
      "respect to input 0 is independent of the input.")),
    (lambda: F.jacobian(lambda x: x * 2, tapegrad.ones(2), strict=True, vectorize=True),
     "`strict=True` and `vectorized=True` are not supported together"),
    (lambda: F.vjp(lambda x: x * 2, tapegrad.ones(2)),
     ("The vector v can only be None if the user-provided function returns a single Tensor with "
      "a single element.")),
    (lambda: F.jvp(lambda x: x * 2, tapegrad.ones(2), tapegrad.ones(3)),
     "v has invalid size: should be torch.Size([2]) but got torch.Size([3])."),
    (lambda: F.jvp(lambda x, y: x * y, (tapegrad.ones(2), tapegrad.ones(2)), (tapegrad.ones(2),)),
     "v is a tuple of invalid length: should be 2 but got 1."),
    (lambda: F.hvp(lambda x: x * 2, tapegrad.ones(2), tapegrad.ones(2)),
     "The Tensor returned by the function given to hvp should contain a single element"),
])
def test_errors_are_pytorchs(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert message in str(info.value)


def test_non_tensor_inputs_are_rejected():
    with pytest.raises(TypeError, match="The inputs given to jacobian must be either a Tensor or "
                                        "a tuple of Tensors but the value at index 1 has type"):
        F.jacobian(lambda x, y: x, (tapegrad.ones(1), 2.0))


def test_the_unused_input_gives_zeros_without_strict():
    _, (vjp_x, vjp_y) = F.vjp(lambda x, y: x * 2, (tapegrad.ones(2), tapegrad.ones(3)),
                              tapegrad.ones(2))
    np.testing.assert_array_equal(vjp_x.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(vjp_y.numpy(), [0.0, 0.0, 0.0])
