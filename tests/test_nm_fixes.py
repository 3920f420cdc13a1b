"""Differences found by the numerical-methods programs (nm_*): a 0-d tensor as the ``dx`` of
trapezoid / cumulative_trapezoid / trapz (PyTorch reads it as a Number), covariance and
correlation of complex variables (conjugate transpose, real standard deviations), and
tril/triu_indices refusing dtypes other than int32/int64."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

DX_CASES = [
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor(2.0)),
    lambda lib: lib.trapezoid(lib.tensor([1, 2, 3]), dx=lib.tensor(2.5)),
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor(2)),
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor([2.0])),
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0]), dx=lib.tensor(2.0, requires_grad=True)),
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0]), dx=lib.tensor(1 + 1j)),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor(0.5)),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([1.0, 2.0]), dx=lib.tensor([0.5, 1.0])),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor(True)),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor(1 + 1j)),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0, 3.0]), dx=lib.tensor([1.0])),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0, 3.0]), dx=1j),
    # both signatures' arguments, a number as x, explicit None: no overload matches
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 1.0]), dx=1.0),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 1.0]), dx=2),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 1.0]), dx=lib.tensor(1.0)),
    lambda lib: lib.trapezoid(lib.tensor([1.0, 2.0]), 2.0),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([1.0, 2.0]), dx=None),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0]), None, dx=2.0),
    lambda lib: lib.trapz(lib.tensor([1.0, 2.0, 4.0]), lib.tensor([0.0, 1.0, 3.0])),
]


@needs_torch
@pytest.mark.parametrize("case", DX_CASES)
def test_dx_tensor_as_torch(case):
    assert_same(case, torch)


def test_dx_zero_dim_tensor_equals_number():
    y = tapegrad.tensor([0.0, 1.0, 4.0, 9.0], dtype=tapegrad.float64)
    assert tapegrad.trapezoid(y, dx=tapegrad.tensor(0.5)).item() == 0.5 * (0 / 2 + 1 + 4 + 9 / 2)
    np.testing.assert_allclose(tapegrad.cumulative_trapezoid(y, dx=tapegrad.tensor(0.5)).numpy(),
                               [0.25, 1.5, 4.75])


def _complex_rows(lib, dtype):
    t = lib.arange(8, dtype=lib.float64) / 8
    rows = lib.stack([lib.exp(2j * np.pi * t), lib.exp(2j * np.pi * t) * 1j + 0.3,
                      t * (1 - 2j)])
    return rows.to(dtype)


def _as_real(value):
    return value.resolve_conj().view_as_real() if value.is_complex() else value


COMPLEX_CASES = [
    lambda lib: _as_real(lib.cov(_complex_rows(lib, lib.complex128))),
    lambda lib: _as_real(lib.cov(_complex_rows(lib, lib.complex64), correction=0)),
    lambda lib: _as_real(lib.cov(_complex_rows(lib, lib.complex128),
                                 fweights=lib.arange(1, 9), aweights=lib.linspace(1, 2, 8))),
    lambda lib: _as_real(lib.cov(lib.tensor([1 + 1j, 2, 3j]))),
    lambda lib: _as_real(lib.corrcoef(_complex_rows(lib, lib.complex128))),
]


@needs_torch
@pytest.mark.parametrize("case", COMPLEX_CASES)
def test_complex_cov_as_torch(case):
    assert_same(case, torch)


def test_complex_cov_is_hermitian_sample_covariance():
    rows = _complex_rows(tapegrad, tapegrad.complex128)
    a = rows.numpy()
    centered = a - a.mean(axis=1, keepdims=True)
    expected = centered @ centered.conj().T / (a.shape[1] - 1)
    np.testing.assert_allclose(tapegrad.cov(rows).numpy(), expected, atol=1e-12)
    r = tapegrad.corrcoef(rows).numpy()
    np.testing.assert_allclose(np.diag(r).real, 1.0, atol=1e-12)
    assert (np.abs(r.real) <= 1).all() and (np.abs(r.imag) <= 1).all()


def test_real_cov_graph_unchanged():
    x = tapegrad.arange(6.0).reshape(2, 3).requires_grad_()
    c = tapegrad.cov(x)
    assert type(c.grad_fn).__name__ == "SqueezeBackward0"
    c.sum().backward()
    assert x.grad.shape == (2, 3)


@pytest.mark.parametrize("function", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool", "complex64",
                                   "float16", "bfloat16"])
def test_triangle_indices_refuse_non_index_dtypes(function, dtype):
    with pytest.raises(NotImplementedError, match=f'"{function}" not implemented for'):
        getattr(tapegrad, function)(3, 3, dtype=getattr(tapegrad, dtype))


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "bfloat16", "int32"])
def test_triangle_indices_dtype_as_torch(dtype):
    assert_same(lambda lib: lib.tril_indices(3, 2, dtype=getattr(lib, dtype)), torch)
    assert_same(lambda lib: lib.triu_indices(-1, 2, dtype=getattr(lib, dtype)), torch)


RANGE_CASES = [
    lambda lib: lib.range(lib.tensor(1.0), 3),
    lambda lib: lib.range(0, lib.tensor(3)),
    lambda lib: lib.range(0, 3, lib.tensor(0.5)),
    lambda lib: lib.range(lib.tensor([1.0]), 3),
    lambda lib: lib.range(0, lib.tensor(2.0, requires_grad=True)),
    lambda lib: lib.range(3),
    lambda lib: lib.range(),
    lambda lib: lib.range(end=3),
    lambda lib: lib.range(start=1, end=3),
    lambda lib: lib.range(1, "a"),
    lambda lib: lib.range(None, 3),
    lambda lib: lib.range(0, 2, 1j),
    lambda lib: lib.range(0, 2, 0.5 + 0j),
]


@needs_torch
@pytest.mark.parametrize("case", RANGE_CASES)
def test_range_arguments_as_torch(case):
    assert_same(case, torch)


def test_range_reads_zero_dim_tensors_as_numbers():
    with pytest.warns(UserWarning, match="torch.range is deprecated"):
        r = tapegrad.range(tapegrad.tensor(1), tapegrad.tensor(2.0), tapegrad.tensor(0.5))
    np.testing.assert_array_equal(r.numpy(), [1.0, 1.5, 2.0])
    with pytest.raises(TypeError, match='missing 1 required positional arguments: "end"'):
        tapegrad.range(3)


@pytest.mark.parametrize("correction", [1.5, True, None, "1", tapegrad.tensor(1.0)])
def test_cov_correction_must_be_int(correction):
    with pytest.raises(TypeError, match="cov\\(\\): argument 'correction' must be int, not"):
        tapegrad.cov(tapegrad.tensor([[1.0, 2.0, 3.0]]), correction=correction)


def test_cov_correction_accepts_integer_scalars():
    x = tapegrad.tensor([[1.0, 2.0, 3.0]])
    assert tapegrad.cov(x, correction=tapegrad.tensor(0)).item() == pytest.approx(2 / 3)
    assert tapegrad.cov(x, correction=np.int64(1)).item() == pytest.approx(1.0)
