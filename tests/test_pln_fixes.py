"""nn.Linear's forward and backward path (F.linear, addmm, AddmmBackward0) after its speed-ups:
the same values, layouts, graphs and errors as PyTorch."""
import numpy as np
import pytest
import torch

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad.ops import linalg


def _pair(shape_w=(128, 64), batch=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, shape_w[1]), dtype=np.float32)
    w = rng.standard_normal(shape_w, dtype=np.float32)
    b = rng.standard_normal(shape_w[0], dtype=np.float32)
    g = rng.standard_normal((batch, shape_w[0]), dtype=np.float32)
    return x, w, b, g


@pytest.mark.parametrize("sizes", [(64, 64, 128), (64, 128, 128), (64, 128, 10), (3, 5, 2)])
def test_linear_forward_and_grads_bitwise_and_layouts(sizes):
    batch, fan_in, fan_out = sizes
    x, w, b, g = _pair((fan_out, fan_in), batch)
    tx, tw, tb = (tg.tensor(a, requires_grad=True) for a in (x, w, b))
    y = F.linear(tx, tw, tb)
    assert y._array.tobytes() == (b + x @ w.T).tobytes()
    assert y.stride() == (fan_out, 1)
    y.backward(tg.tensor(g))
    assert tx.grad._array.tobytes() == (g @ w).tobytes()
    assert tw.grad._array.tobytes() == (g.T @ x).tobytes()
    px, pw, pb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    torch.nn.functional.linear(px, pw, pb).backward(torch.tensor(g))
    assert tw.grad.is_contiguous() and tw.grad.stride() == pw.grad.stride()
    assert tx.grad.stride() == px.grad.stride()
    np.testing.assert_allclose(tb.grad.numpy(), pb.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tw.grad.numpy(), pw.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tx.grad.numpy(), px.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_linear_graph_names_as_pytorch():
    lin = tg.nn.Linear(4, 3)
    y = lin(tg.randn(2, 4, requires_grad=True))
    node = y.grad_fn
    assert type(node).__name__ == "AddmmBackward0"
    names = [type(n).__name__ if n is not None else None for n, _ in node.next_functions]
    assert names == ["AccumulateGrad", "AccumulateGrad", "TBackward0"]
    assert type(node.next_functions[2][0].next_functions[0][0]).__name__ == "AccumulateGrad"
    assert node._saved_alpha == 1 and type(node._saved_alpha) is int
    assert node._saved_beta == 1 and type(node._saved_beta) is int


def test_linear_without_bias_graph():
    w = tg.randn(3, 4, requires_grad=True)
    y = F.linear(tg.randn(2, 4), w)
    assert type(y.grad_fn).__name__ == "MmBackward0"
    assert type(y.grad_fn.next_functions[1][0]).__name__ == "TBackward0"


def test_linear_double_backward_records_the_products_nodes():
    """create_graph: the weight's gradient is t(mm(t(grad), input)), as recorded nodes."""
    x = tg.randn(5, 4, requires_grad=True)
    lin = tg.nn.Linear(4, 3)
    (gw,) = tg.autograd.grad(lin(x).pow(2).sum(), [lin.weight], create_graph=True)
    assert type(gw.grad_fn).__name__ == "TBackward0"
    assert type(gw.grad_fn.next_functions[0][0]).__name__ == "TBackward0"
    mm_node = gw.grad_fn.next_functions[0][0].next_functions[0][0]
    assert type(mm_node).__name__ == "MmBackward0"
    gw.sum().backward()
    px = torch.tensor(x.detach().numpy(), requires_grad=True)
    pl = torch.nn.Linear(4, 3)
    with torch.no_grad():
        pl.weight.copy_(torch.tensor(lin.weight.detach().numpy()))
        pl.bias.copy_(torch.tensor(lin.bias.detach().numpy()))
    (pgw,) = torch.autograd.grad(pl(px).pow(2).sum(), [pl.weight], create_graph=True)
    pgw.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), px.grad.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 1, 4)])
def test_addmm_bias_larger_than_product_refused_as_pytorch(shape):
    with pytest.raises(RuntimeError) as ours:
        tg.addmm(tg.ones(*shape), tg.ones(3, 5), tg.ones(5, 4))
    with pytest.raises(RuntimeError) as theirs:
        torch.addmm(torch.ones(*shape), torch.ones(3, 5), torch.ones(5, 4))
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("bias_shape", [(3, 4), (1, 4), (3, 1), (4,), ()])
def test_addmm_bias_layouts_give_a_contiguous_sum(bias_shape):
    rng = np.random.default_rng(1)
    bias = np.asfortranarray(rng.standard_normal(bias_shape)) if bias_shape else np.array(2.5)
    a, b = rng.standard_normal((3, 5)), rng.standard_normal((5, 4))
    out = tg.addmm(tg.tensor(bias), tg.tensor(a), tg.tensor(b))
    assert out._array.tobytes() == (bias + a @ b).tobytes()
    expected = torch.addmm(torch.tensor(bias), torch.tensor(a), torch.tensor(b))
    assert out.stride() == expected.stride()


def test_kernel_scalars_convert_all_but_the_int_defaults():
    ints, floats = tg.ones(2, 2, dtype=tg.int64), tg.ones(2, 2)
    assert linalg._kernel_scalars(floats, 1, 1) == (1, 1)
    converted = linalg._kernel_scalars(ints, True, 1.0)
    assert converted == (1, 1) and all(type(v) is int for v in converted)
    assert [type(v) for v in linalg._kernel_scalars(floats, True, 1.0)] == [bool, float]
    with pytest.raises(RuntimeError, match="without overflow"):
        linalg._kernel_scalars(tg.ones(2, 2, dtype=tg.int8), 1, 1000)


@pytest.mark.parametrize("dtypes, message", [
    ((tg.float64, tg.float32, tg.float32), "self and mat2 must have the same dtype, but got "
                                           "Double and Float"),
    ((tg.float32, tg.float64, tg.float32), "mat1 and mat2 must have the same dtype, but got "
                                           "Double and Float"),
])
def test_addmm_dtype_messages_in_order(dtypes, message):
    bias, m1, m2 = (tg.ones(2, 2, dtype=d) for d in dtypes)
    with pytest.raises(RuntimeError, match=message):
        tg.addmm(bias, m1, m2)


def test_addmm_checks_the_first_argument_first():
    with pytest.raises(AttributeError, match="'int' object"):
        tg.addmm(1, tg.ones(2, 2), [1])


def test_linear_weight_errors_unchanged():
    with pytest.raises(RuntimeError, match="t\\(\\) expects a tensor with <= 2 dimensions"):
        F.linear(tg.ones(2, 3), tg.ones(1, 4, 3), tg.ones(4))
    with pytest.raises(RuntimeError, match="mat2 must be a matrix, got 1-D tensor"):
        F.linear(tg.ones(2, 3), tg.ones(3), tg.ones(1))
