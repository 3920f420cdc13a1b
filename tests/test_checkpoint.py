"""Gradient checkpointing: the same gradients as plain backward, with the segment not recorded."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck
from tapegrad.utils.checkpoint import checkpoint, checkpoint_sequential


def _blocks(seed=0):
    tapegrad.manual_seed(seed)
    return nn.ModuleList(nn.Sequential(nn.Linear(6, 6), nn.Tanh()) for _ in range(4))


def _gradients(blocks, x, use_checkpoint):
    h = x
    for block in blocks:
        h = checkpoint(block, h, use_reentrant=True) if use_checkpoint else block(h)
    (h * h).sum().backward()
    grads = [x.grad.numpy().copy()] + [p.grad.numpy().copy() for p in blocks.parameters()]
    x.grad = None
    blocks.zero_grad()
    return grads


def test_checkpointed_gradients_equal_plain_gradients():
    blocks = _blocks()
    x = tapegrad.randn(5, 6, requires_grad=True)
    for plain, checkpointed in zip(_gradients(blocks, x, False), _gradients(blocks, x, True)):
        np.testing.assert_allclose(checkpointed, plain, rtol=1e-6, atol=1e-7)


def test_only_the_inputs_are_saved():
    layer = nn.Linear(4, 4)
    x = tapegrad.randn(3, 4, requires_grad=True)
    y = checkpoint(lambda h: layer(h).relu() * 2, x)
    assert y.grad_fn.name() == "CheckpointFunctionBackward"
    assert [t is x for t in y.grad_fn.saved_tensors] == [True]
    assert y.grad_fn.next_functions[0][0].name().endswith("AccumulateGrad")  # nothing recorded


def test_dropout_draws_the_same_mask_when_recomputed():
    tapegrad.manual_seed(1)
    drop = nn.Dropout(0.5)
    x = tapegrad.ones(50, requires_grad=True)
    y = checkpoint(drop, x)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())


def test_gradcheck_through_a_checkpoint_with_non_tensor_arguments():
    def segment(x, power, w):
        return (x * w).tanh() ** power

    x = tapegrad.randn(4, dtype=tapegrad.float64, requires_grad=True)
    w = tapegrad.randn(4, dtype=tapegrad.float64, requires_grad=True)
    # use_reentrant=False: the reentrant form refuses .grad(), which gradcheck uses (as PyTorch's)
    assert gradcheck(lambda x, w: checkpoint(segment, x, 3, w, use_reentrant=False), (x, w))


def test_checkpoint_sequential_equals_the_plain_model():
    tapegrad.manual_seed(2)
    model = nn.Sequential(*[nn.Linear(5, 5) for _ in range(6)])
    x = tapegrad.randn(2, 5, requires_grad=True)
    model(x).sum().backward()
    plain = [p.grad.numpy().copy() for p in model.parameters()] + [x.grad.numpy().copy()]
    model.zero_grad()
    x.grad = None
    checkpoint_sequential(model, 3, x).sum().backward()
    checkpointed = [p.grad.numpy() for p in model.parameters()] + [x.grad.numpy()]
    for a, b in zip(checkpointed, plain):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_warns_when_no_input_requires_grad():
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        checkpoint(lambda t: t * 2, tapegrad.ones(2))


def test_non_reentrant_checkpoint_reaches_parameters_and_takes_keyword_arguments():
    calls = []
    w = tapegrad.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)

    def block(x, scale, *, shift):
        calls.append(1)
        return (x @ w).tanh() * scale + shift

    x = tapegrad.tensor([[1.0, 2.0]])  # needs no grad: w still gets its gradient
    expected = block(x, 2.0, shift=0.5)
    expected.sum().backward()
    reference, w.grad = w.grad.clone(), None
    calls.clear()
    out = checkpoint(block, x, 2.0, shift=0.5, use_reentrant=False)
    assert out.requires_grad and len(calls) == 1
    out.sum().backward()
    assert len(calls) == 2  # rerun once, for the backward
    np.testing.assert_allclose(w.grad.numpy(), reference.numpy(), rtol=1e-6)


def test_non_reentrant_checkpoint_keeps_no_intermediate_and_checks_its_inputs():
    saved = []
    x = tapegrad.ones(3, requires_grad=True) * 1
    with tapegrad.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t, lambda t: t):
        out = checkpoint(lambda t: t.sin().exp().sum(), x, use_reentrant=False)
    assert saved == []  # the checkpoint's own hooks stored positions only
    with tapegrad.no_grad():
        x.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()


def test_recomputation_stops_once_every_saved_tensor_is_back():
    """Early stop (the default): what the function runs after its last saved tensor, a forward
    hook included, does not run again in backward; with early stop off it does."""
    from tapegrad.utils.checkpoint import set_checkpoint_early_stop
    block = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3))
    calls = []
    block[0].register_forward_hook(lambda module, args, out: calls.append("first"))
    block[2].register_forward_hook(lambda module, args, out: calls.append("last"))
    x = tapegrad.ones(2, 3, requires_grad=True)
    checkpoint(block, x, use_reentrant=False).sum().backward()
    # the last Linear saves its input (tanh's output) before it runs: its hook is past the stop
    assert calls == ["first", "last", "first"]
    expected = x.grad.clone()
    calls.clear()
    x.grad = None
    with set_checkpoint_early_stop(False):
        out = checkpoint(block, x, use_reentrant=False)
    out.sum().backward()
    assert calls == ["first", "last", "first", "last"]
    np.testing.assert_allclose(x.grad.numpy(), expected.numpy())
