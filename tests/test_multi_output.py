"""Operations with several differentiable outputs (split, chunk, unbind, linalg.svd): one node,
each result its output i, as PyTorch records them; hooks, retain_grad and saved-output checks
work per output."""
import numpy as np
import pytest

import tapegrad


def _both():
    torch = pytest.importorskip("torch")
    return tapegrad, torch


def test_pieces_are_outputs_of_one_node_and_views_of_the_input():
    x = tapegrad.randn(5, 3, requires_grad=True)
    y = x * 1
    pieces = y.split(2)
    assert [p.output_nr for p in pieces] == [0, 1, 2]
    assert all(p.grad_fn is pieces[0].grad_fn for p in pieces)
    assert pieces[0].grad_fn.name() == "SplitBackward0"
    assert all(p._base is y and p._version == y._version for p in pieces)
    y.add_(1)
    assert pieces[2]._version == y._version == 1
    assert tapegrad.unbind(tapegrad.zeros(0, 3)) == ()


def test_hooks_and_retain_grad_see_their_own_piece():
    results = []
    for T in _both():
        x = T.tensor(np.arange(12.0).reshape(4, 3), requires_grad=True)
        first, second = (x * 1).chunk(2)
        seen = []
        first.register_hook(lambda g: seen.append(g.clone()))
        second.retain_grad()
        ((first * 2).sum() + (second ** 2).sum()).backward()
        results.append((x.grad.numpy().copy(), seen[0].numpy(), second.grad.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


def test_pieces_without_a_gradient_contribute_zeros():
    x = tapegrad.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    x.unbind(1)[1].sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 1, 0], [0, 1, 0]])


@pytest.mark.parametrize("pieces", [
    lambda T, y: y.split(2), lambda T, y: T.split(y, [1, 3]), lambda T, y: y.unbind(1)])
def test_second_derivatives_through_pieces_match_torch(pieces):
    results = []
    for T in _both():
        x = T.tensor(np.linspace(-1, 1, 12).reshape(4, 3), requires_grad=True)
        parts = pieces(T, x * x)
        loss = sum((p ** 3).sum() * (i + 1) for i, p in enumerate(parts))
        (g,) = T.autograd.grad(loss, x, create_graph=True)
        (gg,) = T.autograd.grad((g * g).sum(), x)
        results.append((g.detach().numpy(), gg.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)


def test_svd_factors_share_one_node_and_its_saved_outputs_are_checked():
    a = tapegrad.tensor([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]], requires_grad=True)
    u, s, vh = tapegrad.linalg.svd(a, full_matrices=False)
    assert u.grad_fn is s.grad_fn is vh.grad_fn
    assert (u.output_nr, s.output_nr, vh.output_nr) == (0, 1, 2)
    s.mul_(2)  # allowed (not a view), but the node saved s
    assert s.grad_fn.name() == "MulBackward0" and s.output_nr == 0
    with pytest.raises(RuntimeError, match="which is output 1 of LinalgSvd, is at version 1"):
        (u.sum() + s.sum()).backward()
