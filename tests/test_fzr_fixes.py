"""Differences found by differential fuzzing of reductions and linear algebra against PyTorch
(fzr): the names in var_mean's and std_mean's errors, ``dim`` tuples where an int is required,
``dim=()`` of all/any and logsumexp, integer results of reductions autograd records, complex
inputs (var/std family, logsumexp, nansum), aminmax's node, cholesky_ex of a matrix that is not
positive-definite, bmm's batch sizes, LU pivots of complex matrices and vector norms."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

_RNG = np.random.default_rng(0)
_MATRIX = _RNG.standard_normal((3, 4))
_COMPLEX = _MATRIX + 1j * _RNG.standard_normal((3, 4))


def _tensor(lib, values, requires_grad=False):
    return lib.tensor(values, requires_grad=requires_grad)


def _node(t):
    return type(t.grad_fn).__name__


def _parts(*tensors):
    """Complex tensors as their real and imaginary parts (``assert_same`` compares reals)."""
    return tuple(part for t in tensors for part in (
        (t.real, t.imag) if t.is_complex() else (t,)))


# -- error messages ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, refused", [("var", "std and var"), ("std", "std and var"),
                                           ("var_mean", "var_mean"), ("std_mean", "std_mean")])
def test_spread_of_integers_is_refused_in_the_functions_words(name, refused):
    with pytest.raises(RuntimeError, match=f"^{refused} only support floating point and complex"):
        getattr(tapegrad, name)(tapegrad.arange(4))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_extremum_of_a_dim_tuple_is_a_type_error(name):
    with pytest.raises(TypeError, match=f"^{name}\\(\\): argument 'dim' must be int, not tuple$"):
        getattr(tapegrad, name)(tapegrad.ones(2, 3), dim=(0,))


def test_prod_of_a_dim_tuple_lists_the_overloads():
    with pytest.raises(TypeError, match=r"^prod\(\) received an invalid combination of arguments "
                                        r"- got \(Tensor, tuple\)"):
        tapegrad.prod(tapegrad.ones(2, 3), ())


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.sum(x, dtype=lib.int64),
    lambda lib, x: lib.sum(x, 0, dtype=lib.bool),
    lambda lib, x: lib.prod(x, dtype=lib.int64),
    lambda lib, x: lib.cumsum(x, 0, dtype=lib.int64),
    lambda lib, x: lib.cumprod(x, 1, dtype=lib.int32),
    lambda lib, x: lib.nansum(x, dtype=lib.int64),
])
def test_integer_result_of_a_recorded_reduction_is_refused(call):
    x = tapegrad.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="^Autograd not support dtype: (Long|Bool|Int)$"):
        call(tapegrad, x)
    with tapegrad.no_grad():
        assert call(tapegrad, x).requires_grad is False
    assert call(tapegrad, x.detach()).dtype in (tapegrad.int64, tapegrad.bool, tapegrad.int32)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.var_mean(lib.arange(4)),
    lambda lib: lib.std_mean(lib.ones(2, 2, dtype=lib.bool), 0),
    lambda lib: lib.argmax(lib.ones(2, 3), dim=(0,)),
    lambda lib: lib.prod(lib.ones(2, 3), ()),
    lambda lib: lib.logsumexp(lib.ones(2, 3), ()),
    lambda lib: lib.logsumexp(lib.ones(2, 3), (), keepdim=True),
    lambda lib: lib.logsumexp(lib.tensor(2.0), ()),
    lambda lib: lib.nanmean(lib.arange(3), dtype=lib.float32),
    lambda lib: lib.nanmean(lib.ones(3), dtype=lib.int64),
    lambda lib: lib.nansum(lib.ones(3, dtype=lib.complex64)),
    lambda lib: lib.nansum(lib.ones(3, dtype=lib.complex64), (0, 0)),
    lambda lib: lib.nanmean(lib.ones(3, dtype=lib.complex64)),
    lambda lib: lib.nansum(lib.ones(3), dtype=lib.complex64),
    lambda lib: lib.nansum(lib.ones(0), dtype=lib.complex64).real,
    lambda lib: lib.amax(lib.ones(2, dtype=lib.complex64), -3),
    lambda lib: lib.max(lib.ones(2, dtype=lib.complex64), 4),
    lambda lib: lib.sum(lib.ones(2, requires_grad=True), (0, 0), dtype=lib.int64),
    lambda lib: lib.sum(lib.ones(2, requires_grad=True), dtype=lib.int64),
    lambda lib: lib.bmm(lib.ones(2, 2, 3), lib.ones(1, 3, 4)),
    lambda lib: lib.bmm(lib.ones(2, 2, 3, dtype=lib.int64), lib.ones(1, 3, 4, dtype=lib.int64)),
    lambda lib: lib.linalg.vector_norm(lib.ones(0, 1), float("inf"), dim=()),
    lambda lib: lib.linalg.vector_norm(lib.tensor(-2.0), -1, dim=-1),
])
def test_errors_and_edge_values_as_torch(case):
    assert_same(case, torch)


# -- dim=() -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["all", "any"])
def test_truth_over_no_dims_tests_each_entry(name):
    x = tapegrad.tensor([[0, 1, 2], [3, 0, 5]])
    out = getattr(tapegrad, name)(x, ())
    assert out.shape == (2, 3) and out.tolist() == (x != 0).tolist()
    assert getattr(tapegrad, name)(x, (), keepdim=True).shape == (2, 3)


def test_logsumexp_over_no_dims_reduces_everything_only_into_kept_dims():
    x = tapegrad.tensor(_MATRIX)
    kept = tapegrad.logsumexp(x, (), keepdim=True)
    assert kept.shape == (1, 1)
    np.testing.assert_allclose(kept.item(), np.log(np.exp(_MATRIX).sum()))
    with pytest.raises(RuntimeError, match=r"^output with shape \[\] doesn't match the broadcast "
                                           r"shape \[1, 1\]$"):
        tapegrad.logsumexp(x, ())


# -- complex inputs ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, node", [("var", "VarBackward0"), ("std", "StdBackward0"),
                                        ("var_mean", "VarMeanBackward0"),
                                        ("std_mean", "StdMeanBackward0")])
def test_complex_spread_is_one_node_with_the_mean(name, node):
    x = tapegrad.tensor(_COMPLEX, requires_grad=True)
    out = getattr(tapegrad, name)(x, 1)
    outs = out if isinstance(out, tuple) else (out,)
    assert [_node(o) for o in outs] == [node] * len(outs)
    assert outs[0].dtype == tapegrad.float64
    variance = (np.abs(_COMPLEX - _COMPLEX.mean(1, keepdims=True)) ** 2).sum(1) / 3
    spread = np.sqrt(variance) if name.startswith("std") else variance
    np.testing.assert_allclose(outs[0].detach().numpy(), spread)
    if name.endswith("_mean"):
        assert outs[1].dtype == tapegrad.complex128
        np.testing.assert_allclose(outs[1].detach().numpy(), _COMPLEX.mean(1))


def test_complex_variance_gradient_is_twice_the_deviation_over_the_dof():
    x = tapegrad.tensor(_COMPLEX, requires_grad=True)
    tapegrad.var(x, 1, correction=0).sum().backward()
    deviation = _COMPLEX - _COMPLEX.mean(1, keepdims=True)
    np.testing.assert_allclose(x.grad.numpy(), 2 * deviation / 4)


def test_complex_logsumexp_stays_complex():
    x = tapegrad.tensor(_COMPLEX, requires_grad=True)
    out = tapegrad.logsumexp(x, 1)
    assert out.dtype == tapegrad.complex128
    np.testing.assert_allclose(out.detach().numpy(), np.log(np.exp(_COMPLEX).sum(1)))
    out.real.sum().backward()  # d Re(f)/dz for a holomorphic f: conj(f'(z))
    softmax = np.exp(_COMPLEX) / np.exp(_COMPLEX).sum(1, keepdims=True)
    np.testing.assert_allclose(x.grad.numpy(), softmax.conj())


@needs_torch
@pytest.mark.parametrize("name", ["var", "std", "var_mean", "std_mean", "logsumexp"])
def test_complex_reductions_and_gradients_as_torch(name):
    def case(lib):
        x = lib.tensor(_COMPLEX, requires_grad=True)
        out = getattr(lib, name)(x, 1)
        outs = out if isinstance(out, tuple) else (out,)
        sum(o.real.sum() + (o.imag.sum() / 2 if o.is_complex() else 0) for o in outs).backward()
        return _parts(*outs, x.grad.resolve_conj())
    assert_same(case, torch)


# -- aminmax ----------------------------------------------------------------------------------------

def test_aminmax_records_one_node_whose_gradient_shares_ties():
    x = tapegrad.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True)
    low, high = tapegrad.aminmax(x, dim=1)
    assert _node(low) == _node(high) == "AminmaxBackward0"
    assert low.grad_fn is high.grad_fn
    (low.sum() + 10 * high.sum()).backward()
    assert x.grad.tolist() == [[1.0, 5.0, 5.0], [5.0, 5.0, 1.0]]


@needs_torch
def test_aminmax_as_torch():
    def case(lib):
        x = lib.tensor(_MATRIX, requires_grad=True)
        low, high = lib.aminmax(x, dim=0, keepdim=True)
        (low * 2 + high).sum().backward()
        everything = lib.aminmax(x.detach(), keepdim=True)
        return low, high, x.grad, *everything
    assert_same(case, torch)


# -- cholesky_ex of a matrix that is not positive-definite --------------------------------------------

@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_failed_cholesky_ex_is_still_recorded(upper, dtype):
    a = _RNG.standard_normal((3, 3)) + (1j * _RNG.standard_normal((3, 3)) if dtype ==
                                        "complex128" else 0)
    x = tapegrad.tensor(a, requires_grad=True)
    factor, info = tapegrad.linalg.cholesky_ex(x, upper=upper)
    assert info.item() > 0 and _node(factor) == "LinalgCholeskyExBackward0"
    factor.real.sum().backward()
    assert x.grad is not None and x.grad.shape == (3, 3)


def test_partial_cholesky_reads_the_triangle_it_is_asked_for():
    a = np.array([[4.0, 2.0, 7.0], [-5.0, 1.0, 1.0], [9.0, 3.0, 2.0]])
    lower = tapegrad.linalg.cholesky_ex(tapegrad.tensor(a)).L.numpy()
    upper = tapegrad.linalg.cholesky_ex(tapegrad.tensor(a), upper=True).L.numpy()
    # first column of L from the lower triangle (2, -2.5, 4.5), first row of U from the upper
    np.testing.assert_allclose(lower[:, 0], [2.0, -2.5, 4.5])
    np.testing.assert_allclose(upper[0], [2.0, 1.0, 3.5])


@needs_torch
@pytest.mark.parametrize("upper", [False, True])
def test_failed_cholesky_ex_as_torch(upper):
    a = _RNG.standard_normal((2, 3, 3)) + 1j * _RNG.standard_normal((2, 3, 3))
    a[0] = a[0] @ a[0].conj().T + 3 * np.eye(3)

    def case(lib):
        x = lib.tensor(a, requires_grad=True)
        factor, info = lib.linalg.cholesky_ex(x, upper=upper)
        factor.real.sum().backward()
        return (*_parts(factor, x.grad.resolve_conj()), info)
    assert_same(case, torch)


# -- LU pivots of complex matrices ---------------------------------------------------------------

def test_complex_lu_pivots_by_the_sum_of_the_parts_magnitudes():
    # |3+3j| > |4| but LAPACK's izamax compares |Re| + |Im|: 6 > 4, row 1 is the pivot either
    # way; |4.5| beats |3+3j| by modulus but not by |Re| + |Im| (6)
    a = np.array([[4.5, 1.0], [3 + 3j, 2.0]])
    _, pivots = tapegrad.linalg.lu_factor(tapegrad.tensor(a))
    assert pivots.tolist() == [2, 2]


@needs_torch
def test_complex_lu_as_torch():
    a = _RNG.standard_normal((2, 4, 4)) + 1j * _RNG.standard_normal((2, 4, 4))
    assert_same(lambda lib: _parts(*lib.linalg.lu_factor(lib.tensor(a))), torch)


# -- vector norms -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_zero_norm_gives_no_gradient(dtype):
    x = tapegrad.ones(2, 3, dtype=getattr(tapegrad, dtype), requires_grad=True)
    tapegrad.linalg.vector_norm(x, 0).backward()
    assert x.grad is None


# -- smaller differences --------------------------------------------------------------------------------

def test_diff_of_order_zero_is_a_recorded_copy():
    x = tapegrad.ones(3, requires_grad=True)
    assert _node(tapegrad.diff(x, 0)) == "CopyBackwards"
    with pytest.raises(RuntimeError, match="^diff expects input to be at least one-dimensional$"):
        tapegrad.diff(tapegrad.tensor(1.0), -1)  # the rank is checked before the order


def test_vecdot_of_two_vectors_is_vdot():
    x = tapegrad.tensor([1.0, 2.0], requires_grad=True)
    assert _node(tapegrad.linalg.vecdot(x, x)) == "VdotBackward0"
    z = tapegrad.tensor([1j, 2.0])
    assert tapegrad.linalg.vecdot(z, z).item() == 5  # x conjugated, as PyTorch's vdot


def test_condition_number_of_empty_complex_matrices_is_real():
    assert tapegrad.linalg.cond(tapegrad.zeros(0, 2, 2, dtype=tapegrad.complex64)).dtype == \
        tapegrad.float32


@pytest.mark.parametrize("op", [lambda x: tapegrad.linalg.inv(x).real.sum(),
                                lambda x: tapegrad.cumsum(x, 1).real.sum()])
def test_complex_gradients_of_empty_tensors(op):
    x = tapegrad.zeros(0, 2, 2, dtype=tapegrad.complex64, requires_grad=True)
    op(x).backward()
    assert x.grad.shape == (0, 2, 2) and x.grad.dtype == tapegrad.complex64


def test_inverse_of_a_singular_batch_is_still_recorded():
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 4.0]]])
    x = tapegrad.tensor(a, requires_grad=True)
    inverse, info = tapegrad.linalg.inv_ex(x)
    assert info.tolist() == [2, 0] and _node(inverse) == "LinalgInvExBackward0"
    inverse[1].sum().backward()  # the regular matrix's gradient: -A^-T 1 A^-T
    expected = -np.linalg.inv(a[1]).T @ np.ones((2, 2)) @ np.linalg.inv(a[1]).T
    np.testing.assert_allclose(x.grad.numpy()[1], expected)


@needs_torch
def test_inverse_of_a_singular_batch_as_torch():
    a = _RNG.standard_normal((2, 3, 3))
    a[0, :, 2] = 0

    def case(lib):
        x = lib.tensor(a, requires_grad=True)
        inverse, info = lib.linalg.inv_ex(x)
        inverse[1].sum().backward()
        return info, x.grad[1]
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.amax(lib.zeros(0, 3), (0, 0)),
    lambda lib: lib.amax(lib.zeros(0, 3), (1, 1, 5)),
    lambda lib: lib.amax(lib.zeros(0, 3, dtype=lib.complex64), (1, 1, 0)),
    lambda lib: lib.amin(lib.zeros(0, 3, dtype=lib.complex64)),
    lambda lib: lib.amin(lib.zeros(0, 3, dtype=lib.complex64), 1).real,
    lambda lib: lib.amin(lib.ones(2, 3, dtype=lib.complex64), (1, 1)),
    lambda lib: lib.amin(lib.zeros(2, 0), -1),
])
def test_amax_amin_check_range_then_size_then_repeats_then_dtype(case):
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("reduce", [lambda x: x.sum(()), lambda x: x.mean(()), lambda x: x.nansum(()),
                                    lambda x: x[0, 0].sum(0), lambda x: x.sum()])
def test_a_given_dim_records_the_dim_node_even_for_everything(reduce):
    def node(lib):
        return type(reduce(lib.ones(2, 3, requires_grad=True)).grad_fn).__name__
    assert node(tapegrad) == node(torch)
