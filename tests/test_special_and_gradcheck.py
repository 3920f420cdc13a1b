"""gradcheck's and gradgradcheck's checks (reentrancy, nondet_tol, zero and undefined output
gradients, fast mode, raise_exception), matrix_exp's Taylor degrees, cholesky_inverse's node,
autograd.grad(is_grads_batched=True), and torch.special's Bessel functions and orthogonal
polynomials: against independent truths (identities, closed forms, finite differences), and
against PyTorch where it is installed."""
import math
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import Function, GradcheckError, gradcheck, gradgradcheck

S = tapegrad.special


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def f64(values, requires_grad=False):
    return tapegrad.tensor(values, dtype=tapegrad.float64, requires_grad=requires_grad)


def _functions(lib):
    """Custom Functions with the bugs gradcheck must find, built on ``lib``'s Function."""
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 2

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2 * a

    class WrongSquare(Square):
        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2.1 * a

    workspace = lib.zeros(3, dtype=lib.float64)

    class NotReentrant(Square):
        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            workspace.add_(1e-4)
            return g * (2 * a + workspace)

    class NotMultiplied(Square):
        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2 * a + 1e-9

    class RefusesUndefined(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            if g is None:
                raise RuntimeError("no gradient")
            return g * 2

    return Square, WrongSquare, NotReentrant, NotMultiplied, RefusesUndefined


def _gradcheck_outcome(lib, which, **options):
    """What gradcheck says of Function number ``which``: True/False or (error type, first line)."""
    function = _functions(lib)[which]
    x = lib.tensor([0.3, -1.2, 2.0], dtype=lib.float64, requires_grad=True)
    try:
        return lib.autograd.gradcheck(function.apply, (x,), **options)
    except Exception as error:  # noqa: BLE001  the error is the outcome compared
        return type(error).__name__, str(error).splitlines()[0]


# ------------------------------------------------------------------ gradcheck


@pytest.mark.parametrize("which, options, expected", [
    (0, {}, True),
    (0, {"fast_mode": True}, True),
    (1, {"raise_exception": False}, False),
    (1, {"fast_mode": True, "raise_exception": False}, False),
    (1, {}, ("GradcheckError", "Jacobian mismatch for output 0 with respect to input 0,")),
    (2, {"atol": 1e-2, "rtol": 1e-2}, ("GradcheckError", "Backward is not reentrant, i.e., "
                                       "running backward with same input and grad_output multiple "
                                       "times gives different values, although analytical gradient"
                                       " matches numerical gradient.The tolerance for "
                                       "nondeterminism was 0.0.")),
    (2, {"atol": 1e-2, "rtol": 1e-2, "nondet_tol": 1e-2}, True),
    (3, {}, ("GradcheckError", "backward not multiplied by grad_output")),
    (4, {"check_undefined_grad": False}, True),
])
def test_gradcheck_finds_what_pytorch_finds(which, options, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _gradcheck_outcome(tapegrad, which, **options) == expected


def test_gradcheck_requires_backwards_to_accept_undefined_output_gradients():
    with pytest.warns(UserWarning, match="Backwards compatibility"):
        assert _gradcheck_outcome(tapegrad, 4) == (
            "GradcheckError", "Expected backward function to handle undefined output grads. "
            'Please look at "Notes about undefined output gradients" in '
            '"tools/autograd/derivatives.yaml"')


def test_gradcheck_checks_batched_gradients_through_vmap():
    assert gradcheck(lambda a: a * 2, (f64([1.0], True),), check_batched_grad=True)


def test_gradcheck_checks_its_inputs_and_outputs():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        gradcheck(lambda a: a * 2, (f64([1.0]),))
    with pytest.raises(GradcheckError, match="Numerical gradient for function expected to be zero"):
        gradcheck(lambda a: a.detach() * 2, (f64([1.0], True),))
    assert gradcheck(lambda a, n: (a * n, tapegrad.tensor([1, 2])), (f64([1.0, 2.0], True), 3))
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double"):
        gradcheck(lambda a: a * 2, (tapegrad.tensor([1.0], requires_grad=True),),
                  raise_exception=False)


def test_gradgradcheck_checks_second_derivatives():
    x, y = f64([0.3, -1.2, 2.0], True), f64([[0.5, 1.5], [2.5, -0.5]], True)
    assert gradgradcheck(lambda a, b: (a.sin().sum() * b, b @ b), (x, y))
    assert gradgradcheck(lambda a: a ** 3, (x,), gen_non_contig_grad_outputs=True, fast_mode=True)

    class FirstOrderOnly(Function):  # a backward made of constants: no second derivative
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 3

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 3 * a.detach() ** 2

    assert not gradgradcheck(FirstOrderOnly.apply, (x,), raise_exception=False)


def test_gradcheck_messages_match_pytorch(torch):
    for which, options in [(1, {}), (2, {"atol": 1e-2, "rtol": 1e-2}), (3, {}), (0, {}), (4, {}),
                           (2, {"atol": 1e-2, "rtol": 1e-2, "nondet_tol": 1e-2})]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert (_gradcheck_outcome(tapegrad, which, **options)
                    == _gradcheck_outcome(torch, which, **options))


# ------------------------------------------------------------------ matrix_exp


def test_matrix_exp_exact_where_taylor_is():
    assert (tapegrad.linalg.matrix_exp(tapegrad.zeros(3, 3)).numpy() == np.eye(3)).all()
    e = tapegrad.linalg.matrix_exp(tapegrad.eye(2, dtype=tapegrad.float64))
    assert repr(e[0, 0].item()) == "2.718281828459045"
    assert e[0, 1].item() == 0


@pytest.mark.parametrize("dtype, tolerance", [(np.float64, 1e-14), (np.float32, 1e-5)])
@pytest.mark.parametrize("scale", [1e-17, 1e-9, 1e-5, 1e-3, 0.02, 0.2, 0.6, 1.0, 3.0, 30.0])
def test_matrix_exp_of_each_degree_against_the_eigendecomposition(dtype, tolerance, scale):
    rng = np.random.default_rng(3)
    q, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    eigenvalues = rng.uniform(-1, 1, 4) * scale
    symmetric = (q * eigenvalues) @ q.T
    expected = (q * np.exp(eigenvalues)) @ q.T
    got = tapegrad.linalg.matrix_exp(tapegrad.tensor(symmetric.astype(dtype))).numpy()
    np.testing.assert_allclose(got, expected, rtol=tolerance,
                               atol=tolerance * np.abs(expected).max())


def test_matrix_exp_batches_mixed_degrees_and_differentiates():
    a = f64([[[0.0, 1e-10], [0.0, 0.0]], [[0.1, 0.9], [-0.4, 0.3]], [[3.0, 1.0], [0.0, -2.0]]],
            True)
    assert gradcheck(tapegrad.linalg.matrix_exp, (a,))
    product = tapegrad.linalg.matrix_exp(a) @ tapegrad.linalg.matrix_exp(-a)
    np.testing.assert_allclose(product.detach().numpy(), np.broadcast_to(np.eye(2), (3, 2, 2)),
                               atol=1e-13)


def test_matrix_exp_matches_pytorch_to_the_last_digits(torch):
    """To a few dozen ulps of the largest entry (PyTorch's kernels round differently; in
    float32, scaling and squaring amplify that)."""
    for dtype, ulps in (("float32", 256), ("float64", 256)):
        for scale in (1e-9, 1e-4, 0.01, 0.04, 0.3, 0.5, 1.3, 10.0):
            a = np.cos(np.arange(16.0).reshape(4, 4)) * scale
            ours = tapegrad.linalg.matrix_exp(tapegrad.tensor(a).to(getattr(tapegrad, dtype)))
            theirs = torch.linalg.matrix_exp(torch.tensor(a).to(getattr(torch, dtype)))
            eps = np.finfo(dtype).eps
            np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=ulps * eps,
                                       atol=ulps * eps * np.abs(theirs.numpy()).max())


# ------------------------------------------------------------------ cholesky_inverse


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_records_its_node_and_is_the_inverse(upper):
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    factor = np.linalg.cholesky(a)
    factor = factor.T if upper else factor
    leaf = f64(factor, True)
    inverse = tapegrad.cholesky_inverse(leaf, upper=upper)
    assert type(inverse.grad_fn).__name__ == "CholeskyInverseBackward0"
    np.testing.assert_allclose(inverse.detach().numpy(), np.linalg.inv(a), rtol=1e-13)
    triangle = tapegrad.triu if upper else tapegrad.tril
    assert gradcheck(lambda f: tapegrad.cholesky_inverse(triangle(f), upper=upper), (leaf,))
    assert gradgradcheck(lambda f: tapegrad.cholesky_inverse(triangle(f), upper=upper), (leaf,))


def test_cholesky_inverse_like_pytorch(torch):
    cases = [
        lambda T: T.cholesky_inverse(T.tensor([[2.0, 0.0], [0.5, 1.5]])),
        lambda T: T.cholesky_inverse(T.diag(T.tensor([2.0, 3.0])), upper=True),  # -0. entries
        lambda T: T.cholesky_inverse(T.ones(3)),
        lambda T: T.cholesky_inverse(T.ones(2, 3)),
        lambda T: T.cholesky_inverse(T.ones(2, 2, dtype=T.int64)),
        lambda T: T.cholesky_inverse(T.tensor([[2.0, -1.0], [0.0, 0.0]])),
    ]
    for case in cases:
        assert _printed(tapegrad, case) == _printed(torch, case)


def _printed(lib, case):
    try:
        return str(case(lib))
    except Exception as error:  # noqa: BLE001  the error is the outcome compared
        return f"{type(error).__name__}: {error}"


# ------------------------------------------------------------------ is_grads_batched


def test_batched_grads_are_one_vjp_per_row():
    x = f64([1.0, 2.0, 3.0], True)
    y = x ** 3
    (jacobian,) = tapegrad.autograd.grad(y, x, tapegrad.eye(3, dtype=tapegrad.float64),
                                         is_grads_batched=True, create_graph=True)
    np.testing.assert_allclose(jacobian.detach().numpy(), np.diag(3 * np.array([1.0, 4.0, 9.0])))
    (hessian_trace,) = tapegrad.autograd.grad(jacobian.trace(), x)
    np.testing.assert_allclose(hessian_trace.numpy(), [6.0, 12.0, 18.0])
    with pytest.raises(RuntimeError, match="If `is_grads_batched=True`, we interpret the first"):
        tapegrad.autograd.grad(y, x, tapegrad.ones(2, 2, dtype=tapegrad.float64),
                               is_grads_batched=True)


def test_batched_grads_like_pytorch(torch):
    def case(grads, **options):
        def run(T):
            x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
            w = T.tensor(1.0, requires_grad=True)
            return T.autograd.grad([x * 2, w * x.sum()], [x, w], grads(T),
                                   is_grads_batched=True, **options)
        return run
    cases = [
        case(lambda T: [T.ones(2, 3), T.arange(2.0)]),
        case(lambda T: [T.ones(2, 3), T.ones(3)]),
        case(lambda T: [T.ones(2, 2), T.ones(2)]),
        case(lambda T: [T.ones(2, 3), None]),
        case(lambda T: [T.ones(0, 3), T.ones(0)]),
    ]
    for run in cases:
        assert _printed(tapegrad, run) == _printed(torch, run)


# ------------------------------------------------------------------ torch.special

BESSEL = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
          "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
          "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0",
          "airy_ai"]
POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "legendre_polynomial_p", "hermite_polynomial_h",
               "hermite_polynomial_he", "laguerre_polynomial_l"]


def special(name, *args):
    return getattr(S, name)(*args).numpy()


def test_bessel_identities_hold_to_rounding():
    x = np.concatenate([np.geomspace(1e-6, 600, 400), np.linspace(0.5, 40, 400)])
    t = f64(x)
    j0, j1, y0, y1 = (special(n, t) for n in ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1"))
    # Wronskian J1 Y0 - J0 Y1 = 2 / (pi x), relative to the size of the products
    scale = np.abs(j1 * y0) + np.abs(j0 * y1)
    np.testing.assert_allclose((j1 * y0 - j0 * y1) / scale, 2 / (np.pi * x) / scale, atol=1e-14)
    i0, i1, k0, k1 = (special(n, t) for n in ("modified_bessel_i0", "modified_bessel_i1",
                                               "modified_bessel_k0", "modified_bessel_k1"))
    np.testing.assert_allclose(i0 * k1 + i1 * k0, 1 / x, rtol=1e-14)
    np.testing.assert_allclose(special("scaled_modified_bessel_k1", t),
                               k1 * np.exp(x), rtol=1e-13)
    np.testing.assert_allclose(special("spherical_bessel_j0", t), np.sin(x) / x, rtol=1e-15,
                               atol=1e-16)


def test_airy_function_solves_the_airy_equation():
    """Ai'' = x Ai (second differences), Ai(0) and Ai'(0) from the Gamma function, and the
    amplitude z^(-1/4) / sqrt(pi) of its oscillations for large -z."""
    x, h = np.linspace(-15, 8, 93), 1e-3
    ai = [special("airy_ai", f64(x + k * h)) for k in (-1, 0, 1)]
    second = (ai[0] - 2 * ai[1] + ai[2]) / h ** 2
    np.testing.assert_allclose(second, x * ai[1], atol=1e-6 * np.abs(x).max())
    at_zero = 1 / (3 ** (2 / 3) * math.gamma(2 / 3))
    assert special("airy_ai", f64([0.0]))[0] == pytest.approx(at_zero, rel=1e-15)
    slope = (special("airy_ai", f64([h])) - special("airy_ai", f64([-h]))) / (2 * h)
    assert slope[0] == pytest.approx(-1 / (3 ** (1 / 3) * math.gamma(1 / 3)), rel=1e-6)
    z = np.linspace(200, 210, 2001)
    assert np.abs(special("airy_ai", f64(-z))).max() == pytest.approx(
        200 ** -0.25 / math.sqrt(math.pi), rel=1e-3)
    assert str(S.airy_ai(f64([math.inf, -math.inf, 200.0]))) == (
        "tensor([nan, nan, 0.], dtype=torch.float64)")


def test_bessel_values_derivatives_and_edges():
    assert abs(special("bessel_j0", f64([2.404825557695773]))[0]) < 1e-15  # first zero
    # J0' = -J1, K0' = -K1 (central differences)
    x, h = np.linspace(0.3, 30, 50), 1e-5
    for f, derivative, sign in (("bessel_j0", "bessel_j1", -1), ("bessel_y0", "bessel_y1", -1),
                                ("modified_bessel_k0", "modified_bessel_k1", -1)):
        numeric = (special(f, f64(x + h)) - special(f, f64(x - h))) / (2 * h)
        np.testing.assert_allclose(numeric, sign * special(derivative, f64(x)), atol=1e-9)
    edges = f64([0.0, -0.0, -1.0, math.inf, math.nan])
    assert str(S.bessel_j1(edges)) == ("tensor([ 0.0000, -0.0000, -0.4401,     nan,     nan], "
                                       "dtype=torch.float64)")
    assert str(S.bessel_y0(edges)) == "tensor([-inf, -inf, nan, nan, nan], dtype=torch.float64)"
    assert str(S.modified_bessel_k1(edges)) == ("tensor([inf, inf, nan, 0., nan], "
                                                "dtype=torch.float64)")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 9, 12])
def test_polynomials_against_their_closed_forms(n):
    x = np.linspace(-0.99, 0.99, 41)
    theta = np.arccos(x)
    t = f64(x)
    expected = {
        "chebyshev_polynomial_t": np.cos(n * theta),
        "chebyshev_polynomial_u": np.sin((n + 1) * theta) / np.sin(theta),
        "chebyshev_polynomial_v": np.cos((n + 0.5) * theta) / np.cos(theta / 2),
        "chebyshev_polynomial_w": np.sin((n + 0.5) * theta) / np.sin(theta / 2),
        "legendre_polynomial_p": np.polynomial.legendre.legval(x, np.eye(n + 1)[n]),
        "hermite_polynomial_h": np.polynomial.hermite.hermval(x, np.eye(n + 1)[n]),
        "hermite_polynomial_he": np.polynomial.hermite_e.hermeval(x, np.eye(n + 1)[n]),
        "laguerre_polynomial_l": np.polynomial.laguerre.lagval(x, np.eye(n + 1)[n]),
    }
    for name, values in expected.items():
        np.testing.assert_allclose(special(name, t, n), values, rtol=1e-12, atol=1e-12)
        shifted = "shifted_" + name
        if shifted in POLYNOMIALS:
            np.testing.assert_allclose(special(shifted, f64((x + 1) / 2), n), values, atol=1e-12)


def test_polynomial_degrees_broadcast_truncate_and_promote():
    x = tapegrad.tensor([[0.5], [0.2]])
    result = S.chebyshev_polynomial_t(x, tapegrad.tensor([-1, 0, 1, 2.7]))
    np.testing.assert_allclose(result.numpy(), [[0, 1, 0.5, -0.5], [0, 1, 0.2, -0.92]], rtol=1e-6)
    assert S.legendre_polynomial_p(tapegrad.tensor([1, 2]), 2).dtype == tapegrad.float32
    assert S.hermite_polynomial_h(2, f64([2.0])).dtype == tapegrad.float64
    assert str(S.chebyshev_polynomial_t(tapegrad.tensor([0.0]), 3)) == "tensor([-0.])"
    with pytest.raises(RuntimeError, match="The size of tensor a \\(2\\) must match"):
        S.chebyshev_polynomial_t(tapegrad.ones(2), tapegrad.ones(3))
    with pytest.raises(NotImplementedError, match="not implemented for 'Half'"):
        S.bessel_j0(tapegrad.ones(2, dtype=tapegrad.float16))


def test_special_functions_are_not_differentiated():
    x = tapegrad.tensor([0.5, 2.0], requires_grad=True)
    for value in (S.bessel_j0(x), S.chebyshev_polynomial_t(x, 2)):
        assert not value.requires_grad and value.grad_fn is None
        with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
            value.sum().backward()
    (S.bessel_j0(x) * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), S.bessel_j0(x).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_special_functions_match_pytorch(torch, dtype):
    x = np.concatenate([np.linspace(-30, 30, 601), np.geomspace(1e-7, 1e3, 200),
                        [0.0, -0.0, math.inf, -math.inf, math.nan]])
    ours_x, their_x = tapegrad.tensor(x).to(getattr(tapegrad, dtype)), \
        torch.tensor(x).to(getattr(torch, dtype))
    # PyTorch's own J, Y (x in (5, 25)) and Ai (near x = -2) are off by up to 3e-6
    absolute = 5e-6 if dtype == "float64" else 5e-5
    for name in BESSEL:
        ours, theirs = getattr(S, name)(ours_x).numpy(), getattr(torch.special, name)(their_x)
        np.testing.assert_allclose(ours, theirs.numpy(), rtol=2e-6, atol=absolute, err_msg=name)
    n_values = [-1, 0, 1, 2, 3, 5, 7, 9, 15, 30]
    grid = np.concatenate([np.linspace(-2.5, 2.5, 51), [1.0, -1.0, 0.0, 0.5]])
    for name in POLYNOMIALS:
        ours = getattr(S, name)(tapegrad.tensor(grid[:, None]).to(getattr(tapegrad, dtype)),
                                tapegrad.tensor(n_values)).numpy()
        theirs = getattr(torch.special, name)(torch.tensor(grid[:, None]).to(getattr(torch, dtype)),
                                              torch.tensor(n_values)).numpy()
        if dtype == "float64":  # the same arithmetic: the same bits, signed zeros included
            assert (ours == theirs).all() and (np.signbit(ours) == np.signbit(theirs)).all(), name
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-4, err_msg=name)


# -- once_differentiable under create_graph ------------------------------------------------------
def _square_once_differentiable(lib):
    from importlib import import_module
    function = import_module(lib.__name__ + ".autograd.function")

    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g
    return Square


def test_once_differentiable_results_raise_only_when_differentiated():
    square = _square_once_differentiable(tapegrad)
    s = tapegrad.tensor([3.0], requires_grad=True)
    go = tapegrad.tensor([1.0], requires_grad=True)
    g, = tapegrad.autograd.grad(square.apply(s), s, go, create_graph=True)
    assert g.requires_grad and g.grad_fn.name() == "torch::autograd::Error"
    assert tapegrad.autograd.grad(g.sum(), [s, go], allow_unused=True) == (None, None)
    with pytest.raises(RuntimeError, match="differentiate twice a function that was marked"):
        g.sum().backward()
    plain, = tapegrad.autograd.grad(square.apply(s), s, create_graph=True)  # no grad flows in
    assert not plain.requires_grad


def test_gradgradcheck_of_a_once_differentiable_function_as_pytorch():
    torch = pytest.importorskip("torch")

    def outcome(lib):
        x = lib.tensor([1.0], dtype=lib.float64, requires_grad=True)
        try:
            return lib.autograd.gradgradcheck(_square_once_differentiable(lib).apply, (x,))
        except RuntimeError as error:
            return str(error).splitlines()[0]
    assert outcome(tapegrad) == outcome(torch)
