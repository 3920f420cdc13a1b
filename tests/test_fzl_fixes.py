"""Differences found by differential fuzzing of loss functions against PyTorch (fzl): numpy's
"Mean of empty slice" warnings from the fused losses' 'mean' of an empty batch; the dtype of
hinge_embedding_loss of integers and of poisson_nll_loss(full=True), updated in place; l1_loss
broadcasting before it promotes; the IndexError of a 0-d input to multilabel_soft_margin_loss
and to cross_entropy with probabilities, whose weight shape is checked, whose empty 'mean' is
``NegBackward0`` and whose label smoothing over no class is no ZeroDivisionError; nll_loss's
checks in ATen's order (batch sizes, 0-d targets, weight shape before the dtype's kernel,
nll_loss2d's weight before its size mismatch), its views of empty spatial inputs and its rows
of no class; multi_margin_loss's and multilabel_margin_loss's checks in ATen's order, their
float16/integer refusals, the weight's dtype, the 'none' shape of a 1-element target and 0-d
inputs; binary_cross_entropy's and binary_cross_entropy_with_logits' checks in their kernels'
order (and a nan target refused); the reduction checked first by triplet_margin_loss and
margin_ranking_loss, smooth_l1_loss's beta and huber_loss's delta checked after the broadcast
warning and the reduction; and the deprecated ``nn.NLLLoss2d``."""
import math
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _node(t):
    return type(t.grad_fn).__name__


def _f(lib):
    return lib.nn.functional


# -- the 'mean' of an empty batch -----------------------------------------------------------------

@pytest.mark.parametrize("loss", [
    lambda F, x, t: F.mse_loss(x, t),
    lambda F, x, t: F.smooth_l1_loss(x, t),
    lambda F, x, t: F.huber_loss(x, t),
    lambda F, x, t: F.soft_margin_loss(x, t),
    lambda F, x, t: F.binary_cross_entropy(x, t),
    lambda F, x, t: F.binary_cross_entropy_with_logits(x, t),
    lambda F, x, t: F.multi_margin_loss(x, t[:, 0].long()),
    lambda F, x, t: F.multilabel_margin_loss(x, t.long()),
])
def test_mean_of_an_empty_batch_is_nan_without_numpy_warnings(loss):
    x = tapegrad.zeros(0, 3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = loss(tapegrad.nn.functional, x, tapegrad.zeros(0, 3))
        out.backward()
    assert math.isnan(out.item()) and x.grad.shape == (0, 3)


# -- dtypes ---------------------------------------------------------------------------------------

def test_hinge_embedding_loss_of_integers_stays_integer():
    x = tapegrad.tensor([0, 3, -2])
    out = tapegrad.nn.functional.hinge_embedding_loss(x, tapegrad.tensor([1, -1, -1]), margin=1.5,
                                                      reduction="none")
    assert out.dtype == tapegrad.int64 and out.tolist() == [0, 0, 3]  # the margin truncated to 1


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: _f(lib).hinge_embedding_loss(lib.tensor([0, 3, -2]), lib.tensor([1, -1, -1]),
                                             margin=1.5, reduction="sum"),
    lambda lib: _f(lib).poisson_nll_loss(lib.tensor([0.5, 2.0], dtype=lib.float16),
                                         lib.tensor([2, 3]), full=True, reduction="none"),
    lambda lib: _f(lib).l1_loss(lib.ones(2), lib.tensor(3.0, dtype=lib.float64)),
])
@pytest.mark.filterwarnings("ignore:Using a target size")
def test_result_dtypes_as_torch(case):
    ours, theirs = case(tapegrad), case(torch)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.float().numpy(), theirs.float().numpy(), rtol=1e-3)


def test_poisson_nll_loss_full_is_added_in_place():
    x = tapegrad.tensor([0.5, 2.0], requires_grad=True)
    out = tapegrad.nn.functional.poisson_nll_loss(x, tapegrad.tensor([3.0, 4.0]), full=True,
                                                  reduction="none")
    assert _node(out) == "AddBackward0"
    t = np.array([3.0, 4.0])
    stirling = t * np.log(t) - t + 0.5 * np.log(2 * np.pi * t)
    np.testing.assert_allclose(out.detach().numpy(), np.exp([0.5, 2.0]) - t * [0.5, 2.0]
                               + stirling, rtol=1e-6)


# -- cross_entropy with class probabilities -------------------------------------------------------

def test_soft_cross_entropy_of_an_empty_batch_fills_its_sum_with_nan():
    x = tapegrad.zeros(0, 3, requires_grad=True)
    out = tapegrad.nn.functional.cross_entropy(x, tapegrad.zeros(0, 3))
    assert _node(out) == "NegBackward0" and math.isnan(out.item())


@pytest.mark.parametrize("target", [tapegrad.zeros(0, dtype=tapegrad.int64), tapegrad.zeros(0, 0)])
def test_label_smoothing_over_no_class_is_nan(target):
    out = tapegrad.nn.functional.cross_entropy(tapegrad.zeros(0, 0), target, label_smoothing=0.5)
    assert math.isnan(out.item())


def test_soft_cross_entropy_refuses_a_weight_of_another_shape():
    with pytest.raises(RuntimeError, match=r"^cross_entropy: weight tensor should be defined "
                                           r"either for all 3 classes or no classes but got "
                                           r"weight tensor of shape: \[3, 1\]$"):
        tapegrad.nn.functional.cross_entropy(tapegrad.zeros(2, 3), tapegrad.zeros(2, 3),
                                             weight=tapegrad.ones(3, 1))


# -- nll_loss -------------------------------------------------------------------------------------

def test_nll_loss_of_rows_with_no_class_all_ignored():
    out = tapegrad.nn.functional.nll_loss(tapegrad.zeros(2, 0), tapegrad.tensor([0, 0]),
                                          ignore_index=0, reduction="none")
    assert out.tolist() == [0.0, 0.0]


# -- the margin losses ----------------------------------------------------------------------------

def test_multilabel_margin_loss_of_a_0d_input_is_one_class():
    x = tapegrad.tensor(0.5, requires_grad=True)
    out = tapegrad.nn.functional.multilabel_margin_loss(x, tapegrad.tensor([0]), reduction="none")
    out.backward()
    assert out.shape == () and out.item() == 0.0 and x.grad.item() == 0.0


def test_multi_margin_loss_of_a_one_element_target_keeps_its_dim():
    out = tapegrad.nn.functional.multi_margin_loss(tapegrad.tensor([0.0, 1.0, 2.0, 0.5]),
                                                   tapegrad.tensor([1]), reduction="none")
    assert out.shape == (1,)
    np.testing.assert_allclose(out.numpy(), [(1 + 0 + 1 + 0.5) / 4])


# -- the module -----------------------------------------------------------------------------------

def test_nll_loss_2d_is_the_deprecated_nll_loss():
    with pytest.warns(FutureWarning, match="^`NLLLoss2d` has been deprecated"):
        loss = tapegrad.nn.NLLLoss2d(ignore_index=1, reduction="sum")
    assert isinstance(loss, tapegrad.nn.NLLLoss) and repr(loss) == "NLLLoss2d()"
    x = tapegrad.log_softmax(tapegrad.tensor(np.arange(8.0).reshape(1, 2, 2, 2)), 1)
    target = tapegrad.tensor([[[0, 1], [1, 0]]])
    assert loss(x, target).item() == pytest.approx(-(x[0, 0, 0, 0] + x[0, 0, 1, 1]).item())


# -- errors, warnings and edge values as PyTorch --------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    # an integer mean
    lambda lib: _f(lib).hinge_embedding_loss(lib.tensor([0, 3, -2]), lib.tensor([1, -1, -1])),
    # 0-d inputs
    lambda lib: _f(lib).multilabel_soft_margin_loss(lib.tensor(1.0), lib.tensor(1.0)),
    lambda lib: _f(lib).cross_entropy(lib.tensor(1.0), lib.tensor(0.5)),
    lambda lib: _f(lib).cross_entropy(lib.tensor(1.0), lib.tensor(0.5), label_smoothing=1.5),
    # cross_entropy with probabilities
    lambda lib: _f(lib).cross_entropy(lib.zeros(2, 3), lib.zeros(2, 3), weight=lib.ones(4)),
    lambda lib: _f(lib).cross_entropy(lib.zeros(0, 0, 3), lib.zeros(0, 0, 3),
                                      label_smoothing=0.5, reduction="sum"),
    # nll_loss: batch sizes, 0-d targets, check order, empty spatial inputs
    lambda lib: _f(lib).nll_loss(lib.zeros(1, 4), lib.tensor([3.0, 1.0, 2.0])),
    lambda lib: _f(lib).nll_loss(lib.zeros(2, 4, 2, 2), lib.tensor(1)),
    lambda lib: _f(lib).nll_loss(lib.zeros(2, 4, 2), lib.tensor(1)),
    lambda lib: _f(lib).nll_loss(lib.zeros(0, 4, 2, 2), lib.tensor(1)),
    lambda lib: _f(lib).nll_loss(lib.zeros(0, 4), lib.tensor(0)),
    lambda lib: _f(lib).nll_loss(lib.zeros(2, 4, dtype=lib.int64), lib.tensor([0.0, 1.0])),
    lambda lib: _f(lib).nll_loss(lib.zeros(2, 4, dtype=lib.int64), lib.tensor([0, 1]),
                                 weight=lib.ones(3)),
    lambda lib: _f(lib).nll_loss(lib.zeros(2, 0, 2), lib.zeros(2, 2, dtype=lib.int64)),
    lambda lib: _f(lib).nll_loss(lib.zeros(0, 0, 2), lib.zeros(0, 2, dtype=lib.int64),
                                 weight=lib.zeros(0)),
    lambda lib: _f(lib).cross_entropy(lib.zeros(0, 0, 3, 1), lib.zeros(0, 3, 1, dtype=lib.int64),
                                      ignore_index=-1),
    lambda lib: _f(lib).nll_loss(lib.zeros(2, 3, 2, 2), lib.zeros(2, 2, 3, dtype=lib.int64),
                                 weight=lib.ones(2)),
    # multi_margin_loss
    lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 4, dtype=lib.float16), lib.tensor([0, 5])),
    lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 4, dtype=lib.float64), lib.tensor([0, 7]),
                                          weight=lib.ones(4)),
    lambda lib: _f(lib).multi_margin_loss(lib.zeros(2, 4, 3, dtype=lib.int64),
                                          lib.zeros(2, dtype=lib.int64)),
    lambda lib: _f(lib).multi_margin_loss(lib.tensor(0.5), lib.zeros(2, 2, dtype=lib.int64)),
    lambda lib: tuple(_f(lib).multi_margin_loss(lib.tensor(0.5), lib.tensor([0]),
                                                reduction="none").shape),
    # multilabel_margin_loss
    lambda lib: _f(lib).multilabel_margin_loss(lib.tensor(0.5), lib.tensor(0)),
    lambda lib: _f(lib).multilabel_margin_loss(lib.zeros(4, 0), lib.zeros(4, 0, dtype=lib.int64)),
    lambda lib: _f(lib).multilabel_margin_loss(lib.zeros(0, 0), lib.zeros(2, dtype=lib.int64)),
    lambda lib: _f(lib).multilabel_margin_loss(lib.tensor([0.5, 1.0]), lib.tensor([0.0, 4.0])),
    lambda lib: _f(lib).multilabel_margin_loss(lib.tensor([5, 1]), lib.tensor([0, 1])),
    lambda lib: _f(lib).multilabel_margin_loss(lib.tensor([0.5, 1.0], dtype=lib.float16),
                                               lib.tensor([0, 1])),
    # binary cross-entropy: the kernel's order
    lambda lib: _f(lib).binary_cross_entropy(lib.tensor(0.5), lib.tensor(1), weight=lib.ones(3)),
    lambda lib: _f(lib).binary_cross_entropy(lib.tensor(1.5), lib.tensor(1.0), weight=lib.ones(3)),
    lambda lib: _f(lib).binary_cross_entropy(lib.tensor(1.5), lib.tensor(1)),
    lambda lib: _f(lib).binary_cross_entropy(lib.tensor([0.5]), lib.tensor([float("nan")])),
    lambda lib: _f(lib).binary_cross_entropy_with_logits(lib.zeros(0), lib.zeros(0),
                                                         weight=lib.ones(3), reduction="batchmean"),
    lambda lib: _f(lib).binary_cross_entropy_with_logits(lib.zeros(3, dtype=lib.int64),
                                                         lib.zeros(3), weight=lib.ones(4, 1)),
    lambda lib: _f(lib).binary_cross_entropy_with_logits(lib.zeros(3), lib.zeros(3, dtype=lib.int64),
                                                         weight=lib.ones(0)),
    lambda lib: _f(lib).binary_cross_entropy_with_logits(lib.zeros(3), lib.zeros(3),
                                                         pos_weight=lib.ones(4, 1)),
    # the reduction first
    lambda lib: _f(lib).triplet_margin_loss(lib.zeros(2, 3), lib.zeros(2, 3), lib.zeros(2, 3),
                                            margin=-0.5, reduction="batchmean"),
    lambda lib: _f(lib).margin_ranking_loss(lib.zeros(1, 3), lib.zeros(0), lib.zeros(1, 3),
                                            reduction="batchmean"),
    lambda lib: _f(lib).smooth_l1_loss(lib.zeros(2), lib.zeros(2), beta=-1.0, reduction="bogus"),
    lambda lib: _f(lib).huber_loss(lib.zeros(2), lib.zeros(2), delta=0.0, reduction="bogus"),
    lambda lib: _f(lib).smooth_l1_loss(lib.zeros(2, 0), lib.zeros(2, 3, 4), beta=-1.0),
])
def test_errors_and_edge_values_as_torch(case):
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: _f(lib).smooth_l1_loss(lib.zeros(1), lib.zeros(0), beta=-1.0),
    lambda lib: _f(lib).huber_loss(lib.zeros(1), lib.zeros(0), delta=-1.0),
])
def test_broadcasting_warning_comes_before_the_parameter_check(case):
    for lib in (tapegrad, torch):
        with pytest.warns(UserWarning, match="^Using a target size"):
            with pytest.raises(RuntimeError, match="does not support"):
                case(lib)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", [
    lambda F, x: F.multi_margin_loss(x.reshape(-1)[:4], x.new_tensor([2]).long(),
                                     reduction="none", p=2),
    lambda F, x: F.multilabel_margin_loss(x[0, 0, 0], x.new_tensor(0).long(), reduction="none"),
    lambda F, x: F.cross_entropy(x, x.detach().softmax(1), weight=x.new_ones(3)),
    lambda F, x: F.nll_loss(x.log_softmax(1), x.new_zeros(2, 2).long(), reduction="none"),
    lambda F, x: F.hinge_embedding_loss(x, x.detach().sign(), margin=0.5),
])
def test_values_and_gradients_as_torch(dtype, call):
    values = np.random.default_rng(1).standard_normal((2, 3, 2))

    def case(lib):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        out = call(lib.nn.functional, x)
        out.sum().backward()
        return out, x.grad, _node(out)
    assert_same(case, torch)
