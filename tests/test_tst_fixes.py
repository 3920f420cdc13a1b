"""Differences found by the test-suite programs (tst_*): ``torch.testing.assert_close`` pairs its
inputs up before comparing (structural errors first, ``msg`` only for comparison failures,
failure locations, None / booleans / numpy arrays, the loosest tolerance of two dtypes, strides,
integer tolerances), ``assert_allclose``, ``make_tensor``'s argument checks, bounds and layouts;
gradcheck's forward-mode message and order, batched-gradient checks, complex inputs and outputs,
NaN Jacobians, non-tensor outputs; forward-AD levels and tangent layouts; and a few kernels:
``pow``'s gradient at a zero exponent, complex operands of integer kernels, complex to bool,
``binary_cross_entropy``'s log1p, ``nll_loss``'s order of checks."""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd.gradcheck import GradcheckError

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _assert_close_outcome(lib, make_args, **kwargs):
    """``assert_close``'s exception (type and message), or None when it passes."""
    actual, expected = make_args(lib)
    try:
        lib.testing.assert_close(actual, expected, **kwargs)
    except Exception as error:  # noqa: BLE001  the exception is the outcome compared
        return type(error).__name__, str(error)
    return None


ASSERT_CLOSE_CASES = {
    "loosest tolerance of two dtypes": (
        lambda T: (T.arange(6.0).half(), T.arange(6.0) + 1e-3), {"check_dtype": False}),
    "stride": (lambda T: (T.arange(6.0).reshape(2, 3).t(),
                          T.arange(6.0).reshape(2, 3).t().contiguous()), {"check_stride": True}),
    "None pair": (lambda T: ({"a": None, "b": T.ones(1)}, {"a": None, "b": T.ones(1)}), {}),
    "None mismatch": (lambda T: ({"a": None}, {"a": 1.0}), {}),
    "booleans": (lambda T: ([True, False], [True, True]), {}),
    "nested length ignores msg": (lambda T: ({"o": [T.ones(1)]}, {"o": [T.ones(1)] * 2}),
                                  {"msg": "custom"}),
    "nested type": (lambda T: ({"k": [1.0, T.ones(2)]}, {"k": [1.0, [1.0, 1.0]]}), {}),
    "structure before values": (lambda T: ([T.ones(2) + 1, [T.ones(2)]],
                                           [T.ones(2), [T.ones(2)] * 2]), {}),
    "numpy arrays": (lambda T: (np.array([1.0, 2.0]), np.array([1.0, 2.5])), {}),
    "parameter vs tensor strict": (lambda T: (T.nn.Parameter(T.ones(2)), T.ones(2)),
                                   {"allow_subclasses": False}),
    "integer tolerance": (lambda T: (T.tensor([100, 5]), T.tensor([105, 5])),
                          {"rtol": 0.1, "atol": 0}),
    "asymmetric scalar tolerance": (lambda T: (1.1, 1.0), {"rtol": 0.1, "atol": 0.0}),
    "lone rtol without pairs": (lambda T: ([], []), {"rtol": 1e-3}),
    "lone rtol": (lambda T: ([T.ones(1)], [T.ones(1)]), {"rtol": 1e-3}),
    "mapping keys sorted": (lambda T: ({"b": T.ones(1), "a": T.ones(1)},
                                       {"b": T.zeros(1), "a": T.zeros(1)}), {}),
    "msg callable": (lambda T: (T.zeros(3), T.tensor([0.0, 0.5, 0.0])),
                     {"msg": lambda m: "checked: " + m}),
}


@needs_torch
@pytest.mark.parametrize("name", ASSERT_CLOSE_CASES)
def test_assert_close_matches_torch(name):
    make_args, kwargs = ASSERT_CLOSE_CASES[name]
    assert _assert_close_outcome(tapegrad, make_args, **kwargs) == \
        _assert_close_outcome(torch, make_args, **kwargs)


def test_assert_close_compares_with_the_loosest_default_tolerance():
    tapegrad.testing.assert_close(tapegrad.ones(3).half(), tapegrad.ones(3) + 5e-4,
                                  check_dtype=False)
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 2"):
        tapegrad.testing.assert_close(tapegrad.tensor([0.0, 1.0]).half(),
                                      tapegrad.tensor([1e-3, 1.0]), check_dtype=False)


def test_assert_close_reports_structure_errors_without_msg():
    with pytest.raises(AssertionError, match=r"length of the sequences mismatch: 1 != 2\n\n"
                                             r"The failure occurred for item \['o'\]"):
        tapegrad.testing.assert_close({"o": [1]}, {"o": [1, 2]}, msg="ignored")
    with pytest.raises(AssertionError, match="^replaced$"):
        tapegrad.testing.assert_close({"o": [1]}, {"o": [2]}, msg="replaced")


def _allclose_outcome(lib, actual, expected, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            lib.testing.assert_allclose(actual(lib), expected(lib), **kwargs)
            outcome = None
        except AssertionError as error:
            outcome = str(error)
    return outcome, [(w.category.__name__, str(w.message)) for w in caught]


@needs_torch
@pytest.mark.parametrize("actual, expected, kwargs", [
    (lambda T: T.tensor([1.0, 2.0]), lambda T: [1.0, 2.0001], {}),
    (lambda T: T.tensor([1.0, 2.0]), lambda T: [1.0, 2.1], {}),
    (lambda T: T.tensor([float("nan")]), lambda T: T.tensor([float("nan")]), {}),
    (lambda T: T.tensor([1, 2]), lambda T: T.tensor([1.0, 2.5]), {}),
    (lambda T: T.tensor([1.0]), lambda T: T.tensor([3.0]), {"msg": "custom"}),
])
def test_assert_allclose_matches_torch(actual, expected, kwargs):
    assert _allclose_outcome(tapegrad, actual, expected, **kwargs) == \
        _allclose_outcome(torch, actual, expected, **kwargs)


# ------------------------------------------------------------------ make_tensor


def _make_tensor_error(lib, **kwargs):
    kwargs.setdefault("dtype", lib.float32)
    try:
        lib.testing.make_tensor((2,), device="cpu", **kwargs)
    except Exception as error:  # noqa: BLE001  the exception is the outcome compared
        return type(error).__name__, str(error)
    return None


@needs_torch
@pytest.mark.parametrize("make_kwargs", [
    lambda T: {"dtype": T.int64, "requires_grad": True},
    lambda T: {"dtype": T.bool, "requires_grad": True},
    lambda T: {"low": 3.0, "high": 1.0},
    lambda T: {"low": float("nan")},
    lambda T: {"dtype": T.int8, "low": 200, "high": 300},
    lambda T: {"dtype": T.int8, "low": -1000, "high": 1000},
    lambda T: {"noncontiguous": True, "memory_format": T.channels_last},
])
def test_make_tensor_argument_checks_match_torch(make_kwargs):
    assert _make_tensor_error(tapegrad, **make_kwargs(tapegrad)) == \
        _make_tensor_error(torch, **make_kwargs(torch))


def test_make_tensor_layouts_bounds_and_zeros():
    make = tapegrad.testing.make_tensor
    noncontiguous = make((4, 6), dtype=tapegrad.float32, device="cpu", noncontiguous=True)
    assert noncontiguous.shape == (4, 6) and not noncontiguous.is_contiguous()
    assert make((1,), dtype=tapegrad.float32, device="cpu", noncontiguous=True).is_contiguous()
    last = make((2, 3, 4, 5), dtype=tapegrad.float32, device="cpu",
                memory_format=tapegrad.channels_last)
    assert last.stride() == (60, 1, 15, 3)
    clamped = make((300,), dtype=tapegrad.uint8, device="cpu", low=-5, high=3)
    assert clamped.min() >= 0 and clamped.max() < 3
    wide = make((100,), dtype=tapegrad.float32, device="cpu", low=-3e38, high=3e38)
    assert bool(tapegrad.isfinite(wide).all())
    no_zero = make((400,), dtype=tapegrad.float32, device="cpu", low=0, high=1e-44,
                   exclude_zero=True)
    assert not bool((no_zero == 0).any())
    complex_values = make((50,), dtype=tapegrad.complex64, device="cpu", low=-1, high=1)
    assert complex_values.dtype == tapegrad.complex64
    assert bool((complex_values.real.abs() <= 1).all() and (complex_values.imag.abs() <= 1).all())
    with pytest.warns(FutureWarning, match="low==high"):
        same = make((3,), dtype=tapegrad.float64, device="cpu", low=1.5, high=1.5)
    assert same.tolist() == [1.5, 1.5, 1.5]


# ------------------------------------------------------------------ gradcheck and forward AD


def _bad_jvp(lib):
    class BadJvp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.exp()

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * x

    return BadJvp


def _gradcheck_outcome(lib, fn, inputs, **kwargs):
    try:
        return lib.autograd.gradcheck(fn(lib), inputs(lib), **kwargs)
    except Exception as error:  # noqa: BLE001  the exception is the outcome compared
        return type(error).__name__, str(error)


def _x64(lib):
    return (lib.linspace(-1, 1, 4, dtype=lib.float64).requires_grad_(),)


@needs_torch
@pytest.mark.parametrize("fn, inputs, kwargs", [
    (lambda T: _bad_jvp(T).apply, _x64, {"check_forward_ad": True}),
    (lambda T: _bad_jvp(T).apply, _x64, {"check_forward_ad": True, "check_backward_ad": False}),
    (lambda T: lambda a: 3.0, _x64, {}),
    (lambda T: lambda a: (a * 2, None), _x64, {}),
    (lambda T: lambda a, b: (a * b, a.exp()),
     lambda T: _x64(T) + (T.linspace(0.5, 1, 4, dtype=T.float64).requires_grad_(),),
     {"check_batched_grad": True, "check_forward_ad": True, "check_batched_forward_grad": True}),
    (lambda T: lambda a: a.sum() * 0 + a[0], _x64, {"check_batched_grad": True}),
])
def test_gradcheck_outcome_matches_torch(fn, inputs, kwargs):
    assert _gradcheck_outcome(tapegrad, fn, inputs, **kwargs) == \
        _gradcheck_outcome(torch, fn, inputs, **kwargs)


def test_gradcheck_forward_mode_failure_says_so_after_the_backward_check():
    bad = _bad_jvp(tapegrad).apply
    x = _x64(tapegrad)
    with pytest.raises(GradcheckError,
                       match="^Jacobian computed with forward mode mismatch for output 0"):
        tapegrad.autograd.gradcheck(bad, x, check_forward_ad=True)


def test_batched_gradient_checks_pass_for_correct_rules_and_gradgradcheck():
    a = tapegrad.linspace(0.2, 1.0, 4, dtype=tapegrad.float64).requires_grad_()
    b = tapegrad.linspace(-1.0, 0.5, 4, dtype=tapegrad.float64).requires_grad_()
    assert tapegrad.autograd.gradcheck(lambda a, b: (a * b).tanh(), (a, b),
                                       check_batched_grad=True, check_forward_ad=True,
                                       check_batched_forward_grad=True)
    assert tapegrad.autograd.gradgradcheck(lambda a, b: (a * b).tanh(), (a, b),
                                           check_batched_grad=True)


def test_batched_gradient_check_reports_an_inconsistent_backward():
    calls = []

    class Drifting(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            # right for gradcheck's Jacobian (4 calls), then different at every call
            return g * 2 + (len(calls) if len(calls) > 4 else 0)

    x = tapegrad.tensor([0.5, 1.5], dtype=tapegrad.float64, requires_grad=True)
    with pytest.raises(GradcheckError,
                       match="^For output 0 and input 0:\n\ngradcheck or gradgradcheck failed "
                             "while testing batched gradient computation"):
        tapegrad.autograd.gradcheck(Drifting.apply, (x,), check_batched_grad=True,
                                    check_undefined_grad=False)


def _exit_without_level(lib):
    try:
        lib.autograd.forward_ad.exit_dual_level()
    except RuntimeError as error:
        return str(error)
    return None


def _exit_other_level(lib):
    with lib.autograd.forward_ad.dual_level():
        try:
            lib.autograd.forward_ad.exit_dual_level(level=3)
        except RuntimeError as error:
            return str(error)
    return None


@needs_torch
@pytest.mark.parametrize("case", [_exit_without_level, _exit_other_level])
def test_exit_dual_level_errors_match_torch(case):
    assert case(tapegrad) == case(torch)


# ------------------------------------------------------------------ pow's gradient


def _pow_second_derivatives(lib):
    a = lib.linspace(0.5, 2, 3, dtype=lib.float64).requires_grad_()
    b = lib.linspace(-1, 1, 3, dtype=lib.float64).requires_grad_()
    go = lib.tensor([0.3, -0.7, 0.5], dtype=lib.float64)
    grad_a, _ = lib.autograd.grad(a ** b, (a, b), go, create_graph=True)
    return (grad_a, type(grad_a.grad_fn).__name__) + lib.autograd.grad(grad_a.sum(), (a, b))


@needs_torch
def test_pow_gradient_is_masked_where_the_exponent_is_zero_as_in_torch():
    ours, theirs = _pow_second_derivatives(tapegrad), _pow_second_derivatives(torch)
    assert ours[1] == theirs[1] == "WhereBackward0"
    for mine, reference in zip(ours[:1] + ours[2:], theirs[:1] + theirs[2:]):
        np.testing.assert_allclose(mine.detach().numpy(), reference.detach().numpy())


def test_pow_gradient_is_zero_where_the_exponent_is_zero():
    a = tapegrad.tensor([0.0, 2.0], dtype=tapegrad.float64, requires_grad=True)
    b = tapegrad.tensor([0.0, 3.0], dtype=tapegrad.float64)
    (a ** b).sum().backward()
    assert a.grad.tolist() == [0.0, 12.0]


# ------------------------------------------------------------------ complex gradcheck


def _complex_function(lib, conjugate):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            ctx.save_for_backward(z)
            return z * z

        @staticmethod
        def backward(ctx, g):
            (z,) = ctx.saved_tensors
            return g * ((2 * z).conj() if conjugate else 2 * z)

    return Square.apply


def _z(lib):
    return (lib.tensor([1 + 1j, -0.5 + 2j], dtype=lib.complex128, requires_grad=True),)


def _z_and_r(lib):
    return _z(lib) + (lib.tensor([0.5, 1.5], dtype=lib.float64, requires_grad=True),)


@needs_torch
@pytest.mark.parametrize("fn, inputs, kwargs", [
    (lambda T: _complex_function(T, True), _z, {}),
    (lambda T: _complex_function(T, False), _z, {}),
    (lambda T: lambda z: _complex_function(T, False)(z).real, _z, {}),
    (lambda T: T.abs, _z, {}),
    (lambda T: lambda z, r: (z * r).exp(), _z_and_r, {"check_forward_ad": True}),
    (lambda T: lambda z, r: T.polar(r, r * 2) * z, _z_and_r, {"check_forward_ad": True}),
    (lambda T: T.exp, _z, {"check_forward_ad": True, "check_backward_ad": False}),
    (lambda T: lambda z: z * 2, lambda T: (_z(T)[0].detach().to(T.complex64)
                                           .requires_grad_(),), {"atol": 1e-2, "rtol": 1e-2}),
])
def test_complex_gradcheck_matches_torch(fn, inputs, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _gradcheck_outcome(tapegrad, fn, inputs, **kwargs) == \
            _gradcheck_outcome(torch, fn, inputs, **kwargs)


def test_complex_gradcheck_uses_the_conjugate_wirtinger_derivative():
    z = _z(tapegrad)
    assert tapegrad.autograd.gradcheck(_complex_function(tapegrad, True), z)
    with pytest.raises(GradcheckError, match="^While considering the imaginary part of complex "
                                             "outputs only, Jacobian mismatch"):
        tapegrad.autograd.gradcheck(_complex_function(tapegrad, False), z)
    assert not tapegrad.autograd.gradcheck(_complex_function(tapegrad, False), z,
                                           fast_mode=True, raise_exception=False)
    assert tapegrad.autograd.gradgradcheck(lambda t: t.abs() ** 2 + t.exp(), z)


def test_custom_function_complex_outputs_are_differentiable():
    out = _complex_function(tapegrad, True)(*_z(tapegrad))
    assert out.requires_grad and type(out.grad_fn).__name__ == "SquareBackward"


@needs_torch
@pytest.mark.parametrize("fn", [
    lambda T: lambda a: a.log() * float("nan"),  # NaN Jacobians: a mismatch, not nondeterminism
    lambda T: lambda a: a / 0,
    lambda T: lambda a: a.float() * 2,  # numerical Jacobian in the output's dtype (float32)
])
def test_gradcheck_failure_messages_match_torch(fn):
    inputs = lambda T: (T.linspace(0.2, 1.0, 3, dtype=T.float64).requires_grad_(),)  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _gradcheck_outcome(tapegrad, fn, inputs) == _gradcheck_outcome(torch, fn, inputs)


# ------------------------------------------------------------ complex operands of integer kernels


def _complex_kernel_error(lib, op):
    try:
        return op(lib)
    except Exception as error:  # noqa: BLE001  the exception is the outcome compared
        return type(error).__name__, str(error)


@needs_torch
@pytest.mark.parametrize("op", [
    lambda T: T.tensor([1 + 1j]) & T.tensor([1 + 1j]),
    lambda T: T.tensor([1 + 1j]) << 1,
    lambda T: T.tensor([1, 2]) >> T.tensor([1j]),
    lambda T: ~T.tensor([1j]),
    lambda T: T.bitwise_not(T.tensor([1j])),
    lambda T: T.tensor([1 + 1j], dtype=T.complex128) % T.tensor([2.0]),
    lambda T: T.tensor([2.0]) % T.tensor([1 + 1j]),
    lambda T: T.fmod(T.tensor([1 + 1j]), 2),
    lambda T: T.fmod(T.tensor([True]), T.tensor([True])),
    lambda T: T.div(T.tensor([2.0]), T.tensor([1 + 1j]), rounding_mode="floor"),
    lambda T: T.div(T.tensor([2.0]), T.tensor([1 + 1j]), rounding_mode="trunc"),
    lambda T: T.tensor([4j]) // 2,
])
def test_integer_kernels_refuse_complex_operands_as_torch(op):
    assert _complex_kernel_error(tapegrad, op) == _complex_kernel_error(torch, op)


def test_complex_to_bool_tests_both_parts_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tapegrad.tensor([0 + 1j, 0j, 2 + 0j]).bool().tolist() == [True, False, True]
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        assert tapegrad.tensor([1 + 2j]).int().tolist() == [1]


# ------------------------------------------------------------------ binary cross-entropy


def _bce_values_and_grads(lib):
    x = lib.tensor([2e-9, 0.3, 1.0, 0.0, 1 - 1e-7], requires_grad=True)
    t = lib.tensor([0.0, 0.5, 1.0, 0.0, 0.2], requires_grad=True)
    loss = lib.nn.functional.binary_cross_entropy(x, t, reduction="none")
    return (loss,) + lib.autograd.grad(loss.sum(), (x, t))


@needs_torch
def test_binary_cross_entropy_uses_log1p_and_an_unclamped_target_gradient():
    for ours, theirs in zip(_bce_values_and_grads(tapegrad), _bce_values_and_grads(torch)):
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def test_binary_cross_entropy_of_a_tiny_probability_is_not_rounded_to_zero():
    loss = tapegrad.nn.functional.binary_cross_entropy(tapegrad.tensor([2e-9]),
                                                      tapegrad.tensor([0.0]))
    assert loss.item() == pytest.approx(2e-9, rel=1e-6)


# ------------------------------------------------------------------ forward-AD levels and layouts


def _level_outcomes(lib):
    fwAD = lib.autograd.forward_ad

    def attempt(fn):
        try:
            result = fn()
        except RuntimeError as error:
            return str(error)
        return [None if t is None else t.tolist() for t in result] \
            if isinstance(result, tuple) else result.tolist()

    outcomes = [attempt(lambda: fwAD.make_dual(lib.ones(2), lib.ones(2), level=3)),
                attempt(lambda: fwAD.make_dual(lib.ones(2), lib.ones(2), level=0)),
                attempt(lambda: fwAD.unpack_dual(lib.ones(2), level=0))]
    with fwAD.dual_level():
        dual = fwAD.make_dual(lib.ones(2), lib.ones(2))
        outcomes += [attempt(lambda: fwAD.unpack_dual(dual, level=1)),
                     attempt(lambda: fwAD.unpack_dual(dual, level=-1)),
                     attempt(lambda: fwAD.make_dual(lib.ones(2), lib.ones(2), level=1)),
                     attempt(lambda: fwAD.make_dual(lib.ones(2), lib.ones(2), level=-1))]
    return outcomes


@needs_torch
def test_forward_ad_level_arguments_match_torch():
    assert _level_outcomes(tapegrad) == _level_outcomes(torch)


def test_make_dual_gives_the_tangent_the_primal_layout():
    fwAD = tapegrad.autograd.forward_ad
    with fwAD.dual_level():
        primal = tapegrad.ones(2, 3).t()
        tangent = tapegrad.arange(6.0).reshape(3, 2)
        dual_tangent = fwAD.unpack_dual(fwAD.make_dual(primal, tangent)).tangent
        assert dual_tangent.stride() == primal.stride() == (1, 3)
        assert dual_tangent.tolist() == tangent.tolist()
        same_layout = tapegrad.arange(3.0)
        assert fwAD.unpack_dual(fwAD.make_dual(tapegrad.ones(3), same_layout)).tangent \
            is same_layout


# ------------------------------------------------------------------ nll_loss argument checks


@needs_torch
@pytest.mark.parametrize("target", [[[0, 1]], [[0], [1]], [[0, 1], [1, 0]]])
def test_nll_loss_checks_the_batch_size_before_the_target_rank(target):
    def outcome(lib):
        try:
            lib.nn.functional.nll_loss(lib.ones(2, 3), lib.tensor(target))
        except (RuntimeError, ValueError) as error:
            return type(error).__name__, str(error)
        return None
    assert outcome(tapegrad) == outcome(torch)
