"""Operations PyTorch defines no derivative for record a ``torch::autograd::NotImplemented`` node
whose backward raises PyTorch's error; their neighbours with a zero derivative record their own
nodes (``div`` with a rounding mode: DivBackward2)."""
import numpy as np
import pytest

import tapegrad

CASES = {  # what it computes -> (node name, backward error or None for zero gradients)
    "x // 0.3": (lambda x, y: x // 0.3, "NotImplemented", "aten::floor_divide"),
    "x // y": (lambda x, y: x // y, "NotImplemented", "aten::floor_divide"),
    "2 // x": (lambda x, y: 2 // x, "NotImplemented", "aten::floor_divide"),
    "floor_divide": (lambda x, y: x.floor_divide(y), "NotImplemented", "aten::floor_divide"),
    "1.0 % x": (lambda x, y: 1.0 % x, "NotImplemented", "aten::remainder"),
    "div floor": (lambda x, y: x.div(0.3, rounding_mode="floor"), "DivBackward2", None),
    "div trunc": (lambda x, y: x.div(y, rounding_mode="trunc"), "DivBackward2", None),
}


def _inputs():
    return (tapegrad.linspace(-1, 1, 6, requires_grad=True),
            tapegrad.full((6,), 0.3, requires_grad=True))


@pytest.mark.parametrize("case", sorted(CASES))
def test_nodes_and_backward_as_pytorch(case):
    compute, node, error = CASES[case]
    x, y = _inputs()
    out = compute(x, y)
    assert type(out.grad_fn).__name__ == node and out.requires_grad
    if error is None:
        out.sum().backward()
        assert np.all(x.grad.numpy() == 0)
    else:
        with pytest.raises(RuntimeError, match=f"^derivative for {error} is not implemented$"):
            out.sum().backward()


def test_values_are_untouched():
    x = tapegrad.tensor([-7.0, -0.5, 0.5, 7.0])
    np.testing.assert_array_equal((x // 2).numpy(), [-4, -1, 0, 3])
    np.testing.assert_array_equal((1.0 % tapegrad.tensor([0.3, -0.7])).numpy(),
                                  np.remainder(np.float32(1.0), np.float32([0.3, -0.7])))
    np.testing.assert_array_equal(tapegrad.div(x, 2, rounding_mode="trunc").numpy(), [-3, 0, 0, 3])


@pytest.mark.parametrize("mode, node", [("floor", "DivBackward2"), ("trunc", "DivBackward2"),
                                        (None, "DivBackward0")])
def test_in_place_division_records_pytorch_node(mode, node):
    x, _ = _inputs()
    w = x * 1
    w.div_(0.3, rounding_mode=mode)
    assert type(w.grad_fn).__name__ == node


def test_in_place_floor_division_has_no_derivative():
    x, _ = _inputs()
    w = x * 1
    w //= 0.3
    assert w.grad_fn.name() == "torch::autograd::NotImplemented"


def test_a_compiled_function_through_one_runs_eagerly_and_raises_at_backward():
    from tapegrad.compile import CompileWarning

    def f(a, b):
        return (a // b + a * 2).sum()
    compiled = tapegrad.compile(f)
    x, y = _inputs()
    with pytest.warns(CompileWarning, match="'floor_divide' has no derivative"):
        out = compiled(x, y.detach())
    assert out.item() == f(x, y.detach()).item()
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        out.backward()


def test_agrees_with_torch():
    torch = pytest.importorskip("torch")
    for case, (compute, node, error) in CASES.items():
        tx = torch.linspace(-1, 1, 6, requires_grad=True)
        ty = torch.full((6,), 0.3, requires_grad=True)
        theirs = compute(tx, ty)
        assert type(theirs.grad_fn).__name__ == node, case
        x, y = _inputs()
        np.testing.assert_array_equal(compute(x, y).detach().numpy(), theirs.detach().numpy())
