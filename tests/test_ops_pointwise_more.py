"""Pointwise ops of numerics and optimizer code (``tapegrad.ops.special``): fmax/fmin, copysign,
fmod, addcmul/addcdiv, logaddexp, xlogy, deg2rad, heaviside, gcd/lcm, sgn, signbit, isposinf …

Every differentiable primitive against finite differences in float64, and every function against
PyTorch: values, dtypes, gradients, the node it records, and its errors.
"""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# id -> (fn(T, *leaves), shapes, low, high, node)
ROWS = {
    "fmax": (lambda T, a, b: T.fmax(a, b), [(3, 4), (4,)], -2, 2, "FmaxBackward0"),
    "fmin": (lambda T, a, b: T.fmin(a, b), [(3, 4), (3, 4)], -2, 2, "FminBackward0"),
    "copysign": (lambda T, a, b: T.copysign(a, b), [(3, 4), (4,)], -2, 2, "CopysignBackward0"),
    "copysign_scalar": (lambda T, a: T.copysign(a, -1.5), [(3, 4)], -2, 2, "CopysignBackward1"),
    "fmod": (lambda T, a, b: T.fmod(a, b), [(3, 4), (4,)], 0.6, 2, "FmodBackward1"),
    "fmod_scalar": (lambda T, a: a.fmod(-0.7), [(3, 4)], -2, 2, "FmodBackward0"),
    "addcmul": (lambda T, a, b, c: T.addcmul(a, b, c, value=0.5), [(3, 4), (3, 1), (4,)], -2, 2,
                "AddcmulBackward0"),
    "addcdiv": (lambda T, a, b, c: a.addcdiv(b, c, value=-2), [(3, 4), (4,), (3, 4)], 0.5, 2,
                "AddcdivBackward0"),
    "logaddexp": (lambda T, a, b: T.logaddexp(a, b), [(3, 4), (4,)], -3, 3, "LogaddexpBackward0"),
    "logaddexp2": (lambda T, a, b: a.logaddexp2(b), [(3, 4), (3, 4)], -3, 3,
                   "Logaddexp2Backward0"),
    "xlogy": (lambda T, a, b: T.xlogy(a, b), [(3, 4), (4,)], 0.5, 2, "XlogyBackward0"),
    "xlog1py": (lambda T, a, b: T.special.xlog1py(a, b), [(3, 4), (4,)], 0.5, 2,
                "SpecialXlog1PyBackward0"),
    "xlogy_scalar_other": (lambda T, a: T.xlogy(a, 2.5), [(3, 4)], -2, 2, "XlogyBackward2"),
    "xlogy_scalar_self": (lambda T, b: T.xlogy(1.5, b), [(3, 4)], 0.5, 2, "XlogyBackward1"),
    "ldexp": (lambda T, a, b: T.ldexp(a, b), [(3, 4), (4,)], -2, 2, "LdexpBackward0"),
    "frexp": (lambda T, a: T.frexp(a).mantissa, [(3, 4)], -9, 9, "FrexpBackward0"),
    "deg2rad": (lambda T, a: T.deg2rad(a), [(3, 4)], -2, 2, "Deg2RadBackward0"),
    "rad2deg": (lambda T, a: a.rad2deg(), [(3, 4)], -2, 2, "Rad2DegBackward0"),
    "float_power": (lambda T, a: T.float_power(a, 3), [(3, 4)], 0.5, 2, "PowBackward0"),
    "float_power_tensor": (lambda T, a, b: a.float_power(b), [(3, 4), (4,)], 0.5, 2,
                           "PowBackward1"),
    "lerp_tensor": (lambda T, a, b, w: T.lerp(a, b, w), [(3, 4), (4,), (3, 4)], -2, 2,
                    "LerpBackward1"),
}


def _arrays(shapes, low, high, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(low, high, s) for s in shapes]


@pytest.mark.parametrize("name", sorted(ROWS))
def test_gradients_match_finite_differences(name):
    fn, shapes, low, high, _ = ROWS[name]
    inputs = [tapegrad.tensor(a, dtype=tapegrad.float64, requires_grad=True)
              for a in _arrays(shapes, low, high, 0)]
    assert gradcheck(lambda *xs: fn(tapegrad, *xs), inputs)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_values_gradients_and_node_match_torch(name):
    torch = pytest.importorskip("torch")
    fn, shapes, low, high, node = ROWS[name]
    arrays = _arrays(shapes, low, high, 3)
    ours_in = [tapegrad.tensor(a, dtype=tapegrad.float32, requires_grad=True) for a in arrays]
    theirs_in = [torch.tensor(a, dtype=torch.float32, requires_grad=True) for a in arrays]
    ours, theirs = fn(tapegrad, *ours_in), fn(torch, *theirs_in)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=2e-5,
                               atol=2e-5)
    assert ours.grad_fn.name() == theirs.grad_fn.name() == node
    ours.sum().backward()
    theirs.sum().backward()
    for a, b in zip(ours_in, theirs_in):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-5)


NAN, INF = float("nan"), float("inf")

# Values only (and dtypes): special values, integer and bool inputs, scalars.
VALUE_CASES = [
    lambda T: T.sign(T.tensor([NAN, -0.0, -2.0, 3.0])),
    lambda T: T.tensor([True, False]).sign(),
    lambda T: T.sgn(T.tensor([-3, 0, 4])),
    lambda T: T.tensor([-2.5, 2.5]).fix(),
    lambda T: T.signbit(T.tensor([-0.0, 0.0, -1.0, NAN])),
    lambda T: T.signbit(T.tensor([-1, 0, 2])),
    lambda T: T.isposinf(T.tensor([INF, -INF, NAN, 1.0])),
    lambda T: T.tensor([INF, -INF, NAN, 1.0]).isneginf(),
    lambda T: T.isposinf(T.tensor([1, 2])),
    lambda T: T.isreal(T.tensor([1.0, NAN])),
    lambda T: T.fmax(T.tensor([1.0, NAN, NAN]), T.tensor([NAN, 2.0, NAN])),
    lambda T: T.fmin(T.tensor([1, 5]), T.tensor([0.5, 3.0])),
    lambda T: T.copysign(T.tensor([1, 2]), T.tensor([-1, 1])),
    lambda T: T.copysign(T.tensor([0.0, 2.0]), -0.0),
    lambda T: T.fmod(T.tensor([7, -7]), 3),
    lambda T: T.fmod(T.tensor([7.0, -7.0]), T.tensor([3.0, 0.0])),
    lambda T: T.fmod(T.tensor([5]), 2.5),
    lambda T: T.addcmul(T.tensor([1, 2]), T.tensor([1, 2]), T.tensor([1, 2]), value=2),
    lambda T: T.addcmul(T.tensor([1, 2]), T.tensor([1, 2]), T.tensor([1, 2]), value=0.5),
    lambda T: T.addcmul(T.tensor([1.0, 2.0]), T.tensor([1, 2]), T.tensor([1, 2])),
    lambda T: T.logaddexp(T.tensor([-INF, 100.0]), T.tensor([-INF, 100.0])),
    lambda T: T.logaddexp2(T.tensor([1.0, -INF]), T.tensor([1.0, 3.0])),
    lambda T: T.xlogy(T.tensor([0.0, 0.0, 2.0, 0.0]), T.tensor([0.0, 5.0, 3.0, NAN])),
    lambda T: T.xlogy(2, T.tensor([1.0, 2.0])),
    lambda T: T.xlogy(T.tensor([1, 2]), T.tensor([3, 4])),
    lambda T: T.special.xlogy(T.tensor(0.0), T.tensor(NAN)),
    lambda T: T.special.xlog1py(T.tensor([0.0, 1.0]), T.tensor([-1.0, 1.0])),
    lambda T: T.float_power(T.tensor([1, 2]), 2),
    lambda T: T.float_power(2, T.tensor([1.0, 0.5])),
    lambda T: T.deg2rad(T.tensor([180, 90])),
    lambda T: T.rad2deg(T.tensor([3.14159, -1.0], dtype=T.float64)),
    lambda T: T.heaviside(T.tensor([-1.0, 0.0, 2.0, NAN]), T.tensor([0.5])),
    lambda T: T.gcd(T.tensor([4, 6, 0]), T.tensor([6, 9, 5])),
    lambda T: T.tensor([4, 6]).lcm(T.tensor([6, 9])),
    lambda T: T.positive(T.tensor([1.0, -2.0])),
    lambda T: T.ldexp(T.tensor([1.0, 2.0]), T.tensor([200, 3])),
    lambda T: T.ldexp(T.tensor([1, 2]), T.tensor([2, 3])),
    lambda T: T.frexp(T.tensor([1.0, 3.0, -2.5, 0.0, INF, NAN], dtype=T.float64)).mantissa,
    lambda T: T.tensor([1e-40, 6e30]).frexp().exponent,
    lambda T: T.xlogy(0, T.tensor([0.0, NAN])),
    lambda T: T.zeros(2).lerp_(T.tensor([4.0, 8.0]), 0.25),
    lambda T: T.zeros(2).lerp_(T.tensor([4.0, 8.0]), T.tensor([0.5, 1.0])),
    lambda T: T.ones(2).addcmul_(T.tensor([1.0, 2.0]), T.tensor([3.0, 4.0]), value=0.1),
    lambda T: T.ones(2).addcdiv_(T.tensor([1.0, 2.0]), T.tensor([4.0, 8.0]), value=-1),
    lambda T: T.tensor([5.5, -5.5]).fmod_(2),
    lambda T: T.tensor([5.5, -5.5]).frac_(),
    lambda T: T.tensor([5.5, -5.5]).trunc_(),
    lambda T: T.tensor([5.5, -5.5]).copysign_(T.tensor([-1.0, -1.0])),
    lambda T: T.tensor([12, 18]).gcd_(T.tensor([8, 4])),
    lambda T: T.ones(2, dtype=T.float64).mul(2).float_power_(T.tensor([2.0, 3.0])),
    lambda T: T.isclose(T.tensor([1, 2]), T.tensor([1, 3])),
    lambda T: T.isclose(T.tensor([True, False]), T.tensor([True, True])),
]


@pytest.mark.parametrize("case", range(len(VALUE_CASES)))
def test_values_match_torch(case):
    torch = pytest.importorskip("torch")
    ours, theirs = VALUE_CASES[case](tapegrad), VALUE_CASES[case](torch)
    assert str(ours.dtype) == str(theirs.dtype)
    assert repr(ours) == repr(theirs)


ERROR_CASES = [
    lambda T: T.lerp(T.tensor([1, 2]), T.tensor([3, 4]), 0.5),
    lambda T: T.lerp(T.tensor([1, 2]), T.tensor([3, 4]), T.tensor([1, 1])),
    lambda T: T.zeros(2, dtype=T.long).lerp_(T.tensor([4, 8]), 0.25),
    lambda T: T.hypot(T.tensor([1, 2]), T.tensor([3, 4])),
    lambda T: T.frac(T.tensor([1, 2])),
    lambda T: T.logaddexp(T.tensor([1]), T.tensor([1])),
    lambda T: T.logaddexp2(T.tensor([1]), T.tensor([1])),
    lambda T: T.gcd(T.tensor([4.0]), T.tensor([6.0])),
    lambda T: T.allclose(T.tensor([1, 2]), T.tensor([1.0, 2.0])),
    lambda T: T.isclose(T.tensor([1.0]), T.tensor([1.0], dtype=T.float64)),
    lambda T: T.isclose(T.ones(2), T.ones(3)),
    lambda T: T.allclose(T.ones(2), T.ones(3)),
    lambda T: T.addcdiv(T.tensor([1.0, 2.0]), T.tensor([1, 2]), T.tensor([1, 2])),
    lambda T: T.addcmul(T.ones(2), T.ones(3), T.ones(1)),
    lambda T: T.tensor([1, 2]).addcmul_(T.tensor([1.0, 2.0]), T.tensor([1.0, 2.0])),
    lambda T: T.fmax(T.ones(2), T.ones(3)),
    lambda T: T.fmod(T.tensor([7, -7]), T.tensor([0, 3])),
    lambda T: T.heaviside(T.tensor([-1, 0, 2]), T.tensor([0.5])),
    lambda T: T.positive(T.tensor([True])),
    lambda T: T.ones(2).float_power_(2),
    lambda T: T.frexp(T.tensor([1, 2])),
]


@pytest.mark.parametrize("case", range(len(ERROR_CASES)))
def test_errors_match_torch(case):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        ERROR_CASES[case](torch)
    with pytest.raises(type(theirs.value)) as ours:
        ERROR_CASES[case](tapegrad)
    assert str(ours.value) == str(theirs.value)


def test_integer_fix_sign_and_float_power_record_as_torch():
    torch = pytest.importorskip("torch")
    for T in (tapegrad, torch):
        x = T.tensor([1.5, -2.0], requires_grad=True)
        assert T.sgn(x).grad_fn.name() == "SgnBackward0"
        assert x.fix().grad_fn.name() == "TruncBackward0"
        assert T.positive(x) is x
        assert T.float_power(x, 2).dtype == T.float64
        assert T.float_power(x, 2).grad_fn.next_functions[0][0].name() == "ToCopyBackward0"


def test_heaviside_has_no_derivative():
    torch = pytest.importorskip("torch")
    for T in (tapegrad, torch):
        out = T.heaviside(T.tensor([1.0, 0.0], requires_grad=True), T.tensor([0.5]))
        assert out.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
            out.sum().backward()


def test_xlogy_gradient_at_zero_and_nan():
    torch = pytest.importorskip("torch")
    results = []
    for T in (tapegrad, torch):
        x = T.tensor([0.0, 1.0, 0.0], requires_grad=True)
        y = T.tensor([0.0, 2.0, NAN], requires_grad=True)
        T.xlogy(x, y).sum().backward()
        results.append((x.grad.numpy(), y.grad.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs)


def test_inplace_pointwise_ops_record_and_backpropagate():
    torch = pytest.importorskip("torch")
    grads = []
    for T in (tapegrad, torch):
        w = T.tensor([1.0, 2.0], requires_grad=True)
        t1 = T.tensor([3.0, 4.0], requires_grad=True)
        state = w * 1
        state.addcmul_(t1, t1, value=0.5).lerp_(T.tensor([0.0, 1.0]), 0.25)
        assert state.grad_fn.name() == "LerpBackward0"
        state.sum().backward()
        grads.append((w.grad.numpy(), t1.grad.numpy()))
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs)
