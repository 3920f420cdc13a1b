"""Tests for tapegrad._printing: output must equal PyTorch's tensor repr.

Literal-string tests run everywhere; the comparisons against real torch are
skipped when torch is not installed.
"""

import contextlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tapegrad._printing import format_tensor, set_printoptions


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with default options, in tapegrad and torch."""
    _reset()
    yield
    _reset()


def _reset():
    set_printoptions(profile="default")
    try:
        import torch
    except ImportError:
        return
    torch.set_printoptions(profile="default")


def show_dtype(arr):
    """torch's rule: float32/int64/bool are implied, except empty non-float32."""
    if arr.size == 0:
        return arr.dtype.name != "float32"
    return arr.dtype.name not in ("float32", "int64", "bool")


def fmt(arr, suffixes=()):
    arr = np.asarray(arr)
    return format_tensor(arr, dtype_name=arr.dtype.name, show_dtype=show_dtype(arr), suffixes=suffixes)


# --------------------------------------------------------------------------
# Literal expectations (no torch needed)
# --------------------------------------------------------------------------

LITERALS = [
    (np.array(-36.0, np.float32), "tensor(-36.)"),
    (np.array([2.0], np.float32), "tensor([2.])"),
    (np.array([1.5, -2.25, 3.0], np.float32), "tensor([ 1.5000, -2.2500,  3.0000])"),
    (np.array([1.0, 1e-5], np.float32), "tensor([1.0000e+00, 1.0000e-05])"),
    (np.array([np.nan, np.inf, -np.inf, 1.0], np.float32), "tensor([nan, inf, -inf, 1.])"),
    (np.array([0.0, 0.0], np.float32), "tensor([0., 0.])"),
    (np.array([], np.float32), "tensor([])"),
    (np.zeros((0, 3), np.float32), "tensor([], size=(0, 3))"),
    (np.array([], np.int64), "tensor([], dtype=torch.int64)"),
    (np.array([1, -20, 300]), "tensor([  1, -20, 300])"),
    (np.array([True, False]), "tensor([ True, False])"),
    (np.array([1, 2], np.uint8), "tensor([1, 2], dtype=torch.uint8)"),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), "tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64)"),
    (np.arange(1001), "tensor([   0,    1,    2,  ...,  998,  999, 1000])"),
    (np.ones((2, 1, 2), np.float16), "tensor([[[1., 1.]],\n\n        [[1., 1.]]], dtype=torch.float16)"),
]


@pytest.mark.parametrize("arr, expected", LITERALS)
def test_literal(arr, expected):
    assert fmt(arr) == expected


def test_literal_suffixes():
    arr = np.array([1.0, 2.0], np.float32)
    assert fmt(arr, ("requires_grad=True",)) == "tensor([1., 2.], requires_grad=True)"
    assert fmt(arr, ("grad_fn=<AddBackward0>",)) == "tensor([1., 2.], grad_fn=<AddBackward0>)"


def test_literal_wrapping():
    expected = (
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
        "        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])"
    )
    assert fmt(np.arange(30)) == expected


def test_literal_printoptions():
    set_printoptions(precision=2)
    assert fmt(np.array([1.12345], np.float32)) == "tensor([1.12])"
    set_printoptions(threshold=5)
    assert fmt(np.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"
    set_printoptions(profile="default")
    assert fmt(np.array([1.12345], np.float32)) == "tensor([1.1235])"
    assert fmt(np.arange(10)) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"
    set_printoptions(sci_mode=True)
    assert fmt(np.array([2.0], np.float32)) == "tensor([2.0000e+00])"
    set_printoptions()  # omitting sci_mode returns it to automatic, like torch
    assert fmt(np.array([2.0], np.float32)) == "tensor([2.])"


def test_does_not_import_torch():
    code = "import sys, tapegrad._printing; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_storage_prints_its_bytes_then_its_header():
    import tapegrad
    storage = tapegrad.tensor([1, 2], dtype=tapegrad.int16).untyped_storage()
    assert str(storage) == repr(storage) == (
        " 1\n 0\n 2\n 0\n[torch.storage.UntypedStorage(device=cpu) of size 4]")


def test_a_0d_tangent_prints_as_its_number():
    import tapegrad
    import tapegrad.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        dual = fwAD.make_dual(tapegrad.tensor(3.0), tapegrad.tensor(1.0))
        assert repr(dual) == "tensor(3., tangent=1.0)"


def test_the_version_error_names_the_tensor_type_as_aten_does():
    import tapegrad
    for dtype, name in [(tapegrad.float32, "torch.FloatTensor"),
                        (tapegrad.complex64, "CPUComplexFloatType")]:
        a = tapegrad.ones(2, dtype=dtype, requires_grad=True)
        b = a * 2
        c = b.sin()
        b.add_(1)
        with pytest.raises(RuntimeError, match=rf"\[{name} \[2\]\], which is output 0 of "):
            c.sum().abs().backward()


# --------------------------------------------------------------------------
# Comparisons with real torch
# --------------------------------------------------------------------------

torch = pytest.importorskip("torch")


def assert_matches(arr):
    arr = np.asarray(arr)
    assert fmt(arr) == repr(torch.from_numpy(arr.copy()))


@contextlib.contextmanager
def both_options(**kwargs):
    """Apply the same print options to tapegrad and torch for a block."""
    set_printoptions(**kwargs)
    torch.set_printoptions(**kwargs)
    try:
        yield
    finally:
        _reset()


rng = np.random.default_rng(0)

CASES = {
    "scalar_int": np.array(7),
    "scalar_frac": np.array(3.14159, np.float32),
    "scalar_neg_int": np.array(-36.0),
    "scalar_nan": np.array(np.nan, np.float32),
    "scalar_sci": np.array(1e-9, np.float32),
    "neg_zero": np.array([-0.0, 1.0], np.float32),
    "big": np.array([1e9, 1.0], np.float32),
    "ratio": np.array([1.0, 1001.0, 0.5], np.float64),
    "ratio_edge": np.array([1.0, 1000.0], np.float64),
    "tiny": np.array([1e-4, 2e-4], np.float32),
    "int_sci": np.array([1.0, 1e10]),
    "nan_inf_frac": np.array([np.nan, 1.5, -np.inf], np.float32),
    "only_nonfinite": np.array([np.nan, np.inf]),
    "huge_range": np.array([1e300, 1e-300]),
    "f16": rng.standard_normal((3, 4)).astype(np.float16),
    "f16_ints": np.array([60000.0, -3.0], np.float16),
    "randn_2d": rng.standard_normal((4, 6)).astype(np.float32),
    "randn_3d": rng.standard_normal((2, 3, 4)),
    "randn_4d": rng.standard_normal((2, 2, 2, 3)).astype(np.float32),
    "wide_1d": rng.standard_normal(50).astype(np.float32),
    "wide_2d": rng.standard_normal((3, 25)).astype(np.float32),
    "summ_1d": np.arange(2000, dtype=np.float32),
    "summ_2d": rng.standard_normal((40, 40)).astype(np.float32),
    "summ_3d": np.arange(12 * 12 * 12).reshape(12, 12, 12),
    "summ_rows_only": rng.standard_normal((1001, 1)).astype(np.float32),
    "summ_cols_only": rng.standard_normal((2, 600)),
    "int8": np.array([-128, 0, 127], np.int8),
    "int16": np.arange(-5, 5, dtype=np.int16).reshape(2, 5),
    "int32": np.array([[1, 2], [3, 40000]], np.int32),
    "uint8": np.arange(256, dtype=np.uint8).reshape(16, 16),
    "int64_big": np.array([2**62, -1]),
    "bool_2d": rng.random((3, 4)) > 0.5,
    "bool_all_true": np.ones(5, bool),
    "empty_1d_f64": np.zeros(0),
    "empty_2d": np.zeros((2, 0), np.float32),
    "empty_3d_int": np.zeros((0, 2, 3), np.int32),
    "empty_bool": np.zeros((0,), bool),
    "noncontig": np.arange(24.0).reshape(4, 6).T,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    assert_matches(CASES[name])


OPTION_SETS = [
    dict(precision=2),
    dict(precision=0),
    dict(precision=8),
    dict(threshold=10),
    dict(threshold=0),
    dict(edgeitems=1, threshold=5),
    dict(edgeitems=0, threshold=5),
    dict(edgeitems=0),
    dict(linewidth=20),
    dict(linewidth=1),
    dict(linewidth=200),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(profile="short"),
    dict(profile="full"),
    dict(profile="short", precision=6),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
@pytest.mark.parametrize("name", ["scalar_frac", "tiny", "randn_3d", "summ_2d", "summ_1d", "int16", "bool_2d", "empty_2d"])
def test_printoptions_match_torch(options, name):
    with both_options(**options):
        assert_matches(CASES[name])


@pytest.mark.parametrize("arr", [
    np.array([1.0, 2.0], np.float32),
    np.array(3.5),
    np.arange(60, dtype=np.float32).reshape(3, 20) / 7,
    np.arange(18, dtype=np.float32),  # short last line: suffix stays on it
    np.arange(40, dtype=np.float32),  # suffix goes onto its own line
])
@pytest.mark.parametrize("op", ["leaf", "add", "mul", "sum_keep"])
def test_autograd_suffixes_match_torch(arr, op):
    leaf = torch.from_numpy(arr.copy()).requires_grad_()
    if op == "leaf":
        out, suffix = leaf, "requires_grad=True"
    else:
        out = {"add": lambda t: t + 0, "mul": lambda t: t * 1, "sum_keep": lambda t: t.reshape(t.shape)}[op](leaf)
        suffix = f"grad_fn=<{type(out.grad_fn).__name__}>"
    assert fmt(out.detach().numpy(), (suffix,)) == repr(out)


def test_long_suffixes_wrap_like_torch():
    out = torch.from_numpy(np.arange(12, dtype=np.float32)).requires_grad_() * 1.5
    arr = out.detach().numpy()
    for linewidth in (30, 50, 60, 70, 80):
        with both_options(linewidth=linewidth):
            assert fmt(arr, ("grad_fn=<MulBackward0>",)) == repr(out)
    f64 = out.double()
    with both_options(linewidth=60):
        assert fmt(f64.detach().numpy(), ("grad_fn=<ToCopyBackward0>",)) == repr(f64)


# --------------------------------------------------------------------------
# Property-based comparisons
# --------------------------------------------------------------------------

FLOAT_DTYPES = [np.float16, np.float32, np.float64]
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8]


@st.composite
def float_arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(FLOAT_DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=7))
    # Mix magnitudes so fixed, integral and scientific styles all occur.
    scales = [1e-6, 1e-3, 1.0, 1e3] + ([1e6, 1e9] if dtype != np.float16 else [])
    scale = draw(st.sampled_from(scales))
    bits = np.finfo(dtype).bits
    elements = st.one_of(
        st.floats(width=bits),  # any value of the dtype, nan and inf included
        st.integers(-1000, 1000).map(float),
        st.floats(-10, 10, width=bits).map(lambda x: float(dtype.type(x * scale))),
    )
    return draw(hnp.arrays(dtype, shape, elements=elements))


@st.composite
def other_arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(INT_DTYPES + [np.bool_])))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=8))
    return draw(hnp.arrays(dtype, shape))


options_strategy = st.fixed_dictionaries({}, optional={
    "precision": st.integers(0, 8),
    "threshold": st.integers(0, 60),
    "edgeitems": st.integers(0, 4),
    "linewidth": st.integers(1, 120),
    "sci_mode": st.sampled_from([True, False]),
})

HYPO = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@HYPO
@given(float_arrays())
def test_hypothesis_floats(arr):
    assert_matches(arr)


@HYPO
@given(other_arrays())
def test_hypothesis_ints_and_bools(arr):
    assert_matches(arr)


@HYPO
@given(st.one_of(float_arrays(), other_arrays()), options_strategy)
def test_hypothesis_with_options(arr, options):
    with both_options(**options):
        assert_matches(arr)


@HYPO
@given(float_arrays(), options_strategy)
def test_hypothesis_requires_grad(arr, options):
    t = torch.from_numpy(arr.copy()).requires_grad_()
    with both_options(**options):
        assert fmt(arr, ("requires_grad=True",)) == repr(t)
