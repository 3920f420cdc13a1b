"""Differences found by the numeric-semantics programs (dt2_*): ``round``'s ``decimals``
overload (and ``torch.special.round``), ``isreal`` of complex numbers, ``isposinf``/``isneginf``
refusing complex, float16 ``sinc`` and ``ldexp`` computed in float32, ``fmax``/``fmin`` keeping
the first operand on ties, ``lerp`` with a 0-d weight of another dtype and with complex ends,
``nan_to_num`` of float16 without numpy's overflow warning, and ``complex`` / ``polar`` /
``view_as_complex`` of float16 and integer parts."""
import math
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _same_dtype_and_bits(case):
    """``case(lib)`` gives tensors of one dtype and bit pattern (signed zeros included) in both
    libraries, or the same error."""
    def run(lib):
        try:
            result = case(lib)
        except Exception as error:  # noqa: BLE001  the error is the outcome compared
            return type(error).__name__, str(error)
        return str(result.dtype).split(".")[-1], result.detach().numpy().tobytes()
    assert run(tapegrad) == run(torch)


# ---------------------------------------------------------------------------------- round
ROUND_CASES = [
    lambda lib: lib.round(lib.tensor([3, -2])),
    lambda lib: lib.round(lib.tensor([3, -2]), decimals=0),
    lambda lib: lib.tensor([True]).round(decimals=0),
    lambda lib: lib.round(lib.tensor([3], dtype=lib.uint8), decimals=2),
    lambda lib: lib.special.round(lib.tensor([3])),
    lambda lib: lib.special.round(lib.tensor([1.25, 2.5, -0.5])),
    lambda lib: lib.special.round(lib.tensor([1.25, 2.5]), decimals=1),
    lambda lib: lib.round(lib.tensor([0.125, 2.675, -1.25]), decimals=2),
    lambda lib: lib.tensor([3, -2]).round_(),
    lambda lib: lib.tensor([3, -2]).round_(decimals=0),
]


@needs_torch
@pytest.mark.parametrize("case", ROUND_CASES)
def test_round_overloads_match_torch(case):
    _same_dtype_and_bits(case)


def test_round_with_decimals_given_is_the_decimals_overload():
    x = tapegrad.tensor([1.5], requires_grad=True)
    assert x.clone().round_().grad_fn.name() == "RoundBackward0"
    assert x.clone().round_(decimals=0).grad_fn.name() == "RoundBackward1"
    assert tapegrad.round(x).grad_fn.name() == "RoundBackward0"
    assert tapegrad.round(x, decimals=0).grad_fn.name() == "RoundBackward1"
    assert tapegrad.special.round(x).grad_fn.name() == "RoundBackward1"
    assert tapegrad.round(tapegrad.tensor([7])).tolist() == [7]
    with pytest.raises(NotImplementedError, match='"round_vml_cpu" not implemented for \'Long\''):
        tapegrad.round(tapegrad.tensor([7]), decimals=0)
    with pytest.raises(NotImplementedError, match='"round_cpu" not implemented for \'Long\''):
        tapegrad.round(tapegrad.tensor([7]), decimals=1)


# ------------------------------------------------------------------------ complex predicates
def test_isreal_looks_at_the_imaginary_part():
    z = tapegrad.tensor([1 + 0j, 1 + 1j, complex(math.nan, 0), complex(0, math.nan)])
    assert tapegrad.isreal(z).tolist() == [True, False, True, False]
    assert tapegrad.isreal(tapegrad.tensor([math.nan, 1.0])).tolist() == [True, True]
    assert tapegrad.isreal(tapegrad.tensor([3])).tolist() == [True]


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
def test_signed_infinity_tests_refuse_complex(name):
    with pytest.raises(RuntimeError, match=f"^{name} does not support complex inputs.$"):
        getattr(tapegrad, name)(tapegrad.tensor([1j]))
    with pytest.raises(RuntimeError, match="does not support complex"):
        getattr(tapegrad.tensor([1j]), name)()
    x = tapegrad.tensor([math.inf, -math.inf, 1.0])
    out = tapegrad.empty(3, dtype=tapegrad.bool)
    assert getattr(tapegrad, name)(x, out=out) is out


# -------------------------------------------------------------------- float16 in float32
@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.sinc(lib.tensor([-1.5, 0.3, 2.7, 0.1, -0.7, 0.0], dtype=lib.float16)),
    lambda lib: lib.ldexp(lib.tensor([1e-5, 0.0, -0.0, 3.0], dtype=lib.float16),
                          lib.tensor([30])),
    lambda lib: lib.ldexp(lib.tensor([1e-5, 0.0, -0.0, 3.0], dtype=lib.float16),
                          lib.tensor([-30], dtype=lib.int8)),
])
def test_float16_kernels_compute_in_float32(case):
    _same_dtype_and_bits(case)


def test_float16_sinc_is_the_float32_value_rounded_once():
    x = np.array([-1.5, 0.3, 2.7, 0.1, -0.7], np.float16)
    product = x.astype(np.float32) * np.float32(math.pi)
    expected = (np.sin(product) / product).astype(np.float16)
    got = tapegrad.sinc(tapegrad.tensor(x.tolist(), dtype=tapegrad.float16)).numpy()
    assert got.tobytes() == expected.tobytes()


def test_float16_ldexp_does_not_overflow_the_power_of_two():
    out = tapegrad.ldexp(tapegrad.tensor([0.0, -0.0, 2.0 ** -20], dtype=tapegrad.float16),
                         tapegrad.tensor([20]))
    assert out.dtype == tapegrad.float16
    assert out.tolist() == [0.0, -0.0, 1.0] and math.copysign(1, out[1].item()) == -1


def test_nan_to_num_float16_is_quiet():
    x = tapegrad.tensor([math.nan, math.inf, -math.inf], dtype=tapegrad.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tapegrad.nan_to_num(x).tolist() == [0.0, 65504.0, -65504.0]
        assert tapegrad.nan_to_num(x, posinf=1e6).tolist()[1] == math.inf


# ----------------------------------------------------------------------------- fmax / fmin
def test_fmax_fmin_keep_the_first_operand_on_ties_and_skip_nan():
    zeros = tapegrad.zeros(20)
    for op in (tapegrad.fmax, tapegrad.fmin):
        assert not op(zeros, -zeros).signbit().any()
        assert op(-zeros, zeros).signbit().all()
    x = tapegrad.tensor([math.nan, 1.0, math.nan, 2.0])
    y = tapegrad.tensor([1.0, math.nan, math.nan, 3.0])
    assert str(tapegrad.fmax(x, y).tolist()) == "[1.0, 1.0, nan, 3.0]"
    assert str(tapegrad.fmin(x, y).tolist()) == "[1.0, 1.0, nan, 2.0]"


@needs_torch
def test_fmax_fmin_signed_zeros_match_torch():
    _same_dtype_and_bits(lambda lib: lib.fmax(lib.tensor([-3, 0, 2]),
                                              lib.tensor([-1.5, -0.0, 0.0])))
    _same_dtype_and_bits(lambda lib: lib.fmin(-lib.zeros(19), lib.zeros(19)))


# ---------------------------------------------------------------------------------- lerp
LERP_CASES = [
    lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), lib.tensor(0.25, dtype=lib.float64)),
    lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), lib.tensor(1)),
    lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), lib.tensor(0.5 + 0j)),
    lambda lib: lib.lerp(lib.tensor(0.0), lib.tensor(1.0), lib.tensor(0.3, dtype=lib.float64)),
    lambda lib: lib.lerp(lib.zeros(2), lib.ones(2), lib.tensor([0.5, 0.5], dtype=lib.float64)),
    lambda lib: lib.lerp(lib.zeros(2), lib.tensor(1.0, dtype=lib.float64), 0.5),
    lambda lib: lib.lerp(lib.zeros(2, dtype=lib.float16), lib.ones(2, dtype=lib.float16),
                         lib.tensor(0.3)),
    lambda lib: lib.zeros(2).lerp_(lib.ones(2), lib.tensor(0.25, dtype=lib.float64)),
    lambda lib: lib.zeros(2).lerp_(lib.ones(2), lib.tensor(0.5 + 0j)),
    lambda lib: lib.lerp(lib.tensor([1 + 1j, -2j]), lib.tensor([3 + 0j, 1j]), 0.75),
    lambda lib: lib.lerp(lib.tensor([1 + 1j]), lib.tensor([3 + 0j]), lib.tensor([0.25 + 0.5j])),
]


@needs_torch
@pytest.mark.parametrize("case", LERP_CASES)
def test_lerp_weight_promotion_matches_torch(case):
    _same_dtype_and_bits(case)


@needs_torch
def test_lerp_gradients_reach_a_double_weight_in_its_dtype():
    def case(lib):
        start = lib.zeros(2, requires_grad=True)
        weight = lib.tensor(0.3, dtype=lib.float64, requires_grad=True)
        lib.lerp(start, lib.ones(2), weight).sum().backward()
        return start.grad, weight.grad
    assert_same(case, torch)
    weight = tapegrad.tensor(0.3, dtype=tapegrad.float64, requires_grad=True)
    tapegrad.lerp(tapegrad.zeros(2), tapegrad.ones(2), weight).sum().backward()
    assert weight.grad.dtype == tapegrad.float64 and weight.grad.item() == 2.0


def test_lerp_of_complex_ends_is_the_straight_line():
    start, end = tapegrad.tensor([1 + 1j]), tapegrad.tensor([3 - 1j])
    assert tapegrad.lerp(start, end, 0.25).tolist() == [1.5 + 0.5j]
    through = tapegrad.lerp(start, end, tapegrad.tensor([0.5j]))
    assert through.tolist() == [(1 + 1j) + 0.5j * (2 - 2j)]


# -------------------------------------------------------------------- complex from parts
@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.polar(lib.ones(1, dtype=lib.float16), lib.ones(1, dtype=lib.float16)),
    lambda lib: lib.complex(lib.ones(1, dtype=lib.float16), lib.ones(1)),
    lambda lib: lib.complex(lib.tensor([1]), lib.tensor([1.0])),
    lambda lib: lib.view_as_complex(lib.tensor([[1, 2]], dtype=lib.int32)),
    lambda lib: lib.view_as_complex(lib.tensor([[1.0, 2.0]])),
])
def test_complex_from_parts_matches_torch(case):
    assert_same(case, torch)


@pytest.mark.parametrize("case", [
    lambda: tapegrad.complex(tapegrad.ones(1).half(), tapegrad.ones(1).half()),
    lambda: tapegrad.view_as_complex(tapegrad.ones(1, 2).half()),
])
def test_complex_half_results_are_tapegrads_storage_only_error(case):
    """PyTorch makes a ComplexHalf tensor; tapegrad says it cannot compute in it."""
    with pytest.raises(TypeError, match="cannot compute in torch.complex32"):
        case()
