"""Leftovers the program writers found (fx2): rad2deg/deg2rad rounded as PyTorch multiplies by
its constant, in-place ops refusing float results in integer tensors (``reciprocal_``,
``atan2_``, ``ldexp_`` …), bool clamps, dropout of integer tensors, sparse tensors through
``save``/``load``, PyTorch's TypeErrors for numbers where a function takes tensors only
(``torch.atan2(y, 1.0)``, ``torch.fmod(-7, t)``, ``torch.isclose(y, 0.5)``), and the bounds
of random integers (``randint``/``random_``/``randperm`` in small dtypes, ``rand_like`` of an
integer tensor)."""
import io
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


def message_of(call):
    """The type name and message of the exception ``call()`` raises."""
    try:
        call()
    except Exception as error:  # noqa: BLE001  the exception is what is looked at
        return type(error).__name__, str(error)
    raise AssertionError("no exception")


def same_error_or_dtype(case):
    """``case(lib)`` as a comparable outcome: its exception, or its dtype and shape (random
    values differ between the libraries)."""
    def outcome(lib):
        result = case(lib)
        return str(result.dtype), tuple(result.shape)
    return outcome


# ------------------------------------------------------------------ rad2deg and deg2rad

@pytest.mark.parametrize("name, constant", [("rad2deg", 180 / math.pi),
                                            ("deg2rad", math.pi / 180)])
def test_angle_conversion_multiplies_by_the_constant_in_the_dtype(name, constant):
    values = np.linspace(-1000, 1000, 20001)
    for np_dtype, compute in ((np.float32, np.float32), (np.float64, np.float64),
                              (np.float16, np.float32)):  # float16 computes in float32
        x = values.astype(np_dtype)
        expected = (x.astype(compute) * compute(constant)).astype(np_dtype)
        out = getattr(tapegrad, name)(tapegrad.tensor(x))
        np.testing.assert_array_equal(out.numpy(), expected)
        in_place = getattr(tapegrad.tensor(x), name + "_")()
        np.testing.assert_array_equal(in_place.numpy(), expected)


@pytest.mark.parametrize("name", ["rad2deg", "deg2rad"])
def test_angle_conversion_gradient(name):
    x = tapegrad.tensor([0.3, -2.0, 7.5], dtype=tapegrad.float64, requires_grad=True)
    assert tapegrad.autograd.gradcheck(getattr(tapegrad, name), (x,))


@needs_torch
@pytest.mark.parametrize("name", ["rad2deg", "deg2rad"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_angle_conversion_bits_as_torch(name, dtype):
    values = np.linspace(-400, 400, 8001)
    ours = getattr(tapegrad, name)(tapegrad.tensor(values).to(getattr(tapegrad, dtype)))
    theirs = getattr(torch, name)(torch.tensor(values).to(getattr(torch, dtype)))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


# ------------------------------------------------------------------ in-place float results

def test_reciprocal_in_place_refuses_an_integer_tensor():
    assert message_of(lambda: tapegrad.tensor([2]).reciprocal_()) == (
        "RuntimeError", "result type Float can't be cast to the desired output type Long")
    previous = tapegrad.get_default_dtype()
    tapegrad.set_default_dtype(tapegrad.float64)
    try:
        assert message_of(lambda: tapegrad.tensor([True]).reciprocal_())[1] == (
            "result type Double can't be cast to the desired output type Bool")
    finally:
        tapegrad.set_default_dtype(previous)
    assert tapegrad.tensor([4.0]).reciprocal_().tolist() == [0.25]


@needs_torch
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("name", ["reciprocal_", "sqrt_", "exp_", "log_", "sigmoid_", "tanh_",
                                  "rsqrt_", "sin_", "erf_", "deg2rad_", "frac_"])
def test_float_result_unary_in_place_as_torch(name, dtype):
    assert_same(lambda lib: getattr(lib.tensor([2, 1], dtype=getattr(lib, dtype)), name)(),
                torch)


def test_float_result_binary_in_place_names_the_float_type():
    ints = tapegrad.tensor([2, 1])
    assert message_of(lambda: ints.clone().atan2_(ints))[1] == (
        "result type Float can't be cast to the desired output type Long")
    assert message_of(lambda: ints.clone().copysign_(2))[1] == (
        "result type Float can't be cast to the desired output type Long")
    assert message_of(lambda: ints.clone().ldexp_(ints))[1] == (
        "ldexp can't be cast to the desired output type Long")
    assert message_of(lambda: ints.clone().hypot_(ints)) == (
        "NotImplementedError", "\"hypot_cpu\" not implemented for 'Long'")
    assert message_of(lambda: ints.clone().fmod_(2.5))[1] == (
        "result type Float can't be cast to the desired output type Long")


@needs_torch
@pytest.mark.parametrize("self_dtype", ["int64", "int32", "uint8", "bool", "float16",
                                        "float64"])
@pytest.mark.parametrize("name", ["atan2_", "arctan2_", "copysign_", "xlogy_", "hypot_",
                                  "ldexp_", "fmod_", "gcd_", "lcm_"])
def test_float_result_binary_in_place_as_torch(name, self_dtype):
    def operands(lib):
        return (lib.tensor([2, 1]), lib.tensor([2.0, 1.0]), lib.tensor([True, False]),
                lib.tensor([2.0, 1.0], dtype=lib.float64), 2, 2.5)
    for index in range(6):
        assert_same(lambda lib: getattr(lib.tensor([2, 1], dtype=getattr(lib, self_dtype)),
                                        name)(operands(lib)[index]), torch)


def test_ldexp_of_a_float_refuses_a_bool_exponent():
    assert message_of(lambda: tapegrad.ldexp(tapegrad.ones(2), tapegrad.tensor([True, False]))) \
        == ("NotImplementedError", "\"ldexp_cpu_exp\" not implemented for 'Bool'")
    assert tapegrad.ldexp(tapegrad.tensor([3]), tapegrad.tensor([True])).tolist() == [6.0]


# ------------------------------------------------------------------ clamps of bool tensors

def test_bool_clamp_refuses_bool_number_bounds():
    flags = tapegrad.tensor([True, False])
    for call, kernel in ((lambda: flags.clamp_min_(True), "clamp_min_scalar_cpu"),
                         (lambda: flags.clamp_max(False), "clamp_max_scalar_cpu"),
                         (lambda: flags.clamp(True, True), "clamp_scalar_cpu"),
                         (lambda: flags.clamp(min=True), "clamp_min_scalar_cpu"),
                         (lambda: flags.clamp(flags, flags), "clamp_cpu")):
        assert message_of(call) == ("NotImplementedError",
                                    f"\"{kernel}\" not implemented for 'Bool'")
    # one tensor bound is a maximum or a minimum, which bool has
    assert flags.clamp(min=tapegrad.tensor(True)).tolist() == [True, True]
    assert flags.clone().clamp_(max=tapegrad.tensor(False)).tolist() == [False, False]


@needs_torch
@pytest.mark.parametrize("bound", ["True", "0", "0.5", "lib.tensor(True)",
                                   "lib.tensor([True, False])", "lib.tensor(1)"])
@pytest.mark.parametrize("call", ["x.clamp_min_(b)", "x.clamp_max_(b)", "x.clamp_min(b)",
                                  "x.clamp_max(b)", "x.clamp_(min=b)", "x.clamp_(max=b)",
                                  "x.clamp_(b, b)", "x.clamp(min=b)", "x.clamp(max=b)",
                                  "x.clamp(b, b)", "x.clip_(b, b)"])
def test_bool_clamps_as_torch(call, bound):
    def case(lib):
        x, b = lib.tensor([True, False]), eval(bound)  # noqa: S307  (the test's own text)
        return eval(call)  # noqa: S307
    assert_same(case, torch)


@needs_torch
def test_bool_clamp_between_a_number_and_a_0d_tensor_as_torch():
    assert_same(lambda lib: lib.tensor([True, False]).clamp(lib.tensor(True), True), torch)
    assert_same(lambda lib: lib.tensor([True, False]).clamp_(True, lib.tensor(True)), torch)


# ------------------------------------------------------------------ dropout of integers

def test_dropout_of_integers():
    F = tapegrad.nn.functional
    ints = tapegrad.tensor([1, 2])
    assert message_of(lambda: F.dropout(ints, 0.5))[1] == (
        "result type Float can't be cast to the desired output type Long")
    dropped = F.dropout(ints, 1.0)
    assert dropped.dtype == tapegrad.int64 and dropped.tolist() == [0, 0]
    kept = F.dropout(ints, 0.5, training=False)
    assert kept is ints
    target = tapegrad.tensor([1.0, 2.0])
    assert F.dropout(target, 1.0, inplace=True) is target and target.tolist() == [0.0, 0.0]


@needs_torch
@pytest.mark.parametrize("dtype", ["int64", "bool", "uint8", "complex64"])
@pytest.mark.parametrize("p", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("inplace", [False, True])
@pytest.mark.parametrize("name, shape", [("dropout", (2, 3)), ("dropout1d", (2, 3, 4)),
                                         ("dropout2d", (2, 3, 4, 4)),
                                         ("dropout3d", (2, 3, 2, 2, 2)),
                                         ("alpha_dropout", (2, 3)),
                                         ("feature_alpha_dropout", (2, 3, 4))])
def test_dropout_of_integers_as_torch(name, shape, p, inplace, dtype):
    def case(lib):
        x = lib.ones(shape).to(getattr(lib, dtype))
        out = getattr(lib.nn.functional, name)(x, p, True, inplace)
        return str(out.dtype), out.real.sum().item() if p in (0.0, 1.0) else None
    assert_same(case, torch)


# ------------------------------------------------------------------ sparse tensors saved

def _saved_and_loaded(obj, **load_options):
    buffer = io.BytesIO()
    tapegrad.save(obj, buffer)
    buffer.seek(0)
    return tapegrad.load(buffer, **load_options)


def test_sparse_tensors_survive_save_and_load():
    dense = tapegrad.tensor([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    coo, csr = dense.to_sparse(), dense.to_sparse_csr()
    loaded = _saved_and_loaded({"coo": coo, "csr": csr, "values": csr.values()})
    assert loaded["coo"].layout == tapegrad.sparse_coo and loaded["coo"].is_coalesced()
    assert loaded["csr"].layout == tapegrad.sparse_csr
    for sparse in (loaded["coo"], loaded["csr"]):
        assert sparse.to_dense().tolist() == dense.tolist()
    assert loaded["csr"].crow_indices().tolist() == [0, 1, 3]
    # the values tensor saved beside its sparse tensor is still its memory
    assert loaded["values"].data_ptr() == loaded["csr"].values().data_ptr()
    uncoalesced = tapegrad.sparse_coo_tensor([[0, 0, 1]], [1.0, 2.0, 3.0], (3,))
    again = _saved_and_loaded(uncoalesced, weights_only=False)
    assert not again.is_coalesced() and again.to_dense().tolist() == [3.0, 3.0, 0.0]


# ------------------------------------------------------------------ numbers where tensors go

def test_tensors_only_functions_refuse_numbers():
    y = tapegrad.tensor([1.0, -1.0, 0.5])
    assert message_of(lambda: tapegrad.atan2(y, 1.0)) == (
        "TypeError", "atan2(): argument 'other' (position 2) must be Tensor, not float")
    assert message_of(lambda: tapegrad.arctan2(1.0, y))[1] == (
        "arctan2(): argument 'input' (position 1) must be Tensor, not float")
    assert message_of(lambda: tapegrad.isclose(y, 0.5))[1] == (
        "isclose(): argument 'other' (position 2) must be Tensor, not float")
    assert message_of(lambda: tapegrad.gcd(tapegrad.tensor([4]), 6))[1] == (
        "gcd(): argument 'other' (position 2) must be Tensor, not int")
    assert message_of(lambda: y.clone().hypot_(2.0))[1] == (
        "hypot_(): argument 'other' (position 1) must be Tensor, not float")
    assert message_of(lambda: tapegrad.fmod(-7, y))[1].startswith(
        "fmod() received an invalid combination of arguments - got (int, Tensor), but expected "
        "one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n")
    # the overloads that do take a number still do
    assert tapegrad.fmod(y, 2).tolist() == [1.0, -1.0, 0.5]
    assert tapegrad.copysign(y, -1).tolist() == [-1.0, -1.0, -0.5]
    assert tapegrad.clamp_min(tapegrad.tensor([3, -1]), min=0).tolist() == [3, 0]
    assert tapegrad.rsub(tapegrad.tensor([3]), 1, alpha=2).tolist() == [-5]


NUMBER_CALLS = [
    "lib.gcd(a, 6)", "lib.lcm(a, 4)", "lib.gcd(6, a)", "lib.fmod(-7, a)", "lib.fmod(a, 5)",
    "lib.fmod(2, 3)", "lib.fmod(a, None)", "lib.atan2(y, 1.0)", "lib.atan2(1.0, y)",
    "lib.atan2(y, None)", "lib.atan2(y, [1.0])", "lib.arctan2(y, 1.0)", "lib.hypot(y, 2.0)",
    "lib.hypot(1.0, y)", "lib.logaddexp(y, 0.0)", "lib.logaddexp2(1.0, y)", "lib.ldexp(y, 3)",
    "lib.ldexp(y, None)", "lib.nextafter(y, 2.0)", "lib.heaviside(y, 0.5)",
    "lib.isclose(y, 0.5)", "lib.isclose(0.5, y)", "lib.isclose(y, None)",
    "lib.allclose(y, [1])", "lib.copysign(3, y)", "lib.copysign(y, -1)", "lib.copysign(2, 3)",
    "lib.clamp_min(a, 0)", "lib.clamp_min(0, a)", "lib.clamp_max(0, a)", "lib.clamp_min(a, None)",
    "lib.rsub(1, a)", "lib.rsub(1, a, alpha=2)", "lib.rsub(a, 1)", "lib.rsub(1, 2)",
    "lib.rsub(a, None)", "lib.xlogy(2, y.abs())", "lib.xlogy(2, 3)", "lib.xlogy(y, None)",
    "lib.special.xlog1py(2, 3)", "lib.float_power(2, 3)", "lib.dist(y, 0.0)",
    "lib.complex(y, 0.0)", "lib.polar(1.0, y)", "y.clone().atan2_(1.0)", "a.clone().gcd_(6)",
    "y.clone().ldexp_(2)", "y.clone().copysign_(2)",
]


@needs_torch
@pytest.mark.parametrize("call", NUMBER_CALLS)
def test_numbers_where_tensors_go_as_torch(call):
    def case(lib):
        a, y = lib.tensor([12, -18, 7]), lib.tensor([1.0, -1.0, 0.5])  # noqa: F841
        return eval(call)  # noqa: S307  (the test's own text)
    assert_same(case, torch)


# ------------------------------------------------------------------ random integers

def test_random_integer_bounds():
    assert message_of(lambda: tapegrad.randint(0, 257, (3,), dtype=tapegrad.uint8)) == (
        "RuntimeError", "to - 1 is out of bounds for unsigned char")
    assert message_of(lambda: tapegrad.zeros(2, dtype=tapegrad.int8).random_(-200, 2))[1] == (
        "from is out of bounds for signed char")
    assert message_of(lambda: tapegrad.randint_like(tapegrad.zeros(2, dtype=tapegrad.bool), 5)) \
        == ("RuntimeError", "to - 1 is out of bounds for bool")
    assert tapegrad.randint(0, 256, (50,), dtype=tapegrad.uint8).max() <= 255
    with pytest.warns(UserWarning, match=r"to - 1 is out of bounds \[-\(2\^11\), 2\^11\]"):
        tapegrad.randint(40000, (3,), dtype=tapegrad.float16)


def test_random_permutation_dtype_limits():
    assert sorted(tapegrad.randperm(256, dtype=tapegrad.uint8).tolist()) == list(range(256))
    assert message_of(lambda: tapegrad.randperm(300, dtype=tapegrad.uint8)) == (
        "RuntimeError", "value cannot be converted to type uint8_t without overflow")
    assert message_of(lambda: tapegrad.randperm(2, dtype=tapegrad.bool)) == (
        "NotImplementedError", "\"randperm\" not implemented for 'Bool'")
    assert message_of(lambda: tapegrad.randperm(2050, dtype=tapegrad.float16))[1] == (
        "n cannot be greater than 2049 for Half type.")


def test_floating_draws_refuse_integer_tensors():
    ints = tapegrad.tensor([1, 2])
    assert message_of(lambda: tapegrad.rand_like(ints)) == (
        "NotImplementedError", "\"check_uniform_bounds\" not implemented for 'Long'")
    assert message_of(lambda: tapegrad.randn_like(ints))[1] == (
        "\"normal_kernel_cpu\" not implemented for 'Long'")
    assert message_of(lambda: tapegrad.normal(ints, 1.0))[1] == (
        "\"normal_kernel_cpu\" not implemented for 'Long'")
    for draws in (tapegrad.randn_like(tapegrad.zeros(4000, dtype=tapegrad.complex64)),
                  tapegrad.normal(tapegrad.full((4000,), 1 + 2j), 1.0) - (1 + 2j)):
        assert draws.dtype == tapegrad.complex64
        assert abs(draws.real.var().item() - 0.5) < 0.1 and abs(draws.imag.var().item() - 0.5) < 0.1


RANDOM_CALLS = [
    "lib.rand_like(x)", "lib.randn_like(x)", "lib.randint_like(x, 5)", "lib.normal(x, 1.0)",
    "lib.normal(1.0, x)", "lib.normal(x, x)", "x.clone().geometric_(0.5)",
    "x.clone().bernoulli_(0.5)", "lib.bernoulli(x)", "lib.bernoulli(x, 0.5)",
    "x.clone().random_()", "x.clone().random_(300)", "x.clone().random_(0, 257)", "x.clone().random_(-1, 2)", "x.clone().random_(0, 2)",
]


@needs_torch
@pytest.mark.parametrize("dtype", ["int64", "bool", "uint8", "complex64"])
@pytest.mark.parametrize("call", RANDOM_CALLS)
def test_random_draws_into_dtypes_as_torch(call, dtype):
    def case(lib):
        x = lib.tensor([1, 2]).to(getattr(lib, dtype))  # noqa: F841
        return eval(call)  # noqa: S307  (the test's own text)
    assert_same(same_error_or_dtype(case), torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "bool", "float16"])
@pytest.mark.parametrize("call", ["lib.randint(0, 257, (3,), dtype=d)",
                                  "lib.randint(-1, 2, (3,), dtype=d)",
                                  "lib.randint(0, 3, (3,), dtype=d)",
                                  "lib.randint(2 ** 31, (3,), dtype=d)",
                                  "lib.randperm(300, dtype=d)", "lib.randperm(256, dtype=d)",
                                  "lib.randperm(3, dtype=d)", "lib.randperm(2050, dtype=d)",
                                  "lib.randint_like(lib.zeros(2, dtype=d), 300)"])
def test_random_integers_into_small_dtypes_as_torch(call, dtype):
    def case(lib):
        d = getattr(lib, dtype)  # noqa: F841
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(call)  # noqa: S307  (the test's own text)
    assert_same(same_error_or_dtype(case), torch)
