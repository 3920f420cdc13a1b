"""The fast paths of cross_entropy / log_softmax / nll_loss (every row counted with weight 1, an
int dim, labels all in range) give PyTorch's results bit for bit, and the general paths they
skip still give PyTorch's results and messages."""
import numpy as np
import pytest
import torch

import tapegrad as tg
import tapegrad.nn as tnn
import tapegrad.nn.functional as F

RNG = np.random.default_rng(7)


def _logits(shape, dtype=np.float32):
    return (RNG.standard_normal(shape) * 3).astype(dtype)


def _both(x_np, t_np, **kwargs):
    """cross_entropy's loss and input gradient, tapegrad's and PyTorch's."""
    x = tg.tensor(x_np, requires_grad=True)
    loss = F.cross_entropy(x, tg.tensor(t_np), **kwargs)
    loss.sum().backward() if loss.dim() else loss.backward()
    xt = torch.tensor(x_np, requires_grad=True)
    loss_t = torch.nn.functional.cross_entropy(xt, torch.tensor(t_np), **kwargs)
    loss_t.sum().backward() if loss_t.dim() else loss_t.backward()
    return (loss, x.grad), (loss_t, xt.grad)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cross_entropy_common_case_matches_torch(reduction, dtype):
    x_np, t_np = _logits((64, 10), dtype), RNG.integers(0, 10, 64)
    (loss, grad), (loss_t, grad_t) = _both(x_np, t_np, reduction=reduction)
    np.testing.assert_allclose(loss.detach().numpy(), loss_t.detach().numpy(), rtol=2e-6)
    np.testing.assert_allclose(grad.numpy(), grad_t.numpy(), rtol=2e-6, atol=1e-9)
    assert type(loss.grad_fn).__name__ == type(loss_t.grad_fn).__name__
    assert [type(n).__name__ for n, _ in loss.grad_fn.next_functions] == \
        [type(n).__name__ if n is not None else "NoneType"
         for n, _ in loss_t.grad_fn.next_functions]


@pytest.mark.parametrize("ignore_index", [-100, 3])
def test_ignored_rows_and_weights_take_the_general_path(ignore_index):
    x_np, t_np = _logits((16, 5)), RNG.integers(0, 5, 16)
    t_np[[1, 4]] = 3
    weight = RNG.random(5).astype(np.float32)
    x = tg.tensor(x_np, requires_grad=True)
    loss = F.cross_entropy(x, tg.tensor(t_np), weight=tg.tensor(weight), ignore_index=ignore_index)
    loss.backward()
    xt = torch.tensor(x_np, requires_grad=True)
    loss_t = torch.nn.functional.cross_entropy(xt, torch.tensor(t_np), weight=torch.tensor(weight),
                                               ignore_index=ignore_index)
    loss_t.backward()
    np.testing.assert_allclose(loss.item(), loss_t.item(), rtol=2e-6)
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-8)


def test_all_rows_ignored_is_nan_and_zero_gradient():
    x = tg.tensor(_logits((3, 4)), requires_grad=True)
    loss = F.cross_entropy(x, tg.tensor([2, 2, 2]), ignore_index=2)
    loss.backward()
    assert np.isnan(loss.item())
    assert not x.grad.numpy().any()


def test_ignored_row_loss_is_positive_zero():
    lp = tg.tensor(np.array([[-1.0, 2.0], [3.0, -4.0]], np.float32))
    losses = F.nll_loss(lp, tg.tensor([1, 0]), ignore_index=0, reduction="none")
    assert np.signbit(losses.numpy()).tolist() == [True, False]


@pytest.mark.parametrize("label", [-1, 10, 200])
def test_out_of_range_target_message(label):
    t = np.zeros(8, np.int64)
    t[5] = label
    with pytest.raises(IndexError, match=f"Target {label} is out of bounds."):
        F.nll_loss(tg.tensor(_logits((8, 10))), tg.tensor(t))


def test_out_of_range_target_reported_past_ignored_rows():
    with pytest.raises(IndexError, match="Target 7 is out of bounds."):
        F.nll_loss(tg.tensor(_logits((3, 4))), tg.tensor([-100, 7, 9]))
    assert F.nll_loss(tg.tensor(_logits((3, 4))), tg.tensor([-100, 1, -100])).dim() == 0


def test_uint8_and_empty_targets():
    x_np = _logits((6, 4))
    t_np = np.array([0, 3, 1, 2, 2, 0], np.uint8)
    out = F.nll_loss(tg.tensor(x_np), tg.tensor(t_np))
    expected = torch.nn.functional.nll_loss(torch.tensor(x_np), torch.tensor(t_np))
    # (PyTorch's float32 sum of the picked values rounds its own way: a unit apart, at times)
    np.testing.assert_allclose(out.item(), expected.item(), rtol=3e-7)
    empty = F.nll_loss(tg.tensor(_logits((0, 4))), tg.tensor(np.zeros(0, np.int64)))
    assert np.isnan(empty.item())


@pytest.mark.parametrize("dim", [0, 1, -1, -2])
def test_log_softmax_int_dims(dim):
    x_np = _logits((5, 7))
    out = F.log_softmax(tg.tensor(x_np), dim)
    expected = torch.log_softmax(torch.tensor(x_np), dim)
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)


def test_log_softmax_dim_errors_unchanged():
    x = tg.tensor(_logits((2, 3)))
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of "
                                         r"\[-2, 1\], but got 2\)"):
        F.log_softmax(x, 2)
    with pytest.raises(TypeError, match="must be int, not tuple"):
        tg.log_softmax(x, (1,))
    assert F.log_softmax(tg.tensor(1.5), 0).item() == 0.0  # a 0-d input takes dim 0 or -1
    assert F.log_softmax(tg.tensor(1.5), -1).item() == 0.0


def test_log_softmax_infinite_row_no_warning():
    x = tg.tensor(np.array([[np.inf, 1.0], [-np.inf, -np.inf]], np.float32))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = F.log_softmax(x, 1)
    assert np.isnan(out.numpy()).all()


def test_float16_log_softmax_backward():
    x_np = _logits((4, 6), np.float16)
    x = tg.tensor(x_np, requires_grad=True)
    F.log_softmax(x, 1).sum().backward()
    xt = torch.tensor(x_np, requires_grad=True)
    torch.log_softmax(xt, 1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy().astype(np.float32),
                               xt.grad.numpy().astype(np.float32), atol=2e-3)


def test_cross_entropy_module_double_backward():
    x = tg.tensor(_logits((4, 3)), requires_grad=True)
    loss = tnn.CrossEntropyLoss()(x, tg.tensor([0, 2, 1, 2]))
    (g,) = tg.autograd.grad(loss, x, create_graph=True)
    (gg,) = tg.autograd.grad((g * g).sum(), x)
    xt = torch.tensor(x.detach().numpy(), requires_grad=True)
    loss_t = torch.nn.CrossEntropyLoss()(xt, torch.tensor([0, 2, 1, 2]))
    (g_t,) = torch.autograd.grad(loss_t, xt, create_graph=True)
    (gg_t,) = torch.autograd.grad((g_t * g_t).sum(), xt)
    np.testing.assert_allclose(gg.numpy(), gg_t.numpy(), rtol=1e-5, atol=1e-8)
