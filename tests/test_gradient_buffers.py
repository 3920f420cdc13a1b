"""The engine sums gradients in place and stores them in ``.grad`` uncopied only when nothing else
can see the array (as PyTorch's InputBuffer and AccumulateGrad check use counts): these tests hold
gradients in every way a user can and check that none of them changes afterwards."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn


def _leaf(*values):
    return tapegrad.tensor(np.array(values, dtype=np.float64), requires_grad=True)


def test_a_tensor_used_many_times_gets_the_sum_of_its_gradients():
    x = _leaf(1.0, 2.0, 3.0)
    y = x * 2
    (y * 3 + y * 4 + y + y.exp()).sum().backward()
    expected = 2 * (3 + 4 + 1 + np.exp(2 * np.array([1.0, 2.0, 3.0])))
    np.testing.assert_allclose(x.grad.numpy(), expected)


def test_gradients_seen_by_hooks_are_not_changed_by_later_sums():
    x = _leaf(1.0, 2.0)
    seen = []
    a = x * 1
    b = a * 2
    b.register_hook(lambda g: seen.append((g, g.numpy().copy())))
    (b * 3 + b * 5).sum().backward()
    (g, at_the_time), = seen
    np.testing.assert_array_equal(g.numpy(), at_the_time)
    np.testing.assert_array_equal(x.grad.numpy(), [16.0, 16.0])


def test_hook_returning_a_users_tensor_leaves_that_tensor_alone():
    x = _leaf(1.0, 2.0)
    kept = tapegrad.tensor([10.0, 10.0], dtype=tapegrad.float64)
    y = x * 1
    y.register_hook(lambda g: kept)
    (y + y * 2).sum().backward()
    np.testing.assert_array_equal(kept.numpy(), [10.0, 10.0])
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 10.0])
    x.grad.zero_()
    np.testing.assert_array_equal(kept.numpy(), [10.0, 10.0])


def test_retained_gradient_of_a_tensor_used_twice_is_its_total():
    x = _leaf(1.0, 2.0)
    y = x * 3
    y.retain_grad()
    z = y * y + y
    z.sum().backward()
    retained = y.grad.numpy().copy()
    np.testing.assert_allclose(retained, 2 * y.detach().numpy() + 1)
    x.grad.zero_()
    np.testing.assert_array_equal(y.grad.numpy(), retained)


def test_explicit_root_gradient_is_never_written_to():
    x = _leaf(1.0, 2.0)
    root = tapegrad.tensor([1.0, 1.0], dtype=tapegrad.float64)
    y = x * 1
    (y + y).backward(root)
    np.testing.assert_array_equal(root.numpy(), [1.0, 1.0])
    x.grad.add_(5)
    np.testing.assert_array_equal(root.numpy(), [1.0, 1.0])


def test_no_two_leaves_share_gradient_memory():
    a, b = _leaf(1.0, 2.0), _leaf(3.0, 4.0)
    (a + b).sum().backward()
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.numpy(), [1.0, 1.0])


def test_linear_weight_gradient_is_contiguous_correct_and_its_own():
    tapegrad.manual_seed(0)
    layer = nn.Linear(5, 3)
    x = tapegrad.randn(4, 5)
    layer(x).sum().backward()
    grad = layer.weight.grad
    assert grad.is_contiguous()
    expected = np.ones((4, 3), np.float32).T @ x.numpy()
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-6)
    assert not np.shares_memory(grad.numpy(), layer.bias.grad.numpy())
    layer(x).sum().backward()  # the second gradient is added into the first
    np.testing.assert_allclose(grad.numpy(), 2 * expected, rtol=1e-6)


def test_gradients_under_create_graph_keep_their_graph():
    """Summing a gradient that needs grad into one that does not must not lose its graph."""
    x, w = _leaf(1.0, 2.0, 3.0), _leaf(0.5, 2.0, -1.0)
    y = x * 1
    y[1:].mul_(w[1:])
    gx, gw = tapegrad.autograd.grad(y.sum() + (x * x).sum(), (x, w), create_graph=True)
    assert gx.requires_grad
    (second,) = tapegrad.autograd.grad(gx.sum(), w)
    np.testing.assert_array_equal(second.numpy(), [0.0, 1.0, 1.0])


BACKWARD_OPS = {  # ops whose gradient is one operation of PyTorch's, with a node of its own
    "tanh": lambda T, x: T.tanh(x),
    "sigmoid": lambda T, x: T.sigmoid(x),
    "relu": lambda T, x: T.relu(x),
    "softmax": lambda T, x: T.softmax(x, 1),
    "log_softmax": lambda T, x: T.log_softmax(x, 0),
    "nll_loss": lambda T, x: T.nn.functional.nll_loss(x, T.tensor([2, 0])),
}


@pytest.mark.parametrize("name", BACKWARD_OPS)
def test_double_backward_records_pytorchs_nodes_and_values(name):
    torch = pytest.importorskip("torch")
    names, values = [], []
    weights = np.random.default_rng(0).standard_normal((2, 3))
    for library in (tapegrad, torch):
        x = library.tensor([[-1.0, 0.5, 2.0], [0.3, -0.7, 1.1]], dtype=library.float64,
                           requires_grad=True)
        y = BACKWARD_OPS[name](library, x)
        (g,) = library.autograd.grad(y, x, library.ones_like(y), create_graph=True)
        names.append(type(g.grad_fn).__name__)
        (gg,) = library.autograd.grad((g * library.tensor(weights)).sum(), x, allow_unused=True)
        values.append(None if gg is None else gg.detach().numpy())
    assert names[0] == names[1]
    if values[0] is None or values[1] is None:  # relu's second derivative: zero, or no graph
        assert all(v is None or not v.any() for v in values)
    else:
        np.testing.assert_allclose(values[0], values[1], rtol=1e-10, atol=1e-12)


def test_the_gradient_of_a_mean_is_an_array_of_its_own():
    """PyTorch's mean_backward divides the expanded gradient: autograd.grad's result is dense
    and writable (a sum's is an expanded view, in both libraries)."""
    x = tapegrad.ones(2, 3, requires_grad=True)
    g, = tapegrad.autograd.grad(x.mean(), x)
    assert g.stride() == (3, 1)
    g += 1
    np.testing.assert_allclose(g.numpy(), np.full((2, 3), 1 + 1 / 6, np.float32))
    g, = tapegrad.autograd.grad(x.sum(), x)
    assert g.stride() == (0, 0)
