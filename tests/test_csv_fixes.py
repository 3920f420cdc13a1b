"""Complex singular value decompositions and what builds on them (svdvals, torch.svd,
matrix_rank, cond, lstsq, the singular-value matrix norms): values, dtypes, grad_fn names and
gradients as PyTorch gives them, and gradcheck for phase-invariant losses."""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

_RNG = np.random.default_rng(7)


def _complex(shape):
    return _RNG.standard_normal(shape) + 1j * _RNG.standard_normal(shape)


def _leaf(lib, values, dtype="complex128"):
    return lib.tensor(values.tolist(), dtype=getattr(lib, dtype), requires_grad=True)


def _outcome(lib, case):
    """``case(lib)`` as numpy arrays (complex kept), or the exception's type and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = case(lib)
    except Exception as error:  # noqa: BLE001  the exception is the outcome being compared
        return type(error).__name__, str(error)
    results = tuple(result) if isinstance(result, (tuple, list)) else (result,)
    return tuple(r.detach().resolve_conj().numpy() if hasattr(r, "detach") else r
                 for r in results)


def _assert_same(case):
    torch = pytest.importorskip("torch")
    ours, theirs = _outcome(tapegrad, case), _outcome(torch, case)
    if isinstance(theirs, tuple) and theirs and isinstance(theirs[0], str):
        assert ours == theirs
        return
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)  # complex64 LAPACKs differ
        else:
            assert a == b


_SHAPES = [(3, 2), (2, 4), (3, 3), (2, 3, 2)]


@pytest.mark.parametrize("shape", _SHAPES)
@pytest.mark.parametrize("full_matrices", [False, True])
def test_complex_svd_factors_and_phase_invariant_gradient_match_pytorch(shape, full_matrices):
    values = _complex(shape)

    def case(lib):
        A = _leaf(lib, values)
        U, S, Vh = lib.linalg.svd(A, full_matrices=full_matrices)
        k = S.shape[-1]
        U, Vh = U[..., :k], Vh[..., :k, :]
        loss = (U.abs().sum() + (S ** 2).sum() + Vh.abs().pow(3).sum()
                + (U @ lib.diag_embed(S).to(A.dtype) @ Vh).real.sum())
        return (U, S, Vh, lib.autograd.grad(loss, A)[0], U.grad_fn.name())
    _assert_same(case)


@pytest.mark.parametrize("shape", _SHAPES)
def test_complex_svdvals_and_torch_svd_match_pytorch(shape):
    values = _complex(shape)

    def case(lib):
        A = _leaf(lib, values, "complex64")
        S = lib.linalg.svdvals(A)
        U, S2, V = lib.svd(A)
        no_uv = lib.svd(A, compute_uv=False)
        return (S, lib.autograd.grad(S.sum(), A)[0], S.grad_fn.name(), U, S2, V,
                V.grad_fn.name(), no_uv.U, no_uv.V)
    _assert_same(case)


def test_phase_dependent_loss_is_refused_as_in_pytorch():
    values = _complex((3, 2))
    _assert_same(lambda lib: lib.linalg.svd(_leaf(lib, values))[0].real.sum().backward())
    A = _leaf(tapegrad, values)
    with pytest.raises(RuntimeError, match=r"svd_backward: The singular vectors in the complex "
                                           r"case are specified up to multiplication by e\^\{i "
                                           r"phi\}"):
        tapegrad.linalg.svd(A, full_matrices=False)[2].imag.sum().backward()


@pytest.mark.parametrize("ord", ["nuc", 2, -2, "fro", 1, -1, float("inf")])
def test_complex_matrix_norms_and_gradients_match_pytorch(ord):
    values = _complex((2, 3, 2))

    def case(lib):
        A = _leaf(lib, values)
        norm = lib.linalg.matrix_norm(A, ord)
        return norm, lib.autograd.grad(norm.sum(), A)[0], lib.linalg.norm(A.detach(), ord)
    _assert_same(case)


@pytest.mark.parametrize("dtype,function", [("float64", "matrix_norm"), ("complex128", "norm"),
                                            ("float32", "vector_norm")])
def test_norm_dtype_must_keep_the_input_complex_or_real(dtype, function):
    complex_values, real_values = _complex((2, 2)), _RNG.standard_normal((2, 2))

    def case(lib, values):
        A = lib.tensor(values.tolist())
        norm = getattr(lib.linalg, function)
        return norm(A, dtype=getattr(lib, dtype)) if function == "vector_norm" else norm(
            A, "fro", dtype=getattr(lib, dtype))
    _assert_same(lambda lib: case(lib, complex_values))
    _assert_same(lambda lib: case(lib, real_values))


def test_complex_matrix_rank_cond_and_lstsq_match_pytorch():
    A, B, square = _complex((4, 2)), _complex((4, 3)), _complex((3, 3))

    def case(lib):
        a, b = _leaf(lib, A), _leaf(lib, B)
        fit = lib.linalg.lstsq(a, b, driver="gelsd")
        loss = fit.solution.abs().sum() + fit.residuals.sum()
        grad_a, grad_b = lib.autograd.grad(loss, (a, b))
        s = lib.tensor(square.tolist(), dtype=lib.complex64)
        return (fit.solution, fit.residuals, fit.rank, fit.singular_values, grad_a, grad_b,
                lib.linalg.lstsq(a, b).singular_values, lib.linalg.matrix_rank(a),
                lib.linalg.matrix_rank(lib.ones(3, 3, dtype=lib.complex128)),
                lib.linalg.cond(s), lib.linalg.cond(s, "fro"), lib.linalg.cond(s, 1),
                lib.linalg.cond(s, -2))
    _assert_same(case)


def _values(shape):
    return tapegrad.tensor(_complex(shape).tolist(), dtype=tapegrad.complex128,
                           requires_grad=True)


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (3, 3)])
def test_complex_svd_gradcheck_for_phase_invariant_losses(shape):
    A = _values(shape)

    def factors(a):
        U, S, Vh = tapegrad.linalg.svd(a, full_matrices=False)
        return U.abs(), S, U @ tapegrad.diag_embed(S).to(a.dtype) @ Vh, Vh.abs()
    assert gradcheck(factors, (A,))
    assert gradcheck(tapegrad.linalg.svdvals, (A,))
    assert gradgradcheck(tapegrad.linalg.svdvals, (A,))


def test_complex_svd_reconstructs_with_unitary_factors():
    A = _values((2, 4, 3)).detach()
    U, S, Vh = tapegrad.linalg.svd(A)
    assert U.shape == (2, 4, 4) and S.dtype == tapegrad.float64 and Vh.shape == (2, 3, 3)
    eye4, eye3 = tapegrad.eye(4, dtype=A.dtype), tapegrad.eye(3, dtype=A.dtype)
    assert tapegrad.allclose(U.mH @ U, eye4) and tapegrad.allclose(Vh @ Vh.mH, eye3)
    assert tapegrad.allclose(U[..., :3] @ tapegrad.diag_embed(S).to(A.dtype) @ Vh, A)
    assert tapegrad.allclose(S, tapegrad.linalg.svdvals(A))


def test_nuclear_norm_gradient_of_a_unitary_scaled_matrix_is_its_polar_factor():
    """|| c Q ||_* = n |c| for unitary Q, whose gradient is Q c/|c| (the polar factor)."""
    q, _ = np.linalg.qr(_complex((3, 3)))
    A = tapegrad.tensor((q * (2 - 1j)).tolist(), dtype=tapegrad.complex128, requires_grad=True)
    norm = tapegrad.linalg.matrix_norm(A, "nuc")
    norm.backward()
    assert abs(norm.item() - 3 * abs(2 - 1j)) < 1e-12
    np.testing.assert_allclose(A.grad.numpy(), q * (2 - 1j) / abs(2 - 1j), atol=1e-12)
