"""Differences found by the integer / bool / mixed-dtype programs (itg_*): ``finfo``/``iinfo``
equality, ``dtype.to_complex``/``to_real``, promotion of uint16/32/64 with bool and complex
dtypes, ``torch.dtype`` arguments, Python ints beyond int64/uint64 as operands, numbers where
a binary function's overloads take none (``torch.eq(2, t)``, ``torch.bitwise_and(6, 3)``), and
``binomial``/``poisson`` edge cases (certain and impossible outcomes, NaN chances, overflowing
rates, no derivative)."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

FLOATS = ("float16", "bfloat16", "float32", "float64")
COMPLEXES = ("complex32", "complex64", "complex128")
INTEGERS = ("bool", "uint8", "int8", "int16", "int32", "int64")
UNSIGNED = ("uint16", "uint32", "uint64")


# ------------------------------------------------------------------ finfo / iinfo equality

def test_limits_compare_by_dtype():
    T = tapegrad
    assert T.finfo(T.float32) == T.finfo(T.float32)
    assert T.finfo(T.float32) == T.finfo(T.complex64)  # a complex type's limits are its parts'
    assert T.finfo() == T.finfo(T.get_default_dtype())
    assert T.finfo(T.float32) != T.finfo(T.float16)
    assert T.iinfo(T.int8) == T.iinfo(T.int8) and T.iinfo(T.int8) != T.iinfo(T.uint8)
    assert T.finfo(T.float32) != 1 and T.iinfo(T.int64) != T.finfo(T.float64)
    assert repr(type(T.finfo())) == "<class 'torch.finfo'>"


@needs_torch
@pytest.mark.parametrize("make", [lambda lib: hash(lib.finfo(lib.float32)),
                                  lambda lib: {lib.iinfo(lib.int8)},
                                  lambda lib: lib.finfo(lib.float16) == lib.finfo(lib.bfloat16),
                                  lambda lib: lib.iinfo(lib.int16) == lib.iinfo(lib.int16)])
def test_limits_hash_and_equality_as_torch(make):
    assert_same(make, torch)


# ------------------------------------------------------------------ to_complex / to_real

@needs_torch
@pytest.mark.parametrize("name", FLOATS + COMPLEXES + INTEGERS + UNSIGNED)
@pytest.mark.parametrize("method", ["to_complex", "to_real"])
def test_complex_and_real_counterparts_as_torch(name, method):
    assert_same(lambda lib: repr(getattr(getattr(lib, name), method)()), torch)


def test_complex_counterparts_round_trip():
    for name in ("float16", "float32", "float64"):
        d = getattr(tapegrad, name)
        assert d.to_complex().is_complex and d.to_complex().to_real() is d
    with pytest.raises(RuntimeError, match="Unknown Complex ScalarType for Long"):
        tapegrad.int64.to_complex()


# ------------------------------------------------------------------ barely supported unsigned

@needs_torch
@pytest.mark.parametrize("unsigned", UNSIGNED)
@pytest.mark.parametrize("other", FLOATS + COMPLEXES + INTEGERS + UNSIGNED)
def test_wide_unsigned_promotion_as_torch(unsigned, other):
    """Only with themselves and floating dtypes: bool, integers and complex refuse."""
    for a, b in ((unsigned, other), (other, unsigned)):
        assert_same(lambda lib: repr(lib.promote_types(getattr(lib, a), getattr(lib, b))), torch)


@needs_torch
@pytest.mark.parametrize("other", [lambda lib: lib.tensor(True), lambda lib: lib.tensor(3),
                                   lambda lib: 2, lambda lib: 2.5, lambda lib: 1j,
                                   lambda lib: lib.ones(2, dtype=lib.float16)])
def test_wide_unsigned_result_type_tiers_as_torch(other):
    """A lower tier of the same or lower category leaves uint16 alone; a higher one wins."""
    assert_same(lambda lib: repr(lib.result_type(lib.ones(2, dtype=lib.uint16), other(lib))),
                torch)


# ------------------------------------------------------------------ dtype arguments

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: repr(lib.promote_types(lib.int32, float)),
    lambda lib: repr(lib.promote_types(complex, lib.int32)),
    lambda lib: repr(lib.promote_types(lib.int8, bool)),
    lambda lib: lib.promote_types("float32", lib.int32),
    lambda lib: lib.promote_types(lib.int32, np.float32),
    lambda lib: lib.promote_types(None, lib.int32),
    lambda lib: lib.promote_types(lib.int32, lib.ones(2)),
    lambda lib: lib.can_cast(float, int),
    lambda lib: lib.can_cast(lib.int32, "int"),
    lambda lib: lib.can_cast(lib.ones(1), lib.int32),
])
def test_dtype_arguments_as_torch(case):
    """A ``torch.dtype`` argument takes a dtype or a Python number type, nothing else."""
    assert_same(case, torch)


# ------------------------------------------------------------------ huge Python ints

HUGE = [2 ** 64, -2 ** 63 - 1, 2 ** 100, 2 ** 64 - 1, -2 ** 63]


@needs_torch
@pytest.mark.parametrize("value", HUGE)
@pytest.mark.parametrize("case", [
    lambda lib, v: lib.tensor([1.0, 2.0]) + v,
    lambda lib, v: lib.tensor([1, 2]) * v,
    lambda lib, v: lib.tensor([1, 2], dtype=lib.uint8) - v,
    lambda lib, v: lib.tensor([1.0], dtype=lib.float16) * v,
    lambda lib, v: lib.tensor([1, 2]) == v,
    lambda lib, v: lib.tensor([1.0]).clamp(max=v),
    lambda lib, v: lib.tensor([1.0]).masked_fill(lib.tensor([True]), v),
    lambda lib, v: lib.tensor([3]).add_(v),
])
def test_python_int_beyond_64_bits_as_torch(case, value):
    """Read as int64, else uint64, whatever the tensor's dtype; beyond both an OverflowError."""
    assert_same(lambda lib: case(lib, value), torch)


def test_python_int_beyond_64_bits_refused():
    with pytest.raises(OverflowError, match="int too big to convert"):
        tapegrad.ones(2) * 2 ** 64
    with pytest.raises(OverflowError, match="can't convert negative int to unsigned"):
        tapegrad.ones(2) + (-2 ** 63 - 1)
    assert (tapegrad.ones(2) * (2 ** 64 - 1)).dtype == tapegrad.float32


# ------------------------------------------------------------------ binomial / poisson

def test_binomial_outcomes_fixed_before_sampling():
    """No trial or no chance: 0; certainty: the count itself (fractional too); NaN chance: NaN."""
    count = tapegrad.tensor([2.5, -1.0, 0.0, 4.0, 7.0, 3.0], dtype=tapegrad.float64)
    prob = tapegrad.tensor([1.0, 1.0, 0.3, 0.0, float("nan"), 1.5], dtype=tapegrad.float64)
    out = tapegrad.binomial(count, prob)
    np.testing.assert_array_equal(out.numpy(), [2.5, 0.0, 0.0, 0.0, np.nan, 3.0])
    assert out.dtype == tapegrad.float64


def test_binomial_draws_stay_within_counts():
    tapegrad.manual_seed(0)
    count = tapegrad.full((2000,), 10.0)
    out = tapegrad.binomial(count, tapegrad.full((2000,), 0.3))
    assert out.min().item() >= 0 and out.max().item() <= 10
    assert abs(out.mean().item() - 3.0) < 0.2


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.binomial(lib.tensor([2.5, -1.0, 0.0]), lib.tensor([1.0, 1.0, 0.3])),
    lambda lib: lib.binomial(lib.tensor([5.0]), lib.tensor([float("nan")])),
    lambda lib: lib.binomial(lib.tensor([2.0], dtype=lib.float16),
                             lib.tensor([1.0], dtype=lib.float16)),
    lambda lib: lib.binomial(lib.tensor([5.0], requires_grad=True),
                             lib.tensor([0.5])).requires_grad,
    lambda lib: type(lib.binomial(lib.tensor([5.0]), lib.tensor([0.5], requires_grad=True))
                     .grad_fn).__name__,
    lambda lib: lib.binomial(lib.tensor([5.0], requires_grad=True),
                             lib.tensor([1.0])).sum().backward(),
    lambda lib: lib.binomial(lib.tensor([[3.0]]), lib.tensor([1.0, 1.0])),
    lambda lib: lib.poisson(lib.tensor([float("inf"), 1e30, 0.0])),
    lambda lib: lib.poisson(lib.tensor([float("inf")], dtype=lib.float64)),
])
def test_binomial_and_poisson_as_torch(case):
    assert_same(case, torch)


def test_poisson_overflowing_rate_gives_int64_minimum():
    out = tapegrad.poisson(tapegrad.tensor([float("inf"), 1e19, 4.0]))
    assert out[:2].tolist() == [float(-2 ** 63)] * 2 and out[2].item() >= 0


# ------------------------------------------------------------------ numbers where tensors go

_T = [1, -2, 3]


@needs_torch
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                                  "bitwise_right_shift", "remainder", "eq", "ne", "not_equal",
                                  "lt", "less", "le", "less_equal", "gt", "greater", "ge",
                                  "greater_equal", "logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("operands", [
    lambda lib: (lib.tensor(_T), 2), lambda lib: (2, lib.tensor(_T)), lambda lib: (6, 3),
    lambda lib: (lib.tensor(_T), lib.tensor(_T)), lambda lib: (lib.tensor(_T), [1, 2, 3]),
    lambda lib: (lib.tensor(_T), None), lambda lib: (np.int64(7), lib.tensor(_T)),
])
def test_binary_function_operands_as_torch(name, operands):
    """Each function takes numbers where one of PyTorch's overloads does: on either side of a
    tensor (bitwise, remainder), on its right (comparisons), nowhere (logical); the parser's
    TypeError names the function as called (``greater``, not ``gt``)."""
    assert_same(lambda lib: getattr(lib, name)(*operands(lib)), torch)


def test_binary_functions_keep_their_operator_forms():
    T = tapegrad
    x = T.tensor([5, -3, 2])
    assert (2 < x).tolist() == [True, False, False] and (7 % x).tolist() == [2, -2, 1]
    assert (1 << x.abs()).tolist() == [32, 8, 4] and (x == None) is False  # noqa: E711
    assert x.clone().eq_(2).tolist() == [0, 0, 1] and x.bitwise_and(1).tolist() == [1, 1, 0]
    with pytest.raises(TypeError, match=r"^greater\(\) received an invalid combination"):
        T.greater(1, x)
