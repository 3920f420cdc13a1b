"""Differences found by the contrastive / metric-learning programs (ctr_*): the cosine
``cosine_embedding_loss`` computes (ε added to the squared norms) and its dimension checks, a
deep-copied Parameter's missing ``.grad``, the nodes of ``pairwise_distance`` (NormBackward1) and
``pdist`` (PdistBackward0, ATen's gradient at tied inf-norm maxima), ``cdist``'s matrix-product
form for many rows, and the distance kernels' backward that has no derivative in PyTorch."""
import copy
import math

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF
from same_as_torch import assert_same
from tapegrad.autograd import gradcheck, gradgradcheck

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _points(lib, rows, columns, scale=0.3, dtype=None):
    values = lib.sin(lib.arange(rows * columns, dtype=dtype or lib.float32) * scale)
    return values.reshape(rows, columns)


def _leaf(array):
    return tapegrad.tensor(np.asarray(array, dtype=np.float64), requires_grad=True)


# -- cosine_embedding_loss ----------------------------------------------------------------------

def test_cosine_embedding_loss_of_a_zero_vector_uses_epsilon_in_the_squared_norms():
    x1 = _leaf([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]])
    x2 = tapegrad.tensor([[1.0, 2.0, 2.0], [2.0, -1.0, 0.0]], dtype=tapegrad.float64)
    loss = TF.cosine_embedding_loss(x1, x2, tapegrad.tensor([1, 1]))
    assert loss.item() == pytest.approx(1.0)  # cos(0, x2) = 0 and cos of orthogonal rows = 0
    loss.backward()
    # d(1 - cos)/dx1 at x1 = 0 is -x2 / sqrt(ε (|x2|² + ε)), halved by the mean
    expected = -np.array([1.0, 2.0, 2.0]) / math.sqrt(1e-12 * (9 + 1e-12)) / 2
    np.testing.assert_allclose(x1.grad[0].numpy(), expected, rtol=1e-6)


def test_cosine_embedding_loss_gradient_matches_finite_differences():
    x1 = _leaf([[0.3, -1.0, 0.5], [1.0, 0.2, 0.1], [0.0, 0.4, -0.7]])
    x2 = _leaf([[0.2, 0.1, 0.9], [-0.5, 1.0, 0.3], [0.4, 0.4, 0.4]])
    target = tapegrad.tensor([1, -1, -1])
    assert gradcheck(lambda a, b: TF.cosine_embedding_loss(a, b, target, margin=-0.2),
                     (x1, x2))


@needs_torch
@pytest.mark.parametrize("shapes", [((4, 3), (4, 3), (4, 2)), ((3,), (3,), (3,)),
                                    ((3,), (3,), ()), ((4, 3), (4, 3), ()),
                                    ((4, 3), (4, 2), (4,)), ((4, 3), (1, 3), (4,))])
def test_cosine_embedding_loss_dimension_checks_as_torch(shapes):
    first, second, target = shapes
    assert_same(lambda lib: lib.nn.functional.cosine_embedding_loss(
        lib.ones(first), lib.ones(second), lib.ones(target)), torch)


@needs_torch
def test_cosine_embedding_loss_values_and_gradients_as_torch():
    def case(lib):
        x1 = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0], [0.0, 0.0, 0.0]], requires_grad=True)
        x2 = lib.tensor([[1.0, 2.5, 2.0], [-0.5, 1.0, 0.2], [1.0, 0.0, 0.0]])
        loss = lib.nn.CosineEmbeddingLoss(margin=0.1, reduction="none")(
            x1, x2, lib.tensor([1, -1, 1]))
        loss.sum().backward()
        return loss, x1.grad
    assert_same(case, torch)


# -- Parameter deepcopy -------------------------------------------------------------------------

def test_deepcopied_parameter_has_no_grad_and_keeps_class_and_requires_grad():
    model = tapegrad.nn.Linear(2, 2)
    model(tapegrad.ones(1, 2)).sum().backward()
    frozen = tapegrad.nn.Parameter(tapegrad.ones(2), requires_grad=False)
    twin, frozen_copy = copy.deepcopy(model), copy.deepcopy(frozen)
    assert model.weight.grad is not None and twin.weight.grad is None
    assert type(twin.weight) is tapegrad.nn.Parameter and twin.weight.requires_grad
    assert not frozen_copy.requires_grad
    twin.weight.data.add_(1)
    assert not tapegrad.equal(twin.weight, model.weight)  # the data was copied


def test_deepcopy_keeps_tied_parameters_tied():
    shared = tapegrad.nn.Parameter(tapegrad.ones(3))
    copied = copy.deepcopy({"a": shared, "b": shared})
    assert copied["a"] is copied["b"] and copied["a"] is not shared
    lazy = copy.deepcopy(tapegrad.nn.parameter.UninitializedParameter())
    assert type(lazy) is tapegrad.nn.parameter.UninitializedParameter


# -- pairwise_distance, pdist -------------------------------------------------------------------

def test_pairwise_distance_records_norm_backward1():
    x1 = _leaf([[0.3, -1.2, 0.8], [1.0, 0.5, -0.5]])
    x2 = x1.detach().flip(0)
    distance = TF.pairwise_distance(x1, x2, p=3)
    assert distance.grad_fn.name() == "NormBackward1"
    assert gradcheck(lambda a: TF.pairwise_distance(a, x2, p=3), (x1,))
    assert gradgradcheck(lambda a: TF.pairwise_distance(a, x2), (x1,))


def test_pdist_node_gradient_and_no_second_derivative():
    a = _leaf([[0.0, 0.0], [1.0, 1.0], [1.0, -1.0], [0.5, 2.0]])
    out = tapegrad.pdist(a, p=1.5)
    assert out.grad_fn.name() == "PdistBackward0"
    assert gradcheck(lambda x: tapegrad.pdist(x, p=1.5), (a,))
    assert gradcheck(lambda x: tapegrad.pdist(x), (a,))
    grad, = tapegrad.autograd.grad(out.sum(), a, create_graph=True)
    assert grad.grad_fn.name() == "PdistBackwardBackward0"
    with pytest.raises(NotImplementedError,
                       match="the derivative for '_pdist_backward' is not implemented."):
        grad.sum().backward()


def test_pdist_inf_norm_gives_each_tied_maximum_the_whole_gradient():
    a = _leaf([[0.0, 0.0], [1.0, 1.0]])
    tapegrad.pdist(a, p=math.inf).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[-1.0, -1.0], [1.0, 1.0]])


@needs_torch
@pytest.mark.parametrize("p", [0, 0.5, 1, 2, 3, math.inf])
def test_pdist_values_and_gradients_as_torch(p):
    def case(lib):
        a = lib.tensor([[0.0, 0.0], [1.0, 1.0], [1.0, -1.0], [0.0, 0.0]], requires_grad=True)
        out = lib.pdist(a, p)
        out.sum().backward()
        return out, a.grad
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("make", [lambda lib: lib.ones(3, 1, dtype=lib.int64),
                                  lambda lib: lib.ones(2, 2).half(),
                                  lambda lib: lib.ones(2, 2, 2)])
def test_pdist_errors_as_torch(make):
    assert_same(lambda lib: lib.pdist(make(lib)), torch)


# -- cdist --------------------------------------------------------------------------------------

def test_cdist_backward_has_no_derivative_as_in_pytorch():
    x1, x2 = _leaf(np.eye(3)), _leaf(np.ones((2, 3)))
    grad, = tapegrad.autograd.grad(tapegrad.cdist(x1, x2, p=1.5).sum(), x1, create_graph=True)
    with pytest.raises(NotImplementedError,
                       match="the derivative for '_cdist_backward' is not implemented."):
        grad.sum().backward()


def test_cdist_gradient_of_broadcast_batches_matches_finite_differences():
    x1 = _leaf(_points(np, 6, 3).reshape(2, 3, 3))
    x2 = _leaf(_points(np, 4, 3, scale=0.7))
    one_batch = _leaf(_points(np, 8, 3, scale=0.7).reshape(1, 8, 3))
    for p in (1.0, 1.5, 2.0, math.inf):
        assert gradcheck(lambda a, b: tapegrad.cdist(a, b, p=p), (x1, x2))
        assert gradcheck(lambda a, b: tapegrad.cdist(a, b, p=p), (x1, one_batch))
    mm = lambda a, b: tapegrad.cdist(a, b, compute_mode="use_mm_for_euclid_dist")  # noqa: E731
    assert gradcheck(mm, (x1, one_batch)) and gradcheck(mm, (x1, x2))


def test_cdist_matrix_product_form_for_many_rows_is_twice_differentiable():
    x1 = _leaf(_points(np, 30, 4))
    x2 = _leaf(_points(np, 5, 4, scale=0.7))
    out = tapegrad.cdist(x1, x2)
    assert out.grad_fn.name() == "ViewBackward0"
    assert out.grad_fn.next_functions[0][0].name() == "EuclideanDistBackward0"
    exact = tapegrad.cdist(x1, x2, compute_mode="donot_use_mm_for_euclid_dist")
    assert exact.grad_fn.name() == "CdistBackward0"
    np.testing.assert_allclose(out.detach().numpy(), exact.detach().numpy(), atol=1e-7)
    small = (x1[:4].detach().requires_grad_(), x2)
    mm = lambda a, b: tapegrad.cdist(a, b, compute_mode="use_mm_for_euclid_dist")  # noqa: E731
    assert gradcheck(mm, small) and gradgradcheck(mm, small)


def test_cdist_rejects_an_unknown_compute_mode():
    with pytest.raises(ValueError, match="bad is not a valid value for compute_mode"):
        tapegrad.cdist(tapegrad.ones(2, 2), tapegrad.ones(2, 2), compute_mode="bad")


@needs_torch
@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
def test_cdist_many_rows_values_gradients_and_node_as_torch(mode):
    def case(lib):
        x1 = _points(lib, 30, 4).view(2, 15, 4).requires_grad_()
        x2 = _points(lib, 7, 4, scale=0.7).requires_grad_()
        out = lib.cdist(x1, x2, compute_mode=mode)
        (out * lib.arange(7.0)).sum().backward()
        return out, x1.grad, x2.grad, out.grad_fn.name()
    assert_same(case, torch)


# -- cosine_similarity, normalize ---------------------------------------------------------------

def test_cosine_similarity_clamp_below_eps_does_not_block_the_gradient():
    # ATen clamps the norms under no_grad: for 0 < |x1| < eps the value uses eps, the gradient
    # is that of <x1, x2> / (|x1| |x2|) with |x1| unclamped in its derivative
    x1 = _leaf([[1e-10, 0.0]])
    x2 = tapegrad.tensor([[1.0, 1.0]], dtype=tapegrad.float64)
    cos = TF.cosine_similarity(x1, x2, eps=1e-8)
    assert cos.item() == pytest.approx(1e-10 / 1e-8 / math.sqrt(2))
    cos.backward()
    # value x1·x2 / (n1 n2), n1 = eps but with the derivative of |x1|:
    # d/dx1 = x2 / (eps n2) - x1·x2 / (eps² n2) · x1 / |x1|
    n2 = math.sqrt(2)
    expected = np.array([1.0, 1.0]) / (1e-8 * n2) - 1e-10 / (1e-16 * n2) * np.array([1.0, 0.0])
    np.testing.assert_allclose(x1.grad[0].numpy(), expected, rtol=1e-6)


@needs_torch
def test_cosine_similarity_small_norm_gradient_as_torch():
    def case(lib):
        a = lib.tensor([[1e-9, 0.0, 0.0], [1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], requires_grad=True)
        b = lib.tensor([[1.0, 1.0, 0.0], [2.0, -1.0, 0.5], [1.0, 1.0, 1.0]])
        cos = lib.nn.functional.cosine_similarity(a, b)
        cos.sum().backward()
        return cos, a.grad
    assert_same(case, torch)


def test_normalize_writes_into_out():
    out = tapegrad.empty(1, 2)
    result = TF.normalize(tapegrad.tensor([[3.0, 4.0]]), out=out)
    assert result is out
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8]])
    with pytest.raises(RuntimeError, match="div\\(\\): functions with out=... arguments"):
        TF.normalize(tapegrad.ones(2, 2, requires_grad=True), out=tapegrad.empty(2, 2))


def test_dist_computes_in_the_promoted_dtype():
    out = tapegrad.dist(tapegrad.ones(3), tapegrad.zeros(3, dtype=tapegrad.int64))
    assert out.dtype == tapegrad.float32 and out.item() == pytest.approx(math.sqrt(3))
    with pytest.raises(RuntimeError, match="norm\\(\\): input dtype should be either floating "
                                           "point or complex. Got Long instead."):
        tapegrad.dist(tapegrad.ones(3, dtype=tapegrad.int64), tapegrad.zeros(3, dtype=tapegrad.int64))


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.cdist(lib.ones(2, 1, 3, 4), lib.ones(5, 3, 2, 4)),
    lambda lib: lib.cdist(lib.ones(2, 3, 4), lib.ones(4, 5, 2, 4)),
    lambda lib: lib.dist(lib.ones(3, dtype=lib.int64), lib.zeros(3, dtype=lib.int64), p=1),
    lambda lib: lib.dist(lib.ones(3, dtype=lib.float64), lib.zeros(3, dtype=lib.int64)),
    lambda lib: lib.nn.functional.cosine_similarity(lib.ones(2, 3, dtype=lib.int64),
                                                    lib.arange(6.0).view(2, 3))])
def test_distance_promotion_and_broadcast_errors_as_torch(case):
    assert_same(case, torch)
