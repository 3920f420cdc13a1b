"""Differences found by differential fuzzing of dtypes and type promotion against PyTorch (fzd):
binary elementwise functions over every pair of dtypes (bool, integers, floats, complex), 0-d
and n-d tensors and Python numbers on either side, operator and in-place forms, ``out=``, unary
functions of integer, bool and complex tensors, conversions, ``promote_types``, ``result_type``,
``can_cast`` and dtype inference. Real-only functions given complex tensors (which computed
on the real part), powers of integers by out-of-range numbers, and promotion with bfloat16 and
complex32."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _complex(lib):
    return lib.tensor([1 + 1j, -0.5 + 2j])


# -- real-only functions refuse complex tensors (they computed on the real part) ------------------

REAL_ONLY_CASES = {
    "erf": (lambda lib, z: lib.erf(z), NotImplementedError,
            "\"erf_vml_cpu\" not implemented for 'ComplexFloat'"),
    "erfc_": (lambda lib, z: z.erfc_(), NotImplementedError,
              "\"erfc_vml_cpu\" not implemented for 'ComplexFloat'"),
    "erfinv": (lambda lib, z: z.erfinv(), NotImplementedError,
               "\"erfinv_vml_cpu\" not implemented for 'ComplexFloat'"),
    "lgamma": (lambda lib, z: lib.lgamma(z), NotImplementedError,
               "\"lgamma_vml_cpu\" not implemented for 'ComplexFloat'"),
    "digamma_": (lambda lib, z: z.digamma_(), NotImplementedError,
                 "\"digamma\" not implemented for 'ComplexFloat'"),
    "polygamma1": (lambda lib, z: lib.polygamma(1, z), NotImplementedError,
                   "\"trigamma\" not implemented for 'ComplexFloat'"),
    "polygamma2": (lambda lib, z: lib.polygamma(2, z), NotImplementedError,
                   "\"polygamma\" not implemented for 'ComplexFloat'"),
    "mvlgamma": (lambda lib, z: lib.mvlgamma(z, 2), NotImplementedError,
                 "\"arange_cpu\" not implemented for 'ComplexFloat'"),
    "i0": (lambda lib, z: lib.i0(z), NotImplementedError,
           "\"i0_vml_cpu\" not implemented for 'ComplexFloat'"),
    "special_i1e": (lambda lib, z: lib.special.i1e(z), NotImplementedError,
                    "\"i1e_cpu\" not implemented for 'ComplexFloat'"),
    "special_ndtri": (lambda lib, z: lib.special.ndtri(z), NotImplementedError,
                      "\"ndtri_cpu\" not implemented for 'ComplexFloat'"),
    "special_bessel_j0": (lambda lib, z: lib.special.bessel_j0(z), NotImplementedError,
                          "\"bessel_j0_cpu\" not implemented for 'ComplexFloat'"),
    "logit_": (lambda lib, z: z.logit_(), NotImplementedError,
               "\"logit_cpu\" not implemented for 'ComplexFloat'"),
    "deg2rad": (lambda lib, z: lib.deg2rad(z), RuntimeError,
                "deg2rad is not supported for complex tensors."),
    "rad2deg_": (lambda lib, z: z.rad2deg_(), RuntimeError,
                 "rad2deg is not supported for complex tensors."),
    "signbit": (lambda lib, z: lib.signbit(z), NotImplementedError,
                "signbit is not implemented for complex tensors."),
    "fmax": (lambda lib, z: lib.fmax(z, lib.ones(2)), RuntimeError,
             "fmax not implemented for complex tensors."),
    "fmin": (lambda lib, z: lib.fmin(lib.ones(2, dtype=lib.float64), z), RuntimeError,
             "fmin not implemented for complex tensors."),
    "xlogy": (lambda lib, z: lib.xlogy(z, 2.0), NotImplementedError,
              "\"xlogy_cpu\" not implemented for 'ComplexFloat'"),
    "xlogy_number_self": (lambda lib, z: lib.xlogy(2.0, z), NotImplementedError,
                          "\"xlogy_cpu\" not implemented for 'ComplexFloat'"),
    "atan2": (lambda lib, z: lib.atan2(z, lib.ones(2, dtype=lib.int32)), NotImplementedError,
              "\"atan2_cpu\" not implemented for 'ComplexFloat'"),
    "copysign": (lambda lib, z: lib.copysign(lib.ones(2, dtype=lib.float64), z),
                 NotImplementedError, "\"copysign_cpu\" not implemented for 'ComplexDouble'"),
    "copysign_number": (lambda lib, z: lib.copysign(lib.ones(2), 1j), NotImplementedError,
                        "\"copysign_cpu\" not implemented for 'ComplexFloat'"),
    "heaviside": (lambda lib, z: lib.heaviside(z, lib.ones(2)), RuntimeError,
                  "heaviside is not yet implemented for complex tensors."),
}


@pytest.mark.parametrize("name", sorted(REAL_ONLY_CASES))
def test_real_only_functions_refuse_complex_tensors(name):
    call, error, message = REAL_ONLY_CASES[name]
    with pytest.raises(error) as caught:
        call(tapegrad, _complex(tapegrad))
    assert str(caught.value) == message


@needs_torch
@pytest.mark.parametrize("name", sorted(REAL_ONLY_CASES))
def test_real_only_functions_refuse_complex_tensors_as_torch(name):
    assert_same(lambda lib: REAL_ONLY_CASES[name][0](lib, _complex(lib)), torch)


def test_sgn_in_place_of_a_complex_tensor_is_its_unit_direction():
    z = tapegrad.tensor([3 + 4j, 0j])
    z.sgn_()
    np.testing.assert_allclose(z.numpy(), [0.6 + 0.8j, 0j], rtol=1e-6)


def test_sgn_in_place_of_a_complex_tensor_records_its_gradient():
    z = tapegrad.tensor([3 + 4j, -1j], requires_grad=True)
    w = z * 1
    w.sgn_()
    assert type(w.grad_fn).__name__ == "SgnBackward0"
    w.real.sum().backward()
    in_place_grad, z.grad = z.grad, None
    tapegrad.sgn(z).real.sum().backward()
    np.testing.assert_allclose(in_place_grad.numpy(), z.grad.numpy(), rtol=1e-6)
    assert np.abs(in_place_grad.numpy()).max() > 0.1


@needs_torch
def test_sgn_in_place_gradient_as_torch():
    def case(lib):
        z = lib.tensor([3 + 4j, -1j, 2 - 1j], requires_grad=True)
        w = z * 1
        w.sgn_()
        (w * lib.tensor([1 - 1j, 2j, 0.5])).real.sum().backward()
        return w.detach().real, w.detach().imag, z.grad.real, z.grad.imag
    assert_same(case, torch)


# -- mvlgamma: bool and integer tensors ------------------------------------------------------------

def test_mvlgamma_refuses_a_bool_tensor_before_checking_p():
    with pytest.raises(RuntimeError, match="^The input tensor may not be a boolean tensor.$"):
        tapegrad.mvlgamma(tapegrad.tensor([True]), 0)
    with pytest.raises(RuntimeError, match="^The input tensor may not be a boolean tensor.$"):
        tapegrad.tensor([True]).mvlgamma_(2)


def test_mvlgamma_in_place_refuses_an_integer_tensor():
    with pytest.raises(RuntimeError, match="^mvlgamma: result type Char can't be cast to the "
                                           "desired output type Float$"):
        tapegrad.tensor([3], dtype=tapegrad.int8).mvlgamma_(2)


# -- float_power: complex operands compute in complex128 -------------------------------------------

@pytest.mark.parametrize("call", [
    lambda lib: lib.float_power(lib.tensor([1, 2]), 1j),
    lambda lib: lib.float_power(lib.tensor([1.0, 2.0]), lib.tensor([1j])),
    lambda lib: lib.float_power(lib.tensor([1 + 1j], dtype=lib.complex64), 2),
    lambda lib: lib.float_power(2.5, lib.tensor([1 + 1j], dtype=lib.complex64)),
])
def test_float_power_with_a_complex_operand_is_complex128(call):
    assert call(tapegrad).dtype == tapegrad.complex128


def test_float_power_keeps_the_imaginary_part():
    result = tapegrad.float_power(tapegrad.tensor([2.0]), tapegrad.tensor([1j]))
    np.testing.assert_allclose(result.numpy(), [2.0 ** 1j])


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.float_power(lib.tensor([1, 2]), 1j),
    lambda lib: lib.float_power(lib.tensor([1 + 1j], dtype=lib.complex64),
                                lib.tensor([2, 3], dtype=lib.int32)),
    lambda lib: lib.tensor([1 + 1j], dtype=lib.complex64).float_power_(2),
    lambda lib: lib.tensor([2.0], dtype=lib.float64).float_power_(1j),
    lambda lib: lib.tensor([1 + 1j], dtype=lib.complex128).float_power_(0.5),
])
def test_float_power_of_complex_as_torch(call):
    assert_same(lambda lib: (lambda r: (r.real, r.imag))(call(lib)), torch)


def test_float_power_in_place_names_the_complex_result_dtype():
    with pytest.raises(RuntimeError, match="^the base given to float_power_ has dtype Double but "
                                           "the operation's result requires dtype "
                                           "ComplexDouble$"):
        tapegrad.tensor([2.0], dtype=tapegrad.float64).float_power_(1j)


# -- integer powers: the exponent must fit the tensor's dtype -------------------------------------

@pytest.mark.parametrize("call, cpp_type", [
    (lambda lib: lib.tensor([2, 3], dtype=lib.int8) ** 200, "int8_t"),
    (lambda lib: lib.tensor([2, 3], dtype=lib.int16).pow(2 ** 40), "int16_t"),
    (lambda lib: lib.tensor([2, 3], dtype=lib.uint8) ** 256, "uint8_t"),
    (lambda lib: lib.tensor([2, 3], dtype=lib.int8).pow_(128), "int8_t"),
])
def test_an_integer_power_out_of_the_dtype_range_is_refused(call, cpp_type):
    with pytest.raises(RuntimeError, match=f"^value cannot be converted to type {cpp_type} "
                                           "without overflow$"):
        call(tapegrad)


def test_integer_powers_in_range_still_wrap():
    assert tapegrad.tensor([3], dtype=tapegrad.int8).pow(127).tolist() == [-85]
    with pytest.raises(RuntimeError, match="^Integers to negative integer powers"):
        tapegrad.tensor([3], dtype=tapegrad.int8) ** -200  # (the sign is checked first)


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.tensor([2, 3], dtype=lib.int8) ** 200,
    lambda lib: lib.tensor([2, 3], dtype=lib.int8) ** 127,
    lambda lib: lib.tensor([2, 3], dtype=lib.int8) ** -200,
    lambda lib: lib.tensor([True, False]) ** 300,
    lambda lib: lib.tensor([2, 3], dtype=lib.uint8) ** 255,
])
def test_integer_powers_by_numbers_as_torch(call):
    assert_same(call, torch)


# -- promote_types with the dtypes numpy lacks ------------------------------------------------------

_ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
        "complex64", "complex128", "bfloat16", "complex32"]


@pytest.mark.parametrize("first, second, expected", [
    ("bfloat16", "float16", "float32"), ("float16", "bfloat16", "float32"),
    ("bfloat16", "float32", "float32"), ("float64", "bfloat16", "float64"),
    ("bfloat16", "int64", "bfloat16"), ("bfloat16", "complex64", "complex64"),
    ("complex32", "complex64", "complex64"), ("complex128", "complex32", "complex128"),
    ("complex32", "bfloat16", "complex64"), ("complex32", "float32", "complex64"),
])
def test_promote_types_with_bfloat16_and_complex32(first, second, expected):
    result = tapegrad.promote_types(getattr(tapegrad, first), getattr(tapegrad, second))
    assert result is getattr(tapegrad, expected)


@needs_torch
@pytest.mark.parametrize("first", ["bfloat16", "complex32"])
def test_promote_types_with_bfloat16_and_complex32_as_torch(first):
    for second in _ALL:
        ours = tapegrad.promote_types(getattr(tapegrad, first), getattr(tapegrad, second))
        theirs = torch.promote_types(getattr(torch, first), getattr(torch, second))
        assert str(ours) == str(theirs), second


# -- out=: its dtype is checked against the operands' before the kernel refuses them --------------

@pytest.mark.parametrize("call, message", [
    (lambda lib, out: lib.atan2(lib.ones(2, dtype=lib.complex64), lib.ones(2), out=out),
     "result type ComplexFloat can't be cast to the desired output type Int"),
    (lambda lib, out: lib.bitwise_and(lib.ones(2, dtype=lib.int16), lib.ones(2), out=out),
     "result type Float can't be cast to the desired output type Int"),
    (lambda lib, out: lib.fmod(lib.ones(2, dtype=lib.complex128), 2.5, out=out),
     "result type ComplexDouble can't be cast to the desired output type Int"),
])
def test_out_dtype_is_checked_before_the_kernel(call, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        call(tapegrad, tapegrad.empty(2, dtype=tapegrad.int32))


def test_a_comparison_refused_by_its_kernel_still_says_so_with_out():
    out = tapegrad.empty(2, dtype=tapegrad.int32)
    with pytest.raises(NotImplementedError, match="\"lt_cpu\" not implemented for 'ComplexFloat'"):
        tapegrad.lt(tapegrad.ones(2, dtype=tapegrad.complex64), tapegrad.ones(2), out=out)


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.atan2(lib.ones(2, dtype=lib.complex64), lib.ones(2, dtype=lib.uint8),
                          out=lib.empty(2, dtype=lib.int64)),
    lambda lib: lib.hypot(lib.ones(2, dtype=lib.int8), lib.ones(2, dtype=lib.int8),
                          out=lib.empty(2, dtype=lib.bool)),
    lambda lib: lib.hypot(lib.ones(2, dtype=lib.int8), lib.ones(2, dtype=lib.int8),
                          out=lib.empty(2, dtype=lib.int16)),
    lambda lib: lib.remainder(lib.ones(2, dtype=lib.complex64), 2, out=lib.empty(2)),
    lambda lib: lib.lt(lib.ones(2, dtype=lib.complex64), 2, out=lib.empty(2)),
])
def test_out_dtype_checks_as_torch(call):
    assert_same(call, torch)


# -- fmod_ by a number out of an integer tensor's range wraps it, as fmod does --------------------

def test_fmod_in_place_wraps_a_number_into_the_integer_dtype():
    x = tapegrad.tensor([17, 6], dtype=tapegrad.uint8)
    assert x.fmod_(-4).tolist() == [17, 6]  # -4 is 252 as uint8
    assert tapegrad.tensor([7], dtype=tapegrad.int32).fmod_(2 ** 63 - 1).tolist() == [0]  # -1


@needs_torch
@pytest.mark.parametrize("other", [-4, 300, 2 ** 63 - 1])
def test_fmod_in_place_by_a_wrapped_number_as_torch(other):
    assert_same(lambda lib: lib.tensor([17, 6, 200], dtype=lib.uint8).fmod_(other), torch)


# -- lerp: ``end`` is a tensor only ------------------------------------------------------------------

def test_lerp_refuses_a_number_end():
    with pytest.raises(TypeError, match=r"^lerp\(\) received an invalid combination of arguments "
                                        r"- got \(Tensor, int, float\), but expected one of:"):
        tapegrad.lerp(tapegrad.ones(2), 4, 0.5)
    with pytest.raises(TypeError, match=r"^lerp_\(\) received an invalid combination of "
                                        r"arguments - got \(int, float\)"):
        tapegrad.ones(2).lerp_(4, 0.5)  # (it crashed reading the number's _requires_grad)


@needs_torch
def test_lerp_of_a_number_end_as_torch():
    assert_same(lambda lib: lib.lerp(lib.ones(2), 4, 0.5), torch)
