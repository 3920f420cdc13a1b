"""``torch.linalg`` and the norms: values, gradients and recorded nodes against PyTorch, gradients
against finite differences (first and, where supported, second order), and PyTorch's errors."""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck


def _well_conditioned(rng, shape):
    """Square matrices near the identity (times 2): invertible, determinant well away from 0."""
    return rng.standard_normal(shape) * 0.3 + 2 * np.eye(shape[-1])


def _symmetric(rng, shape):
    a = rng.standard_normal(shape)
    return a + np.swapaxes(a, -1, -2) + 6 * np.eye(shape[-1])


def _generic(rng, shape):
    return rng.standard_normal(shape)


# id -> (function of (T, *inputs), [(shape, generator)], node both libraries record, second order?)
CASES = {
    "norm_default": (lambda T, x: x.norm(), [((3, 4), _generic)], "LinalgVectorNormBackward0",
                     True),
    "norm_dim": (lambda T, x: x.norm(dim=1), [((3, 4), _generic)], "LinalgVectorNormBackward0",
                 True),
    "norm_p1_keepdim": (lambda T, x: T.norm(x, 1, 0, True), [((3, 4), _generic)],
                        "LinalgVectorNormBackward0", False),
    "norm_p3": (lambda T, x: x.norm(p=3, dim=(0, 2)), [((2, 3, 4), _generic)],
                "LinalgVectorNormBackward0", True),
    "norm_inf": (lambda T, x: x.norm(float("inf"), dim=1), [((3, 4), _generic)],
                 "LinalgVectorNormBackward0", False),
    "vector_norm": (lambda T, x: T.linalg.vector_norm(x, 2, -1), [((3, 4), _generic)],
                    "LinalgVectorNormBackward0", True),
    "linalg_norm_matrix_fro": (lambda T, x: T.linalg.norm(x), [((3, 4), _generic)],
                               "LinalgVectorNormBackward0", True),
    "matrix_norm_fro": (lambda T, x: T.linalg.matrix_norm(x), [((2, 3, 4), _generic)],
                        "LinalgVectorNormBackward0", True),
    "matrix_norm_1": (lambda T, x: T.linalg.matrix_norm(x, ord=1), [((3, 4), _generic)],
                      "AmaxBackward0", False),
    "matrix_norm_neg_inf": (lambda T, x: T.linalg.matrix_norm(x, ord=-math.inf),
                            [((2, 3, 4), _generic)], "AminBackward0", False),
    "det": (lambda T, a: T.linalg.det(a), [((3, 3), _well_conditioned)], "LinalgDetBackward0",
            True),
    "det_batched": (lambda T, a: T.det(a), [((2, 3, 3), _well_conditioned)],
                    "LinalgDetBackward0", True),
    "inv": (lambda T, a: T.linalg.inv(a), [((3, 3), _well_conditioned)], "LinalgInvExBackward0",
            True),
    "inverse_batched": (lambda T, a: T.inverse(a), [((2, 3, 3), _well_conditioned)],
                        "LinalgInvExBackward0", True),
    "solve_matrix": (lambda T, a, b: T.linalg.solve(a, b),
                     [((3, 3), _well_conditioned), ((3, 2), _generic)],
                     "LinalgSolveExBackward0", True),
    "solve_vector": (lambda T, a, b: T.linalg.solve(a, b),
                     [((3, 3), _well_conditioned), ((3,), _generic)],
                     "LinalgSolveExBackward0", True),
    "solve_batched_vectors": (lambda T, a, b: T.linalg.solve(a, b),
                              [((2, 3, 3), _well_conditioned), ((2, 3), _generic)],
                              "LinalgSolveExBackward0", True),
    "cross": (lambda T, a, b: T.linalg.cross(a, b), [((4, 3), _generic), ((1, 3), _generic)],
              "LinalgCrossBackward0", True),
    "cross_dim": (lambda T, a, b: T.cross(a, b, dim=0), [((3, 2), _generic), ((3, 2), _generic)],
                  "LinalgCrossBackward0", True),
    # eigvalsh reads one triangle: symmetrize inside, so finite differences see the whole matrix
    "eigvalsh": (lambda T, a: T.linalg.eigvalsh(a + a.transpose(-2, -1)), [((3, 3), _symmetric)],
                 "LinalgEighBackward0", False),
    "cholesky": (lambda T, a: T.linalg.cholesky(a @ a.transpose(-2, -1)),
                 [((2, 3, 3), _well_conditioned)], "LinalgCholeskyExBackward0", True),
    "cholesky_upper": (lambda T, a: T.linalg.cholesky(a @ a.transpose(-2, -1), upper=True),
                       [((3, 3), _well_conditioned)], "LinalgCholeskyExBackward0", True),
}


def _arrays(case, seed):
    rng = np.random.default_rng(seed)
    return [make(rng, shape) for shape, make in CASES[case][1]]


def _leaves(module, arrays, dtype):
    return [module.tensor(a, dtype=dtype, requires_grad=True) for a in arrays]


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_match_finite_differences(case):
    fn, _, _, second_order = CASES[case]
    inputs = _leaves(tapegrad, _arrays(case, 0), tapegrad.float64)
    assert gradcheck(lambda *xs: fn(tapegrad, *xs), inputs)
    if second_order:
        assert gradgradcheck(lambda *xs: fn(tapegrad, *xs), inputs)


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_values_gradients_and_node_match_torch(case, dtype_name):
    torch = pytest.importorskip("torch")
    fn, _, node, _ = CASES[case]
    arrays = _arrays(case, 3)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype_name == "float32" else dict(rtol=1e-9, atol=1e-11)
    ours_in = _leaves(tapegrad, arrays, getattr(tapegrad, dtype_name))
    theirs_in = _leaves(torch, arrays, getattr(torch, dtype_name))
    ours, theirs = fn(tapegrad, *ours_in), fn(torch, *theirs_in)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), **tol)
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__ == node
    cotangent = np.random.default_rng(1).standard_normal(tuple(theirs.shape))
    ours_grads = tapegrad.autograd.grad(ours, ours_in, tapegrad.tensor(cotangent, dtype=ours.dtype))
    theirs_grads = torch.autograd.grad(theirs, theirs_in, torch.tensor(cotangent,
                                                                       dtype=theirs.dtype))
    for a, b in zip(ours_grads, theirs_grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), **tol)


def test_norm_gradient_is_zero_at_zero_as_in_torch():
    torch = pytest.importorskip("torch")
    for p in (2, 3, 1, math.inf):
        ours = tapegrad.zeros(2, 3, requires_grad=True)
        theirs = torch.zeros(2, 3, requires_grad=True)
        tapegrad.norm(ours, p).backward()
        torch.norm(theirs, p).backward()
        assert not np.isnan(ours.grad.numpy()).any()
        np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


def test_inf_norm_shares_the_gradient_among_ties():
    x = tapegrad.tensor([3.0, -3.0, 1.0], requires_grad=True)
    x.norm(math.inf).backward()
    assert x.grad.tolist() == [0.5, -0.5, 0.0]


def test_qr_reconstructs_the_matrix_with_orthonormal_q():
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(0).standard_normal((4, 3))
    q, r = tapegrad.linalg.qr(tapegrad.tensor(a))
    np.testing.assert_allclose((q @ r).numpy(), a, atol=1e-12)
    np.testing.assert_allclose((q.T @ q).numpy(), np.eye(3), atol=1e-12)
    theirs = torch.linalg.qr(torch.tensor(a))
    np.testing.assert_allclose(np.abs(q.numpy()), np.abs(theirs.Q.numpy()), atol=1e-12)
    np.testing.assert_allclose(np.abs(r.numpy()), np.abs(theirs.R.numpy()), atol=1e-12)
    assert tapegrad.linalg.qr(tapegrad.tensor(a, requires_grad=True)).R.grad_fn.name() == \
        "LinalgQrBackward0"


@pytest.mark.parametrize("call, message", [
    (lambda T: T.linalg.det(T.ones(2, 3)),
     "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda T: T.linalg.inv(T.ones(3)),
     "linalg.inv: The input tensor A must have at least 2 dimensions."),
    (lambda T: T.linalg.cross(T.ones(2), T.ones(2)),
     "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"),
    (lambda T: T.linalg.vector_norm(T.arange(3)),
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda T: T.linalg.solve(T.zeros(3, 3), T.ones(3)),
     "torch.linalg.solve: The solver failed because the input matrix is singular."),
    (lambda T: T.linalg.inv(T.zeros(2, 2)), "linalg.inv: .*singular"),
    (lambda T: T.linalg.cholesky(-T.eye(2)),
     "linalg.cholesky: The factorization could not be completed because the input is not "
     "positive-definite"),
])
def test_errors_name_the_function_as_torch_does(call, message):
    with pytest.raises(RuntimeError, match=message):
        call(tapegrad)


def test_top_level_and_method_aliases():
    a = tapegrad.tensor([[2.0, 1.0], [1.0, 3.0]])
    assert tapegrad.det(a).item() == pytest.approx(5.0)
    np.testing.assert_allclose(tapegrad.inverse(a).numpy(), tapegrad.linalg.inv(a).numpy())
    assert a.det().item() == pytest.approx(5.0)
    np.testing.assert_allclose((a.inverse() @ a).numpy(), np.eye(2), atol=1e-6)
