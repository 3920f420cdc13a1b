"""Element types: PyTorch's type promotion, dtype inference, conversions, and which dtypes may
require grad.

The literal tables run without torch; with torch installed, the same tables are checked against
torch itself (so a wrong expectation cannot hide), and a full grid of dtype pairs, zero-dim and
Python-number operands is compared operator by operator.
"""
import itertools
import operator

import numpy as np
import pytest

import tapegrad

FLOAT_INT_NAMES = ["float16", "float32", "float64", "int32", "int64", "uint8", "bool"]
SAMPLE_VALUES = {"bool": [True, False, True], "float16": [0.5, 1.5, 2.5],
                 "float32": [0.5, 1.5, 2.5], "float64": [0.5, 1.5, 2.5]}


def sample(T, name, zero_dim=False):
    """A small tensor of dtype ``name`` in library ``T`` (values that overflow no dtype)."""
    values = SAMPLE_VALUES.get(name, [1, 2, 3])
    return T.tensor(values[1] if zero_dim else values, dtype=getattr(T, name))


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def default_dtype_restored():
    yield
    tapegrad.set_default_dtype(tapegrad.float32)


# ---------------------------------------------------------------------------- literal promotion

PROMOTION = [  # (what, fn(T) -> tensor, expected dtype name)
    ("int64 tensor * 1.5", lambda T: T.tensor([1, 2]) * 1.5, "float32"),
    ("1.5 * int64 tensor", lambda T: 1.5 * T.tensor([1, 2]), "float32"),
    ("int64 / int64 is true division", lambda T: T.tensor([1, 2]) / T.tensor([2, 2]), "float32"),
    ("int32 / python int", lambda T: sample(T, "int32") / 2, "float32"),
    ("float32 + float64 0-d tensor", lambda T: sample(T, "float32") + sample(T, "float64", True),
     "float32"),
    ("float32 0-d + float64 0-d", lambda T: sample(T, "float32", True) + sample(T, "float64", True),
     "float64"),
    ("int32 + float64 0-d (higher category wins)",
     lambda T: sample(T, "int32") + sample(T, "float64", True), "float64"),
    ("bool + python int", lambda T: sample(T, "bool") + 1, "int64"),
    ("bool tensor + int64 tensor", lambda T: sample(T, "bool") + sample(T, "int64"), "int64"),
    ("bool + True", lambda T: sample(T, "bool") + True, "bool"),
    ("bool * 2.5", lambda T: sample(T, "bool") * 2.5, "float32"),
    ("int32 + python int stays int32", lambda T: sample(T, "int32") + 7, "int32"),
    ("int32 + int64 0-d stays int32", lambda T: sample(T, "int32") + sample(T, "int64", True),
     "int32"),
    ("int32 + int64 tensor", lambda T: sample(T, "int32") + sample(T, "int64"), "int64"),
    ("uint8 + int8-free int32", lambda T: sample(T, "uint8") + sample(T, "int32"), "int32"),
    ("uint8 + python -1 wraps, stays uint8", lambda T: sample(T, "uint8") + -1, "uint8"),
    ("float16 * 2.0 stays float16", lambda T: sample(T, "float16") * 2.0, "float16"),
    ("float16 + float32 tensor", lambda T: sample(T, "float16") + sample(T, "float32"), "float32"),
    ("int64 0-d + 1.5", lambda T: sample(T, "int64", True) + 1.5, "float32"),
    ("float64 tensor + 1", lambda T: sample(T, "float64") + 1, "float64"),
    ("comparison gives bool", lambda T: sample(T, "float32") < 1, "bool"),
    ("int == float", lambda T: sample(T, "int64") == sample(T, "float64"), "bool"),
    ("pow int tensor by float", lambda T: T.tensor([1, 2]) ** 0.5, "float32"),
    ("python float ** int tensor", lambda T: 2.0 ** T.tensor([1, 2]), "float32"),
    ("exp of int tensor", lambda T: T.tensor([1, 2]).exp(), "float32"),
    ("sum of int32 gives int64", lambda T: sample(T, "int32").sum(), "int64"),
    ("sum of bool gives int64", lambda T: sample(T, "bool").sum(), "int64"),
    ("mean of float16", lambda T: sample(T, "float16").mean(), "float16"),
    ("where mixes int and float", lambda T: T.where(sample(T, "bool"), sample(T, "int64"), 0.5),
     "float32"),
    ("cat promotes", lambda T: T.cat([sample(T, "int32"), sample(T, "float64")]), "float64"),
    ("matmul float32 @ float32", lambda T: sample(T, "float32") @ sample(T, "float32"), "float32"),
]
PROMOTION_IDS = [what for what, _, _ in PROMOTION]


@pytest.mark.parametrize("fn, expected", [(fn, e) for _, fn, e in PROMOTION], ids=PROMOTION_IDS)
def test_promotion_table(fn, expected):
    assert fn(tapegrad).dtype is getattr(tapegrad, expected)


@pytest.mark.parametrize("fn, expected", [(fn, e) for _, fn, e in PROMOTION], ids=PROMOTION_IDS)
def test_promotion_table_is_pytorchs(fn, expected, torch):
    assert fn(torch).dtype is getattr(torch, expected)


def test_default_dtype_drives_python_floats_and_true_division():
    tapegrad.set_default_dtype(tapegrad.float64)
    assert (tapegrad.tensor([1, 2]) * 1.5).dtype is tapegrad.float64
    assert (tapegrad.tensor([1, 2]) / 2).dtype is tapegrad.float64
    assert tapegrad.tensor([1.5]).dtype is tapegrad.float64
    assert tapegrad.zeros(2).dtype is tapegrad.float64
    assert (tapegrad.ones(2, dtype=tapegrad.float32) * 1.5).dtype is tapegrad.float32


def test_set_default_dtype_refuses_integers():
    with pytest.raises(TypeError, match="only floating-point types are supported as the default"):
        tapegrad.set_default_dtype(tapegrad.int64)


def test_uint8_wraps_python_ints_like_pytorch():
    np.testing.assert_array_equal((sample(tapegrad, "uint8") + -1).numpy(), [0, 1, 2])
    np.testing.assert_array_equal((-1 - sample(tapegrad, "uint8")).numpy(), [254, 253, 252])
    np.testing.assert_allclose((sample(tapegrad, "uint8") / -1).numpy(), [-1, -2, -3])


def test_promote_types_and_result_type_functions():
    assert tapegrad.dtypes.promote_types(tapegrad.int32, tapegrad.float16) is tapegrad.float16
    assert tapegrad.dtypes.promote_types(tapegrad.uint8, tapegrad.int8) is tapegrad.int16
    assert tapegrad.dtypes.result_type(sample(tapegrad, "int64"), 1.5) is tapegrad.float32
    assert tapegrad.dtypes.result_type(sample(tapegrad, "int32"), True) is tapegrad.int32


def test_result_type_is_exported_like_torch():
    assert tapegrad.result_type(sample(tapegrad, "int64"), 1.5) is tapegrad.float32
    assert tapegrad.promote_types(tapegrad.int32, tapegrad.float16) is tapegrad.float16


# -------------------------------------------------------------------- the full grid vs PyTorch

OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "<": operator.lt, "==": operator.eq}


def _operand_pairs():
    for a, b in itertools.product(FLOAT_INT_NAMES, FLOAT_INT_NAMES):
        for zero_a, zero_b in itertools.product((False, True), repeat=2):
            label = f"{a}{'0d' if zero_a else ''}-{b}{'0d' if zero_b else ''}"
            yield pytest.param(lambda T, a=a, z=zero_a: sample(T, a, z),
                               lambda T, b=b, z=zero_b: sample(T, b, z), id=label)
    for name in FLOAT_INT_NAMES:
        for number in (2, 1.5, True, -1):
            yield pytest.param(lambda T, n=name: sample(T, n), lambda T, v=number: v,
                               id=f"{name}-{number!r}")
            yield pytest.param(lambda T, v=number: v, lambda T, n=name: sample(T, n),
                               id=f"{number!r}-{name}")


def _outcome(T, left, right, op):
    """(dtype name, values) of ``op(left, right)``, or (exception type, message)."""
    try:
        result = op(left(T), right(T))
    except Exception as exc:  # noqa: BLE001  the error itself is what is compared
        return type(exc).__name__, str(exc)
    return str(result.dtype).replace("torch.", ""), np.asarray(result.tolist(), dtype=float)


@pytest.mark.parametrize("op_name", OPERATORS)
@pytest.mark.parametrize("left, right", _operand_pairs())
def test_operator_promotion_matches_torch(left, right, op_name, torch):
    ours = _outcome(tapegrad, left, right, OPERATORS[op_name])
    theirs = _outcome(torch, left, right, OPERATORS[op_name])
    assert ours[0] == theirs[0]
    if isinstance(theirs[1], str):
        assert ours[1] == theirs[1]
    else:
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-3, equal_nan=True)


@pytest.mark.parametrize("a, b", itertools.product(FLOAT_INT_NAMES, repeat=2))
def test_promote_types_matches_torch(a, b, torch):
    ours = tapegrad.dtypes.promote_types(getattr(tapegrad, a), getattr(tapegrad, b))
    assert ours.name == str(torch.promote_types(getattr(torch, a), getattr(torch, b)))[6:]


@pytest.mark.parametrize("right", [2, 1.5, True])
@pytest.mark.parametrize("zero_dim", [False, True])
@pytest.mark.parametrize("name", FLOAT_INT_NAMES)
def test_result_type_matches_torch(name, zero_dim, right, torch):
    ours = tapegrad.dtypes.result_type(sample(tapegrad, name, zero_dim), right)
    assert ours.name == str(torch.result_type(sample(torch, name, zero_dim), right))[6:]


# ------------------------------------------------------------------------- dtype inference

INFERENCE = [  # (data, expected dtype name, expected shape)
    (1, "int64", ()), (1.5, "float32", ()), (True, "bool", ()),
    ([1, 2], "int64", (2,)), ([1.0, 2], "float32", (2,)), ([1, 2.5], "float32", (2,)),
    ([True, False], "bool", (2,)), ([True, 2], "int64", (2,)), ([1.5, True], "float32", (2,)),
    ([[1, 2], [3, 4]], "int64", (2, 2)), ((1, 2), "int64", (2,)), ([], "float32", (0,)),
    ([[]], "float32", (1, 0)), (np.float64(1.5), "float64", ()), (np.int32(3), "int32", ()),
    (np.array([1, 2], dtype=np.int32), "int32", (2,)), (np.array([1.0, 2.0]), "float64", (2,)),
    (np.array([1, 2], dtype=np.uint8), "uint8", (2,)), (np.array([1, 2], dtype=np.float16),
                                                       "float16", (2,)),
    ([np.float32(1.5), 2], "float32", (2,)), (2 ** 40, "int64", ()),
]


@pytest.mark.parametrize("data, expected, shape", INFERENCE, ids=[repr(d) for d, _, _ in INFERENCE])
def test_tensor_infers_pytorchs_dtype(data, expected, shape):
    t = tapegrad.tensor(data)
    assert t.dtype is getattr(tapegrad, expected)
    assert t.shape == shape


@pytest.mark.parametrize("data, expected, shape", INFERENCE, ids=[repr(d) for d, _, _ in INFERENCE])
def test_inference_table_is_pytorchs(data, expected, shape, torch):
    t = torch.tensor(data)
    assert t.dtype is getattr(torch, expected)
    assert tuple(t.shape) == shape


def test_default_dtype_changes_inferred_float():
    tapegrad.set_default_dtype(tapegrad.float64)
    assert tapegrad.tensor([1.0]).dtype is tapegrad.float64
    assert tapegrad.tensor([1]).dtype is tapegrad.int64


# ---------------------------------------------------------------------------------- conversions

CONVERSIONS = {
    "float": lambda t: t.float(), "double": lambda t: t.double(), "half": lambda t: t.half(),
    "long": lambda t: t.long(), "int": lambda t: t.int(), "bool": lambda t: t.bool(),
    "to-float64": lambda t: t.to(tapegrad.float64), "to-int64": lambda t: t.to(tapegrad.int64),
    "to-kw": lambda t: t.to(dtype=tapegrad.float16), "type": lambda t: t.type(tapegrad.float64),
    "to-other": lambda t: t.to(tapegrad.zeros(1, dtype=tapegrad.int32)),
}
EXPECTED_CONVERSION = {"float": "float32", "double": "float64", "half": "float16",
                       "long": "int64", "int": "int32", "bool": "bool", "to-float64": "float64",
                       "to-int64": "int64", "to-kw": "float16", "type": "float64",
                       "to-other": "int32"}


@pytest.mark.parametrize("name", CONVERSIONS)
def test_conversions_give_dtype_and_truncated_values(name):
    t = tapegrad.tensor([1.7, -1.7, 0.0, 2.0])
    out = CONVERSIONS[name](t)
    assert out.dtype is getattr(tapegrad, EXPECTED_CONVERSION[name])
    expected = np.array([1.7, -1.7, 0.0, 2.0], dtype=np.float32).astype(out.dtype.numpy)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_conversion_to_the_same_dtype_returns_the_tensor_itself():
    t = tapegrad.tensor([1.0, 2.0])
    assert t.float() is t and t.to(tapegrad.float32) is t and t.to(t) is t
    assert t.to(tapegrad.float32, copy=True) is not t


def test_type_without_argument_names_the_legacy_class():
    assert tapegrad.tensor([1.0]).type() == "torch.FloatTensor"
    assert tapegrad.tensor([1]).type() == "torch.LongTensor"
    assert tapegrad.tensor([True]).type() == "torch.BoolTensor"


def test_cast_is_differentiable_and_gradient_returns_in_the_input_dtype():
    x = tapegrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.double()
    assert y.grad_fn.name() == "ToCopyBackward0"
    (y * y).sum().backward()
    assert x.grad.dtype is tapegrad.float32
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


def test_cast_to_integer_ends_the_graph():
    x = tapegrad.tensor([1.5, 2.5], requires_grad=True)
    y = x.long()
    assert y.dtype is tapegrad.int64 and not y.requires_grad and y.grad_fn is None


def test_conversions_match_torch(torch):
    data = [1.7, -1.7, 0.5, 300.0]
    for name in ("float", "double", "half", "long", "int", "bool"):
        ours = getattr(tapegrad.tensor(data), name)()
        theirs = getattr(torch.tensor(data), name)()
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


# ------------------------------------------------------------------- which dtypes require grad

FACTORY_MESSAGE = "Only Tensors of floating point and complex dtype can require gradients"
METHOD_MESSAGE = "only Tensors of floating point dtype can require gradients"


@pytest.mark.parametrize("make", [
    lambda T: T.tensor([1, 2], requires_grad=True),
    lambda T: T.zeros(2, dtype=T.int64, requires_grad=True),
    lambda T: T.ones(2, dtype=T.bool, requires_grad=True),
    lambda T: T.arange(3, requires_grad=True),
    lambda T: T.full((2,), 3, requires_grad=True),
], ids=["tensor", "zeros", "ones-bool", "arange", "full"])
def test_integer_factories_cannot_require_grad(make):
    with pytest.raises(RuntimeError) as info:
        make(tapegrad)
    assert str(info.value) == FACTORY_MESSAGE


def test_integer_requires_grad_method_message():
    with pytest.raises(RuntimeError) as info:
        tapegrad.tensor([1, 2]).requires_grad_()
    assert str(info.value) == METHOD_MESSAGE


def test_integer_requires_grad_setter_message():
    t = tapegrad.tensor([1, 2])
    with pytest.raises(RuntimeError) as info:
        t.requires_grad = True
    assert str(info.value) == ("only Tensors of floating point and complex dtype can require "
                               "gradients")


def test_require_grad_messages_are_pytorchs(torch):
    with pytest.raises(RuntimeError) as info:
        torch.tensor([1, 2], requires_grad=True)
    assert str(info.value) == FACTORY_MESSAGE
    with pytest.raises(RuntimeError) as info:
        torch.tensor([1, 2]).requires_grad_()
    assert str(info.value) == METHOD_MESSAGE


def test_float_dtypes_can_require_grad():
    for dtype in (tapegrad.float16, tapegrad.float32, tapegrad.float64):
        assert tapegrad.ones(2, dtype=dtype, requires_grad=True).requires_grad


def test_finfo_iinfo_and_can_cast_match_pytorch():
    torch = pytest.importorskip("torch")
    for name in ("float16", "float32", "float64"):
        ours, theirs = tapegrad.finfo(getattr(tapegrad, name)), torch.finfo(getattr(torch, name))
        assert repr(ours) == repr(theirs)
        for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
            assert getattr(ours, field) == getattr(theirs, field), (name, field)
    assert tapegrad.finfo().dtype == "float32"
    for name in ("uint8", "int8", "int16", "int32", "int64"):
        ours, theirs = tapegrad.iinfo(getattr(tapegrad, name)), torch.iinfo(getattr(torch, name))
        assert (repr(ours), ours.bits, ours.max, ours.min) == \
               (repr(theirs), theirs.bits, theirs.max, theirs.min)
    with pytest.raises(TypeError, match="requires a floating point input type"):
        tapegrad.finfo(tapegrad.int32)
    with pytest.raises(TypeError, match="requires an integer input type"):
        tapegrad.iinfo(tapegrad.float32)
    names = ("bool", "uint8", "int32", "int64", "float32", "float64")
    for a in names:
        for b in names:
            assert tapegrad.can_cast(getattr(tapegrad, a), getattr(tapegrad, b)) == \
                   torch.can_cast(getattr(torch, a), getattr(torch, b)), (a, b)


def test_legacy_conversions_and_constructors():
    x = tapegrad.tensor([-1.7, 0.0, 2.9])
    assert [t.dtype for t in (x.short(), x.char(), x.byte())] == \
           [tapegrad.int16, tapegrad.int8, tapegrad.uint8]
    assert isinstance(x.short(), tapegrad.ShortTensor) and isinstance(x.char(), tapegrad.CharTensor)
    w = tapegrad.zeros(2, dtype=tapegrad.float64)
    assert w.new(2, 3).shape == (2, 3) and w.new(2, 3).dtype == tapegrad.float64
    assert w.new([1, 2]).tolist() == [1.0, 2.0] and w.new().shape == (0,)
    assert not x.is_complex() and not tapegrad.is_complex(x)


def test_dtypes_tapegrad_cannot_compute_in_exist_with_their_facts():
    """bfloat16 and complex32 can be named, compared and asked about, as code written for
    PyTorch does at import time; making a tensor of one is a clear error."""
    assert tapegrad.cfloat is tapegrad.complex64 and tapegrad.cdouble is tapegrad.complex128
    assert tapegrad.complex64.is_complex and not tapegrad.complex64.is_floating_point
    assert tapegrad.bfloat16.is_floating_point and not tapegrad.bfloat16.is_complex
    assert repr(tapegrad.finfo(tapegrad.bfloat16)) == (
        "finfo(resolution=0.01, min=-3.38953e+38, max=3.38953e+38, eps=0.0078125, "
        "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=bfloat16)")
    assert tapegrad.finfo(tapegrad.complex128).eps == tapegrad.finfo(tapegrad.float64).eps
    for kind in (tapegrad.bfloat16, tapegrad.complex32):
        with pytest.raises(TypeError, match=f"tapegrad cannot compute in {kind!r}"):
            tapegrad.zeros(2, dtype=kind)


def test_limits_of_dtypes_tapegrad_cannot_compute_in_match_pytorch():
    torch = pytest.importorskip("torch")
    for name in ("bfloat16", "complex64", "complex128"):
        ours, theirs = tapegrad.finfo(getattr(tapegrad, name)), torch.finfo(getattr(torch, name))
        assert repr(ours) == repr(theirs)
        assert getattr(tapegrad, name).itemsize == getattr(torch, name).itemsize


def test_casting_to_a_dtype_tapegrad_cannot_compute_in_is_refused_whole():
    model = tapegrad.nn.Linear(2, 2)
    for cast in (model.bfloat16, tapegrad.ones(2).bfloat16, tapegrad.ones(2).chalf):
        with pytest.raises(TypeError, match="tapegrad cannot compute in"):
            cast()
    assert {p.dtype for p in model.parameters()} == {tapegrad.float32}  # nothing half-cast


def test_types_print_as_pytorchs_and_pickle_without_naming_torch():
    """``type(torch.float32)`` and ``type(device)`` print as PyTorch's classes (assert_close's
    TypeError shows them); pickles still name tapegrad's functions, so they load anywhere."""
    import pickle
    assert str(type(tapegrad.float32)) == "<class 'torch.dtype'>"
    assert str(type(tapegrad.device("cpu"))) == "<class 'torch.device'>"
    for value in (tapegrad.float64, tapegrad.device("cuda", 1)):
        data = pickle.dumps(value)
        assert b"torch" not in data.replace(b"tapegrad", b"")
        assert pickle.loads(data) == value


def test_number_conversion_errors_as_pytorchs():
    with pytest.raises(TypeError, match=r"^torch.bool is not supported by torch.iinfo$"):
        tapegrad.iinfo(tapegrad.bool)
    x = tapegrad.zeros(2)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without"):
        x[0] = 1e300
    x[0], x[1] = float("inf"), -3.4e38
    assert x.tolist() == [float("inf"), float(np.float32(-3.4e38))]
    half = tapegrad.zeros(1, dtype=tapegrad.float16)
    half[0] = 65520.0  # PyTorch does not check float16: it rounds to inf
    assert half.item() == float("inf")


def test_uint64_tensors_take_the_whole_range_of_python_ints():
    big = tapegrad.tensor([2**64 - 1, 2**63, 5], dtype=tapegrad.uint64)
    assert big.tolist() == [2**64 - 1, 2**63, 5]
    with pytest.raises(OverflowError, match="int too big to convert"):
        tapegrad.tensor([2**64], dtype=tapegrad.uint64)
    with pytest.raises(OverflowError, match="can't convert negative int to unsigned"):
        tapegrad.tensor([-1], dtype=tapegrad.uint64)
    with pytest.raises(TypeError, match="an integer is required"):
        tapegrad.tensor([1.5], dtype=tapegrad.uint64)


def test_python_float_means_float64_and_empty_tensors_have_contiguous_strides():
    assert tapegrad.zeros(1, dtype=float).dtype == tapegrad.float64
    assert tapegrad.ones(2).to(float).dtype == tapegrad.float64
    assert tapegrad.zeros(3, 0, 2).stride() == (2, 2, 1)  # a size 0 counts as 1, as in PyTorch
    assert tapegrad.empty(0).stride() == (1,)
    assert tapegrad.zeros(2, 0).stride(0) == 1
