"""Linear-algebra leftovers: LAPACK's dtype refusal in ``linalg.qr`` (float16 and friends),
``out=`` on the ``torch.linalg`` functions and on ``torch.cholesky_solve``, ``cholesky_inverse``
and the deprecated ``torch.svd``, ``qr``, ``slogdet``, ``triangular_solve``, ``lu_solve``,
``lu_unpack``, ``ger``, ``chain_matmul`` (results written in place, PyTorch's dtype, count and
autograd errors), ``triangular_solve``'s copy of A as the second output of its node, and the
fixed initial seed of a new ``torch.Generator``."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _spd(lib, dtype=None):
    return lib.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], dtype=dtype)


# One call per function: (name, lib -> (function taking out=, result dtypes)).
def _calls(lib):
    A = _spd(lib)
    B = lib.linspace(-1.0, 1.0, 6).reshape(3, 2)
    L = lib.linalg.cholesky(A)
    LU, pivots = lib.linalg.lu_factor(A)
    LD, ldl_pivots = lib.linalg.ldl_factor(A)
    tau = lib.tensor([1.0, 0.5, 0.0])
    linalg = lib.linalg
    return {
        "cholesky_solve": lambda **k: lib.cholesky_solve(B, L, **k),
        "cholesky_inverse": lambda **k: lib.cholesky_inverse(L, **k),
        "pinv": lambda **k: linalg.pinv(A, **k),
        "qr": lambda **k: linalg.qr(A, **k),
        "svd": lambda **k: linalg.svd(A, **k),
        "lstsq": lambda **k: linalg.lstsq(A, B, driver="gelsd", **k),
        "eigvals": lambda **k: linalg.eigvals(A, **k),
        "matrix_norm": lambda **k: linalg.matrix_norm(A, **k),
        "vector_norm": lambda **k: linalg.vector_norm(A, 3, **k),
        "norm": lambda **k: linalg.norm(A, **k),
        "cross": lambda **k: linalg.cross(A, A.flip(0), **k),
        "vecdot": lambda **k: linalg.vecdot(A, B.sum(1, keepdim=True), **k),
        "multi_dot": lambda **k: linalg.multi_dot([A, A, B], **k),
        "householder_product": lambda **k: linalg.householder_product(A, tau, **k),
        "lu": lambda **k: linalg.lu(A, **k),
        "lu_factor": lambda **k: linalg.lu_factor(A, **k),
        "lu_factor_ex": lambda **k: linalg.lu_factor_ex(A, **k),
        "lu_solve": lambda **k: linalg.lu_solve(LU, pivots, B, **k),
        "tensorinv": lambda **k: linalg.tensorinv(A, ind=1, **k),
        "tensorsolve": lambda **k: linalg.tensorsolve(A, B[:, 0], **k),
        "ldl_factor": lambda **k: linalg.ldl_factor(A, **k),
        "ldl_solve": lambda **k: linalg.ldl_solve(LD, ldl_pivots, B, **k),
        "cond": lambda **k: linalg.cond(A, **k),
        "matrix_rank": lambda **k: linalg.matrix_rank(A, **k),
        # the deprecated torch.* forms
        "t.svd": lambda **k: lib.svd(A, **k),
        "t.qr": lambda **k: lib.qr(A, **k),
        "t.slogdet": lambda **k: lib.slogdet(A, **k),
        "t.triangular_solve": lambda **k: lib.triangular_solve(B, A.triu(), **k),
        "t.lu_solve": lambda **k: lib.lu_solve(B, LU, pivots, **k),
        "t.lu_unpack": lambda **k: lib.lu_unpack(LU, pivots, **k),
        "t.ger": lambda **k: lib.ger(tau, tau, **k),
        "t.chain_matmul": lambda **k: lib.chain_matmul(A, A, B, **k),
    }


NAMES = list(_calls(tapegrad))


def _empty_like_results(lib, result, dtype=None, index=None):
    """Empty ``out`` tensors for ``result`` (one, or a tuple), the ``index``-th (all if None)
    of ``dtype`` instead of the result's."""
    values = result if isinstance(result, tuple) else (result,)
    outs = tuple(lib.empty(0, dtype=dtype if dtype is not None and index in (None, i)
                           else v.dtype) for i, v in enumerate(values))
    return outs if isinstance(result, tuple) else outs[0]


@pytest.mark.parametrize("name", NAMES)
def test_out_is_written_and_returned(name):
    """The results land in the given tensors (resized from empty), which are returned."""
    call = _calls(tapegrad)[name]
    expected = call()
    out = _empty_like_results(tapegrad, expected)
    returned = call(out=out)
    pairs = zip(returned, out, expected) if isinstance(out, tuple) else [(returned, out, expected)]
    for got, target, value in pairs:
        assert got is target and target._version == 1
        np.testing.assert_array_equal(target.numpy(), value.numpy())


@needs_torch
@pytest.mark.parametrize("name", NAMES)
def test_out_matches_torch(name):
    def case(lib):
        call = _calls(lib)[name]
        result = call(out=_empty_like_results(lib, call()))
        return ((type(result).__name__,),) + (tuple(result) if isinstance(result, tuple)
                                               else (result,))
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("name", NAMES)
def test_out_of_another_dtype_matches_torch(name):
    """Float64 (or, for matrix_rank, bool) outputs: refused with each function's message, or
    cast into."""
    for index in range(4):
        def case(lib):
            call = _calls(lib)[name]
            result = call()
            if isinstance(result, tuple) and index >= len(result) or index and not isinstance(
                    result, tuple):
                return None
            dtype = lib.bool if name == "matrix_rank" else lib.float64
            return call(out=_empty_like_results(lib, result, dtype, index))
        assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("name", NAMES)
def test_out_and_autograd_match_torch(name):
    """An input or an ``out`` that requires grad: refused under the op's name, or (PyTorch's
    composite functions) copied in as ``copy_`` records it."""
    def from_input(lib):
        with lib.no_grad():
            call = _calls(lib)[name]
            result = call()
        A = _spd(lib).requires_grad_()
        patched = {"cholesky_solve": lambda **k: lib.cholesky_solve(A[:, :2], A.tril(), **k),
                   "cholesky_inverse": lambda **k: lib.cholesky_inverse(A.tril(), **k)}
        if name in patched:
            call = patched[name]
        else:
            calls = _calls(_Substitute(lib, A))
            call = calls[name]
        out = call(out=_empty_like_results(lib, result))
        values = out if isinstance(out, tuple) else (out,)
        return [(v.requires_grad, type(v.grad_fn).__name__) for v in values]

    def into_leaf(lib):
        call = _calls(lib)[name]
        out = _empty_like_results(lib, call())
        first = out[0] if isinstance(out, tuple) else out
        if first.dtype.is_floating_point:
            first.requires_grad_()
        return call(out=out)
    if name not in ("lu", "t.lu_unpack"):  # PyTorch's write into a leaf that requires grad
        assert_same(into_leaf, torch)
    if name not in ("eigvals", "ldl_solve", "ldl_factor"):  # PyTorch's grad_fn: NotImplemented
        assert_same(from_input, torch)


class _Substitute:
    """``lib`` whose ``tensor`` hands back ``A`` for the 3 x 3 matrix of ``_spd``."""

    def __init__(self, lib, A):
        self._lib, self._A = lib, A

    def __getattr__(self, name):
        return getattr(self._lib, name)

    def tensor(self, data, **kwargs):
        if isinstance(data, list) and len(data) == 3 and isinstance(data[0], list):
            return self._A
        return self._lib.tensor(data, **kwargs)


@needs_torch
@pytest.mark.parametrize("name", ["qr", "svd", "lu", "lu_factor_ex", "ldl_factor", "lstsq",
                                  "t.svd", "t.triangular_solve", "t.lu_unpack", "t.slogdet"])
def test_tuple_out_argument_errors_match_torch(name):
    def short(lib):
        call = _calls(lib)[name]
        return call(out=_empty_like_results(lib, call())[:-1])

    def single(lib):
        call = _calls(lib)[name]
        return call(out=_empty_like_results(lib, call())[0])

    def not_tensor(lib):
        call = _calls(lib)[name]
        return call(out=_empty_like_results(lib, call())[:-1] + (3,))
    for case in (short, single, not_tensor):
        assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("name", NAMES)
def test_out_of_the_wrong_type_matches_torch(name):
    """A tuple for one tensor, or one tensor for a tuple: the parser's message (listing the
    overloads for the functions that have several)."""
    def case(lib):
        call = _calls(lib)[name]
        result = call()
        return call(out=lib.empty(0) if isinstance(result, tuple) else (lib.empty(0),))
    assert_same(case, torch)


def test_cholesky_solve_out_refuses_a_lossy_cast():
    A = _spd(tapegrad)
    L = tapegrad.linalg.cholesky(A)
    with pytest.raises(RuntimeError, match="cholesky_solve: Expected result to be safely "
                                           "castable from Float dtype, but got result with dtype "
                                           "Long"):
        tapegrad.cholesky_solve(A, L, out=tapegrad.empty(0, dtype=tapegrad.int64))


def test_composite_out_records_a_copy():
    """linalg.norm's out, from an input that requires grad, carries the gradient back."""
    A = _spd(tapegrad).requires_grad_()
    out = tapegrad.empty(0)
    tapegrad.linalg.norm(A, out=out)
    assert type(out.grad_fn).__name__ == "CopyBackwards"
    out.backward()
    np.testing.assert_allclose(A.grad.numpy(), (A / A.norm()).detach().numpy(), rtol=1e-6)


# ------------------------------------------------------------------ LAPACK dtypes

@needs_torch
@pytest.mark.parametrize("dtype", ["float16", "int64", "bool", "int32"])
@pytest.mark.parametrize("function", ["linalg.qr", "qr"])
def test_qr_refuses_non_lapack_dtypes_as_torch(dtype, function):
    def case(lib):
        A = _spd(lib).to(getattr(lib, dtype))
        return lib.linalg.qr(A) if function == "linalg.qr" else lib.qr(A)
    assert_same(case, torch)


@needs_torch
def test_low_rank_half_reaches_qrs_refusal_as_torch():
    assert_same(lambda lib: lib.pca_lowrank(_spd(lib).half(), q=2, center=False), torch)


def test_qr_half_message():
    with pytest.raises(NotImplementedError, match="\"geqrf_cpu\" not implemented for 'Half'"):
        tapegrad.linalg.qr(tapegrad.eye(3).half())


def test_qr_float64_still_factors():
    A = _spd(tapegrad, tapegrad.float64)
    Q, R = tapegrad.linalg.qr(A)
    np.testing.assert_allclose((Q @ R).numpy(), A.numpy(), atol=1e-12)


# ------------------------------------------------------------------ Generator

def test_new_generator_has_pytorchs_default_seed():
    assert tapegrad.Generator().initial_seed() == 67280421310721
    first = tapegrad.rand(3, generator=tapegrad.Generator())
    second = tapegrad.rand(3, generator=tapegrad.Generator())
    assert tapegrad.equal(first, second)  # same seed, same stream


@needs_torch
def test_default_generator_seed_is_random_and_new_ones_fixed_as_torch():
    for lib in (tapegrad, torch):
        assert lib.Generator().initial_seed() == 67280421310721
        assert lib.initial_seed() == lib.default_generator.initial_seed()


# ------------------------------------------------------------------ triangular_solve

def _triangular(lib, dtype=None):
    return lib.tensor([[2.0, 1.0, 0.5], [0.0, 3.0, 1.0], [0.0, 0.0, 4.0]], dtype=dtype)


@needs_torch
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
@pytest.mark.parametrize("unitriangular", [True, False])
def test_triangular_solve_nodes_and_gradients_match_torch(upper, transpose, unitriangular):
    """Both results are outputs of one TriangularSolveBackward0 (the copy of A output 1), and
    the copy's gradient reaches A whole."""
    def case(lib):
        A = _triangular(lib)
        A = (A if upper else A.mT.contiguous()).requires_grad_()
        b = lib.linspace(-1.0, 2.0, 6).reshape(3, 2).requires_grad_()
        x, copy = lib.triangular_solve(b, A, upper=upper, transpose=transpose,
                                       unitriangular=unitriangular)
        nodes = (x.grad_fn.name(), copy.grad_fn.name(), x.output_nr, copy.output_nr,
                 copy.grad_fn is x.grad_fn)
        grads = lib.autograd.grad((x * x).sum() + (copy * copy.detach()).sum(), (A, b))
        return ((nodes,),) + grads
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("operands", ["broadcast", "dtypes", "sizes", "vector", "not square",
                                      "half"])
def test_triangular_solve_operands_match_torch(operands):
    def case(lib):
        A = _triangular(lib)
        b = lib.arange(12.0).reshape(2, 3, 2)
        given = {"broadcast": (b, A), "dtypes": (b, A.double()), "sizes": (b[0, :2], A),
                 "vector": (lib.ones(3), A), "not square": (b, A[:2]),
                 "half": (b.half(), A.half())}[operands]
        result = lib.triangular_solve(*given)
        return ((type(result).__name__,),) + tuple(result)
    assert_same(case, torch)


def test_triangular_solve_gradients_against_finite_differences():
    A = _triangular(tapegrad, tapegrad.float64).requires_grad_()
    b = tapegrad.linspace(-1.0, 2.0, 6, dtype=tapegrad.float64).reshape(3, 2).requires_grad_()

    def both(b, A):
        x, copy = tapegrad.triangular_solve(b, A, transpose=True)
        return x, copy * copy
    assert tapegrad.autograd.gradcheck(both, (b, A))
    assert tapegrad.autograd.gradgradcheck(both, (b, A))


def test_max_and_min_take_either_kind_of_out():
    a = tapegrad.tensor([[1.0, 5.0, 3.0], [2.0, 0.0, 7.0]])
    out = tapegrad.empty(0)
    assert tapegrad.max(a, a * 2, out=out) is out and out.tolist() == (a * 2).tolist()
    values, indices = tapegrad.empty(0), tapegrad.empty(0, dtype=tapegrad.int64)
    result = tapegrad.min(a, 1, keepdim=True, out=(values, indices))
    assert result.values is values and values.tolist() == [[1.0], [0.0]]
    assert indices.tolist() == [[0], [1]]
    assert tapegrad.max(a, out=tapegrad.empty(0, dtype=tapegrad.float64)).item() == 7.0
    with pytest.raises(TypeError, match=r"max\(\) received an invalid combination"):
        tapegrad.max(a, 0, out=tapegrad.empty(0))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int"):
        tapegrad.max(a, 0, out=(tapegrad.empty(0), tapegrad.empty(0)))


def test_the_resize_warning_names_the_users_line():
    a = tapegrad.eye(3) * 2
    with pytest.warns(UserWarning, match="was resized") as caught:
        tapegrad.linalg.inv(a, out=tapegrad.empty(2))
    assert caught[0].filename == __file__
