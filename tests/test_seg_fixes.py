"""Differences found by the semantic-segmentation programs (seg_*): the spatial ``nll_loss2d``
kernel (dense ``cross_entropy`` on (N, C, H, W) logits) checks its arguments in PyTorch's order and
refuses a uint8 mask as target, which the row kernel accepts; ``smooth_l1_loss(beta=0)`` warns
about broadcasting once, at the caller, as PyTorch does."""
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as F
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _logits(lib, *shape, dtype=None):
    n = int(np.prod(shape))
    return lib.cos(lib.arange(n, dtype=dtype or lib.float32) * 0.3).view(*shape)


def _mask(lib, dtype, shape=(2, 3, 4), fill=None):
    values = lib.arange(int(np.prod(shape))) % 3 if fill is None else lib.full(shape, fill)
    return values.view(*shape).to(dtype)


# ------------------------------------------------------------------ spatial nll_loss's checks

def test_uint8_mask_is_refused_by_the_spatial_kernel():
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Byte"):
        F.cross_entropy(_logits(tapegrad, 2, 3, 3, 4), _mask(tapegrad, tapegrad.uint8))


def test_uint8_target_still_accepted_by_the_row_kernel():
    rows = _logits(tapegrad, 6, 3, dtype=tapegrad.float64)
    target = tapegrad.tensor([0, 1, 2, 2, 1, 0])
    byte_loss = F.cross_entropy(rows, target.to(tapegrad.uint8))
    long_loss = F.cross_entropy(rows, target)
    log_probs = rows.log_softmax(1).numpy()
    expected = -log_probs[np.arange(6), target.numpy()].mean()
    assert byte_loss.item() == pytest.approx(expected, rel=1e-12)
    assert long_loss.item() == pytest.approx(expected, rel=1e-12)


def test_long_mask_gives_the_mean_over_pixels_not_ignored():
    logits = _logits(tapegrad, 2, 3, 3, 4, dtype=tapegrad.float64)
    target = _mask(tapegrad, tapegrad.int64)
    target[0, 0, 0] = 255
    loss = F.cross_entropy(logits, target, ignore_index=255)
    log_probs = np.moveaxis(logits.log_softmax(1).numpy(), 1, -1).reshape(-1, 3)
    labels = target.numpy().reshape(-1)
    kept = labels != 255
    assert loss.item() == pytest.approx(-log_probs[kept, labels[kept]].mean(), rel=1e-12)


def _nll(lib, input_shape, target_dtype, target_shape, fill=None, input_dtype=None, **kwargs):
    return lib.nn.functional.nll_loss(_logits(lib, *input_shape).to(input_dtype or lib.float32),
                                      _mask(lib, target_dtype, target_shape, fill), **kwargs)


# Each case breaks more than one rule: PyTorch reports the first one it checks (message by hand).
_ORDER_CASES = {
    "int target with wrong size": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.int32, (2, 3, 5)),
        "expected target dtype to be Long or Byte, but got Int"),
    "int target with wrong batch": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.int32, (3, 3, 4)),
        "Expected input batch_size (2) to match target batch_size (3)."),
    "integer input with wrong weight": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.int64, (2, 3, 4), input_dtype=lib.int64,
                         weight=lib.ones(4)),
        "weight tensor should be defined either for all or no classes"),
    "integer input with byte target": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.uint8, (2, 3, 4), input_dtype=lib.int64),
        "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'"),
    "byte target with double weight": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.uint8, (2, 3, 4),
                         weight=lib.ones(3, dtype=lib.float64)),
        "expected scalar type Float but found Double"),
    "byte target out of range": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.uint8, (2, 3, 4), fill=9),
        "expected scalar type Long but found Byte"),
    "byte target, 5-d input": (
        lambda lib: _nll(lib, (2, 3, 2, 3, 4), lib.uint8, (2, 2, 3, 4)),
        "expected scalar type Long but found Byte"),
    "long target out of range": (
        lambda lib: _nll(lib, (2, 3, 3, 4), lib.int64, (2, 3, 4), fill=9),
        "Target 9 is out of bounds."),
}


@pytest.mark.parametrize("name", list(_ORDER_CASES))
def test_spatial_check_order_messages(name):
    case, expected = _ORDER_CASES[name]
    with pytest.raises(Exception) as info:
        case(tapegrad)
    assert str(info.value) == expected


@needs_torch
@pytest.mark.parametrize("name", list(_ORDER_CASES))
def test_spatial_check_order_same_as_torch(name):
    assert_same(_ORDER_CASES[name][0], torch)


# ------------------------------------------------------------------ smooth_l1_loss(beta=0)

def _broadcast_warnings(lib):
    a = lib.zeros(2, 3, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")  # (a ResourceWarning of another test's garbage, collected
        warnings.simplefilter("always", UserWarning)  # meanwhile, is none of this call's)
        loss = lib.nn.functional.smooth_l1_loss(a, lib.ones(1, 3), beta=0.0)
    return loss, caught


def test_smooth_l1_beta_zero_warns_once_at_the_caller():
    loss, caught = _broadcast_warnings(tapegrad)
    assert len(caught) == 1
    assert caught[0].filename == __file__
    assert loss.item() == 1.0


@needs_torch
def test_smooth_l1_beta_zero_warning_same_as_torch():
    ours, theirs = _broadcast_warnings(tapegrad), _broadcast_warnings(torch)
    assert [str(w.message) for w in ours[1]] == [str(w.message) for w in theirs[1]]
    assert type(ours[0].grad_fn).__name__ == type(theirs[0].grad_fn).__name__


@pytest.mark.parametrize("k", [1, 2, 3, -1])
def test_rot90_has_pytorchs_strides(k):
    # a quarter turn is a flip then a transpose: a non-contiguous result, as PyTorch's
    x = tapegrad.arange(24.0).reshape(2, 3, 4)
    y = tapegrad.rot90(x, k, (1, 2))
    expected = np.rot90(x.numpy(), k, axes=(1, 2))
    np.testing.assert_array_equal(y.numpy(), expected)
    turned = k % 2 == 1
    assert y.is_contiguous() is not turned
    if turned:
        assert y.stride() == (12, 1, 4)  # (the flipped copy, 3 x 4, transposed)


def test_functional_batch_norm_wants_a_number_for_momentum():
    # the layers turn momentum=None (a cumulative average) into a number; F.batch_norm refuses
    # None as torch.batch_norm's argument parser does
    x = tapegrad.arange(12.0).reshape(4, 3)
    for training in (True, False):
        with pytest.raises(TypeError, match=r"argument 'momentum' \(position 7\) must be float, "
                                            "not NoneType"):
            F.batch_norm(x, tapegrad.zeros(3), tapegrad.ones(3), training=training,
                         momentum=None)
    layer = tapegrad.nn.BatchNorm1d(3, momentum=None)
    layer(x)
    layer(x * 2)
    np.testing.assert_allclose(layer.running_mean.numpy(), [6.75, 8.25, 9.75])
