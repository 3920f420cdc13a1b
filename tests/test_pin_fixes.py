"""Scientific-computing gaps found by the "pin" programs: complex ``linalg.matrix_exp`` (quantum
propagators e^{-iHt}), complex ``linalg.slogdet`` / ``logdet`` with the sign's gradient, and the
complex QR, LU (``lu``, ``lu_factor``, ``lu_solve`` with ``adjoint`` meaning A^H),
``solve_triangular`` / ``triangular_solve``, ``cholesky_solve`` / ``cholesky_inverse`` (A = L L^H),
``pinv`` (V S^-1 U^H), ``geqrf`` and ``householder_product`` (H = I - tau v v^H) with PyTorch's
gradients; and ``torch.lobpcg`` (a few extreme
eigenpairs of a symmetric or generalized problem, differentiable in A).

Each case is compared with PyTorch where it is installed, and checked without it against
independent truths: analytic values and gradcheck in double precision."""
import warnings

import numpy as np
import pytest

import tapegrad

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _complex_matrix(lib, dtype=None):
    """A non-Hermitian complex 3x3 matrix with a well-conditioned, non-real determinant."""
    dtype = dtype or lib.complex128
    real = lib.tensor([[1.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.2, 0.3, 0.5]], dtype=lib.float64)
    imag = lib.tensor([[0.3, -0.2, 0.1], [0.2, 0.3, 0.5], [-0.1, 0.0, 0.3]], dtype=lib.float64)
    return lib.complex(real, imag).to(dtype)


def _numpy(value):
    if isinstance(value, (tuple, list)):
        return tuple(_numpy(v) for v in value)
    return np.asarray(value.detach().resolve_conj().numpy())


def _same(case):
    ours, theirs = _numpy(case(tapegrad)), _numpy(case(torch))
    for a, b in zip(ours if isinstance(ours, tuple) else (ours,),
                    theirs if isinstance(theirs, tuple) else (theirs,)):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)


def _input_grad(lib, function, dtype=None):
    a = _complex_matrix(lib, dtype).requires_grad_(True)
    function(a).backward()
    return a.grad


# --- matrix_exp -------------------------------------------------------------------------------

def test_complex_matrix_exp_of_hermitian_generator_is_unitary():
    h = _complex_matrix(tapegrad)
    h = (h + h.mH) / 2
    u = tapegrad.linalg.matrix_exp(-1j * h)
    assert u.dtype == tapegrad.complex128
    np.testing.assert_allclose((u.mH @ u).numpy(), np.eye(3), atol=1e-12)
    values, vectors = np.linalg.eigh(h.numpy())
    exact = vectors @ np.diag(np.exp(-1j * values)) @ vectors.conj().T
    np.testing.assert_allclose(u.numpy(), exact, atol=1e-12)


def test_complex_matrix_exp_of_large_norm_uses_scaling_and_squaring():
    a = 5 * _complex_matrix(tapegrad)
    values, vectors = np.linalg.eig(a.numpy())
    exact = vectors @ np.diag(np.exp(values)) @ np.linalg.inv(vectors)
    np.testing.assert_allclose(tapegrad.linalg.matrix_exp(a).numpy(), exact, rtol=1e-10)


def test_complex_matrix_exp_gradients_pass_gradcheck():
    a = _complex_matrix(tapegrad).requires_grad_(True)
    assert tapegrad.autograd.gradcheck(tapegrad.linalg.matrix_exp, (a,))
    assert tapegrad.autograd.gradgradcheck(tapegrad.linalg.matrix_exp, (a,))


def test_matrix_exp_still_refuses_integer_matrices():
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor"):
        tapegrad.linalg.matrix_exp(tapegrad.ones(2, 2, dtype=tapegrad.int64))


@needs_torch
@pytest.mark.parametrize("scale", [0.01, 1.0, 5.0])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_matrix_exp_matches_torch(scale, dtype):
    _same(lambda lib: lib.linalg.matrix_exp(scale * _complex_matrix(lib, getattr(lib, dtype))))


@needs_torch
def test_complex_matrix_exp_gradient_matches_torch():
    _same(lambda lib: _input_grad(lib, lambda a: lib.linalg.matrix_exp(-1j * a)[0].abs().sum()))


# --- slogdet / logdet -------------------------------------------------------------------------

def test_complex_slogdet_is_unit_phase_and_log_modulus():
    a = _complex_matrix(tapegrad)
    det = np.linalg.det(a.numpy())
    sign, logabsdet = tapegrad.linalg.slogdet(a)
    assert sign.dtype == tapegrad.complex128 and logabsdet.dtype == tapegrad.float64
    np.testing.assert_allclose(sign.numpy(), det / abs(det))
    np.testing.assert_allclose(logabsdet.numpy(), np.log(abs(det)))
    np.testing.assert_allclose(tapegrad.logdet(a).numpy(), np.log(det))


def test_complex_slogdet_and_logdet_pass_gradcheck():
    a = _complex_matrix(tapegrad).requires_grad_(True)
    assert tapegrad.autograd.gradcheck(tapegrad.linalg.slogdet, (a,))
    assert tapegrad.autograd.gradcheck(tapegrad.logdet, (a,))
    assert tapegrad.autograd.gradgradcheck(lambda m: tapegrad.linalg.slogdet(m)[1], (a,))


def test_slogdet_of_real_matrix_unchanged():
    a = tapegrad.tensor([[0.0, 1.0], [1.0, 0.0]], requires_grad=True)
    sign, logabsdet = tapegrad.linalg.slogdet(a)
    assert sign.item() == -1.0 and logabsdet.item() == 0.0
    logabsdet.backward()
    np.testing.assert_allclose(a.grad.numpy(), [[0.0, 1.0], [1.0, 0.0]])
    assert np.isnan(tapegrad.logdet(a).item())


@needs_torch
@pytest.mark.parametrize("part", ["logabsdet", "sign_real", "sign_imag", "both", "logdet"])
def test_complex_slogdet_gradient_matches_torch(part):
    def loss(lib, a):
        sign, logabsdet = lib.linalg.slogdet(a)
        return {"logabsdet": logabsdet, "sign_real": sign.real, "sign_imag": sign.imag,
                "both": 2 * sign.imag + logabsdet, "logdet": lib.logdet(a).imag}[part]

    _same(lambda lib: _input_grad(lib, lambda a: loss(lib, a)))


@needs_torch
def test_complex_slogdet_values_match_torch():
    _same(lambda lib: (*lib.linalg.slogdet(_complex_matrix(lib)), lib.logdet(_complex_matrix(lib))))
    _same(lambda lib: tuple(lib.linalg.slogdet(lib.zeros(2, 2, dtype=lib.complex128))))


# --- qr, lu, lu_solve, solve_triangular --------------------------------------------------------

def _rectangular(lib, rows, columns):
    """Rows x columns of a fixed complex 4x3 matrix with well-separated pivots."""
    real = lib.tensor([[1.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.2, 0.3, 0.5], [0.1, -0.4, 0.2]],
                      dtype=lib.float64)
    imag = lib.tensor([[0.3, -0.2, 0.1], [0.2, 0.3, 0.5], [-0.1, 0.0, 0.3], [0.4, 0.1, -0.3]],
                      dtype=lib.float64)
    return lib.complex(real, imag)[:rows, :columns]


def _weights(lib, rows, columns):
    grid = lib.arange(12.0, dtype=lib.float64).reshape(4, 3)
    return lib.complex(lib.cos(grid), lib.sin(0.7 * grid))[:rows, :columns]


SHAPES = [(4, 3), (3, 3), (2, 3)]


@pytest.mark.parametrize("shape", SHAPES)
def test_complex_qr_is_unitary_times_upper_with_real_diagonal(shape):
    a = _rectangular(tapegrad, *shape)
    q, r = tapegrad.linalg.qr(a)
    np.testing.assert_allclose((q @ r).numpy(), a.numpy(), atol=1e-12)
    np.testing.assert_allclose((q.mH @ q).numpy(), np.eye(q.shape[-1]), atol=1e-12)
    assert np.all(np.diagonal(r.numpy()).imag == 0)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_complex_qr_gradients_pass_gradcheck(shape, mode):
    a = _rectangular(tapegrad, *shape).requires_grad_(True)
    if mode == "complete" and shape[0] > shape[1]:  # not differentiable, as in PyTorch
        q, r = tapegrad.linalg.qr(a, mode=mode)
        with pytest.raises(RuntimeError, match="not differentiable when mode='complete' and "
                                               "nrows > ncols"):
            (q.abs().sum() + r.abs().sum()).backward()
        return
    assert tapegrad.autograd.gradcheck(lambda m: tapegrad.linalg.qr(m, mode=mode), (a,))


def test_real_qr_gradient_unchanged_by_complex_rule():
    a = _rectangular(tapegrad, 4, 3).real.clone().requires_grad_(True)
    assert tapegrad.autograd.gradcheck(tapegrad.linalg.qr, (a,))
    assert tapegrad.autograd.gradgradcheck(lambda m: tapegrad.linalg.qr(m)[1], (a,))


@pytest.mark.parametrize("shape", SHAPES)
def test_complex_lu_gradients_pass_gradcheck(shape):
    a = _rectangular(tapegrad, *shape).requires_grad_(True)
    assert tapegrad.autograd.gradcheck(lambda m: tapegrad.linalg.lu(m)[1:], (a,))
    assert tapegrad.autograd.gradcheck(lambda m: tapegrad.linalg.lu_factor(m)[0], (a,))


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_complex_lu_solve_solves_with_conjugate_transpose(left, adjoint):
    a, b = _rectangular(tapegrad, 3, 3), _weights(tapegrad, 3, 2)
    b = b if left else b.mT
    x = tapegrad.linalg.lu_solve(*tapegrad.linalg.lu_factor(a), b, left=left, adjoint=adjoint)
    op = a.mH if adjoint else a
    np.testing.assert_allclose((op @ x if left else x @ op).numpy(), b.numpy(), atol=1e-12)
    assert tapegrad.autograd.gradcheck(
        lambda m, rhs: tapegrad.linalg.lu_solve(*tapegrad.linalg.lu_factor(m), rhs, left=left,
                                                adjoint=adjoint),
        (a.clone().requires_grad_(True), b.clone().requires_grad_(True)))


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
def test_complex_solve_triangular_gradients_pass_gradcheck(upper, left):
    a, b = _rectangular(tapegrad, 3, 3), _weights(tapegrad, 3, 2)
    b = b if left else b.mT
    assert tapegrad.autograd.gradcheck(
        lambda m, rhs: tapegrad.linalg.solve_triangular(m, rhs, upper=upper, left=left),
        (a.clone().requires_grad_(True), b.clone().requires_grad_(True)))


def _factor_loss(lib, factors):
    """A loss reading both factors' real and imaginary parts (and moduli)."""
    first, second = factors
    weights = _weights(lib, 4, 3)
    return ((first * weights[:first.shape[0], :first.shape[1]]).real.sum()
            + (second.abs() ** 2).sum()
            + (second * weights[:second.shape[0], :second.shape[1]]).imag.sum())


@needs_torch
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("decomposition", ["qr", "lu"])
def test_complex_factor_gradients_match_torch(shape, decomposition):
    def case(lib):
        a = _rectangular(lib, *shape).requires_grad_(True)
        factors = lib.linalg.qr(a) if decomposition == "qr" else lib.linalg.lu(a)[1:]
        _factor_loss(lib, factors).backward()
        return tuple(factors) + (a.grad,)

    _same(case)


@needs_torch
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_complex_lu_solve_matches_torch(left, adjoint):
    def case(lib):
        a = _rectangular(lib, 3, 3).requires_grad_(True)
        b = _weights(lib, 3, 2).requires_grad_(True)
        x = lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b if left else b.mT, left=left,
                                adjoint=adjoint)
        (x * _weights(lib, *x.shape)).real.sum().backward()
        return x, a.grad, b.grad

    _same(case)


@needs_torch
def test_complex_solve_triangular_matches_torch():
    def case(lib):
        a = _rectangular(lib, 3, 3).requires_grad_(True)
        x = lib.linalg.solve_triangular(lib.triu(a), _weights(lib, 3, 2), upper=True)
        x.abs().sum().backward()
        return x, a.grad

    _same(case)


def _hermitian_factor(lib):
    real = lib.tensor([[2.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.5]], dtype=lib.float64)
    imag = lib.tensor([[0.0, -0.2, 0.1], [0.2, 0.0, 0.0], [-0.1, 0.0, 0.0]], dtype=lib.float64)
    h = lib.complex(real, imag)
    return h, lib.linalg.cholesky(h)


@pytest.mark.parametrize("upper", [False, True])
def test_complex_cholesky_solve_and_inverse_use_the_conjugate_factor(upper):
    h, lower = _hermitian_factor(tapegrad)
    factor = lower.mH if upper else lower
    b = _weights(tapegrad, 3, 2)
    x = tapegrad.cholesky_solve(b, factor, upper=upper)
    np.testing.assert_allclose((h @ x).numpy(), b.numpy(), atol=1e-12)
    inverse = tapegrad.cholesky_inverse(factor, upper=upper).numpy()
    np.testing.assert_allclose(inverse, np.linalg.inv(h.numpy()), atol=1e-12)
    assert np.all(np.diagonal(inverse).imag == 0)


@pytest.mark.parametrize("shape", SHAPES)
def test_complex_pinv_is_the_moore_penrose_inverse(shape):
    a = _rectangular(tapegrad, *shape)
    np.testing.assert_allclose(tapegrad.linalg.pinv(a).numpy(), np.linalg.pinv(a.numpy()),
                               atol=1e-12)
    assert tapegrad.autograd.gradcheck(tapegrad.linalg.pinv, (a.clone().requires_grad_(True),))


def test_complex_hermitian_pinv():
    h, _ = _hermitian_factor(tapegrad)
    h = h - 1.8 * tapegrad.eye(3)  # indefinite
    np.testing.assert_allclose(tapegrad.linalg.pinv(h, hermitian=True).numpy(),
                               np.linalg.inv(h.numpy()), atol=1e-12)


@pytest.mark.parametrize("transpose", [False, True])
def test_complex_legacy_triangular_solve_transposes_without_conjugating(transpose):
    _, lower = _hermitian_factor(tapegrad)
    b = _weights(tapegrad, 3, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation, warned once
        x, _ = tapegrad.triangular_solve(b, lower, upper=False, transpose=transpose)
    op = lower.mT if transpose else lower
    np.testing.assert_allclose((op @ x).numpy(), b.numpy(), atol=1e-12)


@needs_torch
@pytest.mark.parametrize("upper", [False, True])
def test_complex_cholesky_solve_and_inverse_gradients_match_torch(upper):
    def case(lib):
        _, lower = _hermitian_factor(lib)
        factor = (lower.mH if upper else lower).clone().requires_grad_(True)
        b = _weights(lib, 3, 2).requires_grad_(True)
        x = lib.cholesky_solve(b, factor, upper=upper)
        inverse = lib.cholesky_inverse(factor, upper=upper)
        loss = (x * _weights(lib, 3, 2)).real.sum() + (inverse * _weights(lib, 3, 3)).imag.sum()
        loss.backward()
        return x, inverse, factor.grad, b.grad

    _same(case)


@needs_torch
@pytest.mark.parametrize("shape", SHAPES)
def test_complex_pinv_gradient_matches_torch(shape):
    def case(lib):
        a = _rectangular(lib, *shape).requires_grad_(True)
        p = lib.linalg.pinv(a)
        (p * _weights(lib, 4, 3).mT[:p.shape[0], :p.shape[1]]).real.sum().backward()
        return p, a.grad

    _same(case)


def test_complex_householder_product_rebuilds_qr():
    a = _rectangular(tapegrad, 4, 3)
    reflectors, tau = tapegrad.geqrf(a)
    q = tapegrad.linalg.householder_product(reflectors, tau)
    np.testing.assert_allclose(q.numpy(), tapegrad.linalg.qr(a).Q.numpy(), atol=1e-12)
    inputs = (reflectors.clone().requires_grad_(True), tau.clone().requires_grad_(True))
    assert tapegrad.autograd.gradcheck(tapegrad.linalg.householder_product, inputs)
    padded = tapegrad.nn.functional.pad(reflectors, (0, 1)).requires_grad_(True)  # n > k
    assert tapegrad.autograd.gradcheck(tapegrad.linalg.householder_product,
                                       (padded, tau.clone().requires_grad_(True)))


@needs_torch
def test_complex_householder_product_matches_torch():
    def case(lib):
        reflectors, tau = lib.geqrf(_rectangular(lib, 4, 3))
        reflectors.requires_grad_(True)
        tau.requires_grad_(True)
        q = lib.linalg.householder_product(reflectors, tau)
        weights = _weights(lib, 4, 3)
        ((q * weights).real.sum() + (q.abs() ** 2 * weights.real).sum()).backward()
        return reflectors, tau, q, reflectors.grad, tau.grad

    _same(case)


# --- lobpcg -----------------------------------------------------------------------------------

def _symmetric(lib, m=12):
    i = lib.arange(m, dtype=lib.float64)
    return lib.diag(1.0 + i ** 1.5) + 0.1 * lib.cos(0.3 * i[:, None] * i[None, :])


def _start(lib, m=12, n=3):
    i = lib.arange(m, dtype=lib.float64)
    return lib.stack([lib.cos(0.2 * (j + 1) * i) for j in range(n)], 1)


def _aligned(vectors):
    """Eigenvectors with their first entry positive (their sign is arbitrary)."""
    return vectors * np.sign(vectors[:1])


@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_finds_the_extreme_eigenpairs(largest):
    a = _symmetric(tapegrad)
    values, vectors = tapegrad.lobpcg(a, k=2, X=_start(tapegrad), largest=largest)
    exact_values, exact_vectors = np.linalg.eigh(a.numpy())
    chosen = [-1, -2] if largest else [0, 1]
    np.testing.assert_allclose(values.numpy(), exact_values[chosen], rtol=1e-10)
    np.testing.assert_allclose(_aligned(vectors.numpy()), _aligned(exact_vectors[:, chosen]),
                               atol=1e-6)


def test_lobpcg_generalized_problem_is_b_orthonormal():
    a = _symmetric(tapegrad)
    grid = tapegrad.arange(12.0, dtype=tapegrad.float64)
    mass = tapegrad.diag(1.0 + 0.5 * tapegrad.sin(grid) ** 2)
    values, vectors = tapegrad.lobpcg(a, k=2, B=mass, X=_start(tapegrad), largest=False)
    scale = np.diag(np.diag(mass.numpy()) ** -0.5)
    exact = np.linalg.eigvalsh(scale @ a.numpy() @ scale)[:2]
    np.testing.assert_allclose(values.numpy(), exact, rtol=1e-10)
    np.testing.assert_allclose((vectors.mT @ mass @ vectors).numpy(), np.eye(2), atol=1e-10)


def test_lobpcg_reads_sparse_matrices():
    a = _symmetric(tapegrad)
    dense = tapegrad.lobpcg(a, k=2, X=_start(tapegrad), largest=False)[0]
    for sparse in (a.to_sparse(), a.to_sparse_csr()):
        sparse_values = tapegrad.lobpcg(sparse, k=2, X=_start(tapegrad), largest=False)[0]
        np.testing.assert_allclose(sparse_values.numpy(), dense.numpy())


def test_lobpcg_batches_and_random_start():
    a = tapegrad.stack([_symmetric(tapegrad), 2 * _symmetric(tapegrad)])
    values, vectors = tapegrad.lobpcg(a, k=2, n=3)
    assert tuple(values.shape) == (2, 2) and tuple(vectors.shape) == (2, 12, 2)
    np.testing.assert_allclose(values[1].numpy(), 2 * values[0].numpy(), rtol=1e-8)


def test_lobpcg_gradient_is_the_eigenpairs_gradient():
    """Through lobpcg as through a full eigh: the same loss of the top two pairs."""
    weights = tapegrad.linspace(-1, 1, 12, dtype=tapegrad.float64)[:, None]

    def grad_of(pairs):
        a = _symmetric(tapegrad).requires_grad_(True)
        values, vectors = pairs(a)
        vectors = vectors * tapegrad.sign(vectors[:1].detach())
        (values.sum() + (vectors * weights).sum()).backward()
        return a.grad.numpy()

    def by_eigh(a):
        values, vectors = tapegrad.linalg.eigh((a + a.mT) / 2)
        return values.flip(-1)[:2], vectors.flip(-1)[:, :2]

    ours = grad_of(lambda a: tapegrad.lobpcg(a, k=2, X=_start(tapegrad), tol=1e-12))
    np.testing.assert_allclose(ours, grad_of(by_eigh), atol=1e-7)
    np.testing.assert_allclose(ours, ours.T)


def test_lobpcg_refusals():
    a = _symmetric(tapegrad)
    with pytest.raises(ValueError, match=r"number of A rows \(=12\) is smaller than 3 x the "
                                         r"number of requested eigenpairs \(=5\)"):
        tapegrad.lobpcg(a, k=5)
    with pytest.raises(AssertionError, match="A must be square"):
        tapegrad.lobpcg(a[:, :11])
    with pytest.raises(AssertionError, match="A and B must have same shape"):
        tapegrad.lobpcg(a, B=tapegrad.eye(11, dtype=tapegrad.float64))
    values, _ = tapegrad.lobpcg(a.clone().requires_grad_(True), k=1, B=tapegrad.eye(12),
                                X=_start(tapegrad, n=1))
    assert type(values.grad_fn).__name__ == "LOBPCGAutogradFunctionBackward"
    with pytest.raises(ValueError, match="does not support backward with B != I"):
        values.sum().backward()


@needs_torch
@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_matches_torch(largest):
    def case(lib):
        a = _symmetric(lib).requires_grad_(True)
        values, vectors = lib.lobpcg(a, k=2, X=_start(lib), largest=largest)
        values.sum().backward()
        return values, a.grad

    ours, theirs = _numpy(case(tapegrad)), _numpy(case(torch))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)  # to PyTorch's tolerance
