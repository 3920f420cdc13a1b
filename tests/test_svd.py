"""The singular value decomposition and what is built on it: ``linalg.svd``, ``torch.svd``,
``svdvals``, the 'nuc'/2/-2 matrix norms, ``cond`` and ``matrix_rank``.

Values against PyTorch (singular values directly; singular vectors up to the sign of each pair,
which no library fixes) and against the definition A = U diag(S) Vh; gradients against finite
differences (first and second order, float64, matrices with distinct singular values) and against
PyTorch, always through losses that do not depend on those signs; recorded nodes and error
messages against PyTorch.
"""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

SHAPES = [(4, 3), (3, 4), (3, 3), (2, 4, 3), (2, 3, 5)]


def _matrices(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _leaf(module, array, dtype="float64"):
    return module.tensor(array, dtype=getattr(module, dtype), requires_grad=True)


def _sign_free(U, S, Vh):
    """Functions of the factors that do not change when a pair (u_i, v_i) changes sign."""
    return S, U @ Vh, U * U, Vh * Vh


def _assert_orthonormal_columns(q):
    identity = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, identity, atol=1e-12)


def _aligned(ours, theirs, k):
    """``ours``'s first k columns, each multiplied by the sign that matches it to ``theirs``."""
    ours, theirs = ours[..., :, :k], theirs[..., :, :k]
    return ours * np.sign(np.sum(ours * theirs, axis=-2, keepdims=True))


# --------------------------------------------------------------------------------------- values

@pytest.mark.parametrize("full_matrices", [False, True])
@pytest.mark.parametrize("shape", SHAPES + [(0, 3), (2, 0, 3), (3, 0)], ids=str)
def test_svd_matches_torch_and_reconstructs(shape, full_matrices):
    torch = pytest.importorskip("torch")
    a = _matrices(shape)
    U, S, Vh = (t.numpy() for t in tapegrad.linalg.svd(tapegrad.tensor(a), full_matrices))
    u, s, vh = (t.numpy() for t in torch.linalg.svd(torch.tensor(a), full_matrices))
    assert (U.shape, S.shape, Vh.shape) == (u.shape, s.shape, vh.shape)
    np.testing.assert_allclose(S, s, rtol=1e-12, atol=1e-12)
    k = S.shape[-1]
    np.testing.assert_allclose(U[..., :k] * S[..., None, :] @ Vh[..., :k, :], a, atol=1e-12)
    _assert_orthonormal_columns(U)
    _assert_orthonormal_columns(np.swapaxes(Vh, -1, -2))
    np.testing.assert_allclose(_aligned(U, u, k), u[..., :, :k], atol=1e-10)
    vt, vt_torch = np.swapaxes(Vh, -1, -2), np.swapaxes(vh, -1, -2)
    np.testing.assert_allclose(_aligned(vt, vt_torch, k), vt_torch[..., :, :k], atol=1e-10)


def test_float32_singular_values_match_torch():
    torch = pytest.importorskip("torch")
    a = _matrices((3, 5, 4)).astype(np.float32)
    ours = tapegrad.linalg.svdvals(tapegrad.tensor(a))
    assert ours.dtype == tapegrad.float32
    np.testing.assert_allclose(ours.numpy(), torch.linalg.svdvals(torch.tensor(a)).numpy(),
                               rtol=1e-5)


@pytest.mark.parametrize("some", [True, False])
def test_torch_svd_returns_v_not_vh(some):
    a = _matrices((2, 5, 3))
    U, S, Vh = tapegrad.linalg.svd(tapegrad.tensor(a), full_matrices=not some)
    result = tapegrad.tensor(a).svd(some=some)
    assert type(result).__name__ == "svd" and result.n_fields == 3  # fields U, S, V (below)
    np.testing.assert_array_equal(result.U.numpy(), U.numpy())
    np.testing.assert_array_equal(result.S.numpy(), S.numpy())
    np.testing.assert_array_equal(result.V.numpy(), np.swapaxes(Vh.numpy(), -1, -2))


def test_torch_svd_without_uv_gives_zeros_of_the_full_shapes_as_torch():
    torch = pytest.importorskip("torch")
    a = _matrices((2, 5, 3))
    ours = tapegrad.svd(_leaf(tapegrad, a), compute_uv=False)
    theirs = torch.svd(_leaf(torch, a), compute_uv=False)
    for mine, their in zip(ours, theirs):
        assert mine.shape == tuple(their.shape)
        assert mine.requires_grad == their.requires_grad
        np.testing.assert_allclose(mine.detach().numpy(), their.detach().numpy(), atol=1e-12)


def test_results_print_as_torch_return_types():
    result = tapegrad.linalg.svd(tapegrad.eye(2))
    assert repr(result).startswith("torch.return_types.linalg_svd(\nU=tensor(")
    assert "\nS=tensor([1., 1.]),\nVh=tensor(" in repr(result)
    assert (result.U, result.S, result.Vh) == tuple(result)
    assert repr(tapegrad.linalg.qr(tapegrad.eye(2))).startswith("torch.return_types.linalg_qr(\nQ=")


# ------------------------------------------------------------------------------------ gradients

@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_svd_gradients_match_finite_differences(shape):
    def function(x):
        return _sign_free(*tapegrad.linalg.svd(x, full_matrices=False))

    A = _leaf(tapegrad, _matrices(shape))
    assert gradcheck(function, [A])
    assert gradgradcheck(function, [A])


@pytest.mark.parametrize("shape", [(4, 3), (3, 4)], ids=str)
def test_full_matrices_gradient_uses_the_first_k_vectors_as_torch(shape):
    """PyTorch differentiates only U[..., :k] and Vh[..., :k, :] (the rest is not determined by
    A): a loss of the whole full U gets the gradient of its first k columns."""
    torch = pytest.importorskip("torch")
    a, k = _matrices(shape), min(shape)
    grads = []
    for module in (tapegrad, torch):
        A = _leaf(module, a)
        U, S, Vh = module.linalg.svd(A, full_matrices=True)
        ((U * U).sum() + (Vh * Vh * 2).sum() + (U[:, :k] @ Vh[:k]).sum() + S.sum()).backward()
        grads.append(A.grad.numpy())
    np.testing.assert_allclose(*grads, atol=1e-12)


def test_svd_first_and_second_derivatives_match_torch():
    torch = pytest.importorskip("torch")
    a = _matrices((2, 4, 3))
    weights = [np.random.default_rng(1).standard_normal(s) for s in [(2, 3), (2, 4, 3),
                                                                     (2, 4, 3), (2, 3, 3)]]
    results = []
    for module in (tapegrad, torch):
        A = _leaf(module, a)
        outputs = _sign_free(*module.linalg.svd(A, full_matrices=False))
        loss = sum((o * module.tensor(w)).sum() for o, w in zip(outputs, weights))
        (grad,) = module.autograd.grad(loss, A, create_graph=True)
        (second,) = module.autograd.grad((grad * grad).sum(), A)
        results.append((grad.detach().numpy(), second.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("a, weights", [(np.eye(3), [1.0, 1.0, 1.0]),
                                        (np.diag([2.0, 0.0, 0.0]), [3.0, 0.0, 0.0]),
                                        (np.ones((4, 3)), [3.0, 0.0, 0.0])],
                         ids=["repeated", "zero", "rank_one_tall"])
def test_loss_of_s_alone_is_finite_at_repeated_and_zero_singular_values_as_torch(a, weights):
    """U and Vh get zero gradients here, which must contribute nothing, not 0/0. (The weights
    keep the loss differentiable: equal on repeated values, whose vectors are not unique.)"""
    torch = pytest.importorskip("torch")
    grads = []
    for module in (tapegrad, torch):
        for factorize in (lambda T, x: T.linalg.svd(x, full_matrices=False)[1],
                          lambda T, x: T.svd(x)[1], lambda T, x: T.linalg.svdvals(x)):
            A = _leaf(module, a)
            (factorize(module, A) * module.tensor(weights)).sum().backward()
            grads.append(A.grad.numpy())
    assert np.isfinite(grads).all()
    for grad in grads[1:]:
        np.testing.assert_allclose(grad, grads[0], atol=1e-12)


def test_svdvals_gradients_match_finite_differences():
    A = _leaf(tapegrad, _matrices((2, 3, 4)))
    assert gradcheck(tapegrad.linalg.svdvals, [A])
    assert gradgradcheck(tapegrad.linalg.svdvals, [A])


def test_svd_gradient_after_u_changed_in_place_raises():
    A = _leaf(tapegrad, _matrices((3, 3)))
    U = tapegrad.linalg.svd(A).U
    loss = (U * U).sum()
    with tapegrad.no_grad():
        U.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


# --------------------------------------------------------------------------- norms, cond, rank

NORMS = {
    "nuc": lambda T, x: T.linalg.matrix_norm(x, "nuc"),
    "2": lambda T, x: T.linalg.matrix_norm(x, 2),
    "-2": lambda T, x: T.linalg.matrix_norm(x, -2),
    "nuc_dims_keepdim": lambda T, x: T.linalg.matrix_norm(x, "nuc", dim=(2, 0), keepdim=True),
    "2_dims": lambda T, x: T.linalg.matrix_norm(x, 2.0, dim=(0, 2)),
    "-2_keepdim": lambda T, x: T.linalg.matrix_norm(x, -2, keepdim=True),
    "linalg_norm_2": lambda T, x: T.linalg.norm(x[0], 2),
    "linalg_norm_nuc_dim": lambda T, x: T.linalg.norm(x, "nuc", dim=(1, 2)),
    "torch_norm_nuc": lambda T, x: T.norm(x[1], p="nuc"),
    "1_keepdim": lambda T, x: T.linalg.matrix_norm(x, 1, keepdim=True),
    "inf_dims": lambda T, x: T.linalg.matrix_norm(x, math.inf, dim=(2, 0)),
    "cond": lambda T, x: T.linalg.cond(x),
    "cond_-2": lambda T, x: T.linalg.cond(x, -2),
    "cond_nuc": lambda T, x: T.linalg.cond(x[:, :3], "nuc"),
    "cond_fro": lambda T, x: T.linalg.cond(x[:, :3], "fro"),
    "cond_1": lambda T, x: T.linalg.cond(x[:, :3], 1),
    "cond_-inf": lambda T, x: T.linalg.cond(x[:, :3], -math.inf),
}
# PyTorch's cond for these orders writes inf into the inverse in place (masked_fill_, where inv_ex
# found a singular matrix) after inv_ex saved it for backward, so PyTorch 2.13 cannot differentiate
# them ("modified by an inplace operation"). tapegrad's inverse fills singular matrices itself: its
# gradients are checked against finite differences, and its graph has no masked_fill node.
TORCH_CANNOT_DIFFERENTIATE = {"cond_fro", "cond_1", "cond_-inf"}


@pytest.mark.parametrize("name", sorted(NORMS))
def test_norm_gradients_match_finite_differences(name):
    def function(x):
        return NORMS[name](tapegrad, x)

    A = _leaf(tapegrad, _matrices((2, 4, 3), seed=2))
    assert gradcheck(function, [A])
    assert gradgradcheck(function, [A])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(NORMS))
def test_norm_values_gradients_and_graph_match_torch(name, dtype):
    torch = pytest.importorskip("torch")
    graph_of = pytest.importorskip("test_ops_vs_torch").graph_of
    a = _matrices((2, 4, 3), seed=2)
    tol = {"rtol": 1e-4, "atol": 1e-5} if dtype == "float32" else {"rtol": 1e-10, "atol": 1e-12}
    differentiable = name not in TORCH_CANNOT_DIFFERENTIATE
    results = []
    for module in (tapegrad, torch):
        A = _leaf(module, a, dtype)
        out = NORMS[name](module, A)
        if differentiable:
            out.backward(module.ones_like(out))
        results.append((out, A.grad))
    (ours, our_grad), (theirs, their_grad) = results
    assert ours.shape == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), **tol)
    if differentiable:
        np.testing.assert_allclose(our_grad.numpy(), their_grad.numpy(), **tol)
        assert graph_of(ours) == graph_of(theirs)


def test_svdvals_records_the_node_torch_records():
    torch = pytest.importorskip("torch")
    graph_of = pytest.importorskip("test_ops_vs_torch").graph_of
    a = _matrices((3, 2))
    for ours, theirs in [(tapegrad.linalg.svdvals(_leaf(tapegrad, a)),
                          torch.linalg.svdvals(_leaf(torch, a))),
                         (tapegrad.svd(_leaf(tapegrad, a), compute_uv=False).S,
                          torch.svd(_leaf(torch, a), compute_uv=False).S)]:
        assert graph_of(ours) == graph_of(theirs) == (
            "LinalgSvdBackward0", [("AccumulateGrad", [])])


def test_svd_factors_record_the_node_torch_records():
    a = _matrices((3, 2))
    U, S, Vh = tapegrad.linalg.svd(_leaf(tapegrad, a))
    assert [t.grad_fn.name() for t in (U, S, Vh)] == ["LinalgSvdBackward0"] * 3


def test_svd_factors_reach_one_svd_node():
    U, S, Vh = tapegrad.linalg.svd(_leaf(tapegrad, _matrices((3, 2))))
    nodes = set()
    for t in (U, S, Vh):
        node = t.grad_fn
        while node.name() != "LinalgSvdBackward0":
            node = node.next_functions[0][0]
        nodes.add(node)
    assert len(nodes) == 1


def test_empty_matrices_as_torch():
    torch = pytest.importorskip("torch")
    for shape in [(2, 0, 3), (2, 3, 0), (0, 3, 3)]:
        for call in [lambda T, x: T.linalg.matrix_norm(x, "nuc"),
                     lambda T, x: T.linalg.matrix_norm(x, 2, keepdim=True),
                     lambda T, x: T.linalg.svdvals(x), lambda T, x: T.linalg.cond(x),
                     lambda T, x: T.linalg.cond(x, 1), lambda T, x: T.linalg.matrix_rank(x)]:
            ours, theirs = call(tapegrad, tapegrad.zeros(shape)), call(torch, torch.zeros(shape))
            assert ours.shape == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
            np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy's, on the divisions by zero
def test_cond_of_singular_matrices_as_torch():
    torch = pytest.importorskip("torch")
    singular = np.stack([np.zeros((3, 3)), np.diag([1.0, 2.0, 0.0]), np.eye(3) * 2])
    for p in [None, -2, "nuc", "fro", 1, -1, math.inf, -math.inf]:
        ours = tapegrad.linalg.cond(tapegrad.tensor(singular), p).numpy()
        theirs = torch.linalg.cond(torch.tensor(singular), p).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def _low_rank(rng, batch, m, n, rank):
    return rng.standard_normal(batch + (m, rank)) @ rng.standard_normal(batch + (rank, n))


RANK_CASES = {
    "default": (lambda T, x: T.linalg.matrix_rank(x), (3,)),
    "atol": (lambda T, x: T.linalg.matrix_rank(x, atol=1.0), ()),
    "rtol": (lambda T, x: T.linalg.matrix_rank(x, rtol=0.3), ()),
    "atol_and_rtol": (lambda T, x: T.linalg.matrix_rank(x, atol=0.5, rtol=0.2), ()),
    "tol": (lambda T, x: T.linalg.matrix_rank(x, 1.5), ()),
    "tol_keyword_tensor": (lambda T, x: T.linalg.matrix_rank(x, tol=T.tensor(1.5)), ()),
    "batched_tolerances": (lambda T, x: T.linalg.matrix_rank(
        x, atol=T.tensor([[0.0], [2.0]]), rtol=T.tensor([0.0, 0.1, 0.5])), (3,)),
    "hermitian": (lambda T, x: T.linalg.matrix_rank(x @ x.mT, hermitian=True), (3,)),
    "hermitian_atol": (lambda T, x: T.linalg.matrix_rank(x @ x.mT, atol=2.0, hermitian=True), ()),
}


@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")  # torch's
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(RANK_CASES))
def test_matrix_rank_matches_torch(name, dtype):
    torch = pytest.importorskip("torch")
    call, batch = RANK_CASES[name]
    a = _low_rank(np.random.default_rng(4), batch, 5, 4, 2) + _matrices(batch + (5, 4)) * 0.1
    ours = call(tapegrad, _leaf(tapegrad, a, dtype))
    theirs = call(torch, _leaf(torch, a, dtype))
    assert ours.dtype == tapegrad.int64 and not ours.requires_grad
    assert ours.shape == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_matrix_rank_default_tolerance_and_a_positive_atol_as_torch():
    """Singular values 1 and 1e-16: under the default rtol (eps * 3) the second does not count;
    a positive atol alone sets rtol to 0, and then it does; atol=0 keeps the default rtol."""
    torch = pytest.importorskip("torch")
    a = np.diag([1.0, 1e-16, 0.0])
    for kwargs, expected in [({}, 1), ({"atol": 1e-20}, 2), ({"atol": 0.0}, 1)]:
        for module in (tapegrad, torch):
            assert module.linalg.matrix_rank(module.tensor(a), **kwargs).item() == expected


# --------------------------------------------------------------------------------------- errors

ERRORS = {
    "svd_1d": lambda T: T.linalg.svd(T.ones(3)),
    "svd_int": lambda T: T.linalg.svd(T.ones(3, 3, dtype=T.int64)),
    "svd_half": lambda T: T.linalg.svd(T.ones(3, 3, dtype=T.float16)),
    "svd_driver": lambda T: T.linalg.svd(T.ones(3, 3), driver="gesvd"),
    "svd_nan": lambda T: T.linalg.svd(T.tensor([[math.nan, 1.0], [1.0, 1.0]])),
    "svdvals_bool": lambda T: T.linalg.svdvals(T.ones(2, 2, dtype=T.bool)),
    "torch_svd_1d": lambda T: T.svd(T.ones(3)),
    "matrix_norm_1d": lambda T: T.linalg.matrix_norm(T.ones(3), "nuc"),
    "matrix_norm_int": lambda T: T.linalg.matrix_norm(T.ones(3, 3, dtype=T.int64), 2),
    "matrix_norm_half_nuc": lambda T: T.linalg.matrix_norm(T.ones(3, 3, dtype=T.float16), "nuc"),
    "matrix_norm_order_3": lambda T: T.linalg.matrix_norm(T.ones(3, 3), 3),
    "matrix_norm_order_3.5": lambda T: T.linalg.matrix_norm(T.ones(3, 3), 3.5),
    "matrix_norm_order_foo": lambda T: T.linalg.matrix_norm(T.ones(3, 3), "foo"),
    "matrix_norm_same_dims": lambda T: T.linalg.matrix_norm(T.ones(3, 3), "nuc", dim=(0, -2)),
    "matrix_norm_three_dims": lambda T: T.linalg.matrix_norm(T.ones(3, 3), "nuc", dim=(0, 1, 2)),
    "matrix_norm_dim_out_of_range": lambda T: T.linalg.matrix_norm(T.ones(3, 3), "nuc", dim=(0, 5)),
    "matrix_norm_narrowing_dtype": lambda T: T.linalg.matrix_norm(T.ones(3, 3, dtype=T.float64), 2,
                                                                  dtype=T.float32),
    "torch_norm_nuc_3d": lambda T: T.norm(T.ones(2, 3, 4), "nuc"),
    "linalg_norm_ord_3d": lambda T: T.linalg.norm(T.ones(2, 3, 4), 2),
    "linalg_norm_dim_length_3": lambda T: T.linalg.norm(T.ones(3, 3), "nuc", dim=(0, 1, 2)),
    "linalg_norm_nuc_one_dim": lambda T: T.linalg.norm(T.ones(3, 3), "nuc", dim=1),
    "cond_1d": lambda T: T.linalg.cond(T.ones(3)),
    "cond_order_3": lambda T: T.linalg.cond(T.ones(3, 3), 3),
    "cond_order_foo": lambda T: T.linalg.cond(T.ones(3, 3), "foo"),
    "cond_order_foo_not_square": lambda T: T.linalg.cond(T.ones(3, 4), "foo"),
    "cond_1_not_square": lambda T: T.linalg.cond(T.ones(3, 4), 1),
    "cond_1.0_not_square": lambda T: T.linalg.cond(T.ones(3, 4), 1.0),
    "cond_-inf_not_square": lambda T: T.linalg.cond(T.ones(3, 4), -math.inf),
    "cond_fro_int": lambda T: T.linalg.cond(T.ones(3, 3, dtype=T.int32), "fro"),
    "matrix_rank_1d": lambda T: T.linalg.matrix_rank(T.ones(3)),
    "matrix_rank_int": lambda T: T.linalg.matrix_rank(T.ones(3, 3, dtype=T.int64)),
    "matrix_rank_hermitian_not_square": lambda T: T.linalg.matrix_rank(T.ones(3, 4),
                                                                       hermitian=True),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        ERRORS[name](torch)
    with pytest.raises(Exception) as ours:
        ERRORS[name](tapegrad)
    assert str(ours.value) == str(theirs.value)
    # PyTorch's LinAlgError (torch._C._LinAlgError) is tapegrad's torch.linalg.LinAlgError
    assert type(ours.value).__name__ == type(theirs.value).__name__
