"""torch.func behaviours found by the torch.func-tutorial programs (``ftu_*``).

vmap hands each example a view of its batched input (``select``), so an in-place update of an
example, also a 0-d one, reaches the caller's tensor; over an empty batch the function runs once
to learn the output shapes; a batch norm refuses, as PyTorch does, to update running statistics
that are not batched; ``jacrev``/``jacfwd``/``grad`` refuse complex tensors with PyTorch's
messages. Checked against analytic values and, where installed, against PyTorch."""
import pytest

import tapegrad
import tapegrad.nn as nn
from tapegrad.func import functional_call, grad, jacfwd, jacrev, stack_module_state, vmap

from same_as_torch import assert_same


# ------------------------------------------------------------------ 0-d views of 1-D tensors

def test_select_and_unbind_of_1d_tensor_are_views():
    x = tapegrad.zeros(4)
    x.select(0, 1).add_(1)
    x.unbind()[3].add_(5)
    assert x.tolist() == [0, 1, 0, 5]
    assert x.select(0, 2)._base is x
    assert all(piece._base is x for piece in x.unbind())


def test_vmap_in_place_on_scalar_examples_writes_through():
    counters = tapegrad.zeros(3, dtype=tapegrad.long)
    vmap(lambda c, inc: c.add_(inc))(counters, tapegrad.arange(3))
    assert counters.tolist() == [0, 1, 2]
    scores = tapegrad.tensor([0.5, -1.0, 2.0])
    vmap(lambda s: s.clamp_(min=0.0))(scores)
    assert scores.tolist() == [0.5, 0.0, 2.0]


def test_select_of_1d_tensor_keeps_gradient():
    x = tapegrad.arange(3.0, requires_grad=True)
    (x.select(0, 1) * 3).backward()
    assert x.grad.tolist() == [0, 3, 0]


# ------------------------------------------------------------------------------ empty batch

def test_vmap_over_empty_batch_runs_once_for_shapes():
    calls = []

    def f(x):
        calls.append(tuple(x.shape))
        return x.sum(), x * 2, tapegrad.ones(2)

    total, doubled, shared = vmap(f, out_dims=(0, 1, None))(tapegrad.ones(0, 3))
    assert calls == [(3,)]
    assert tuple(total.shape) == (0,) and tuple(doubled.shape) == (3, 0)
    assert shared.tolist() == [1, 1]


def test_per_sample_grads_of_empty_selection():
    w = tapegrad.ones(2, 3)
    g = vmap(grad(lambda w, x: (w @ x).sum()), in_dims=(None, 0))(w, tapegrad.ones(0, 3))
    assert tuple(g.shape) == (0, 2, 3) and g.dtype == tapegrad.float32


def test_empty_batch_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: lib.func.vmap(lambda x: (x > 0).any())(lib.ones(0, 2)), torch)
    assert_same(lambda lib: lib.func.vmap(lambda x: x.sum(), in_dims=1)(lib.ones(3, 0)), torch)
    assert_same(lambda lib: lib.func.vmap(lib.func.vmap(lib.sum))(lib.ones(2, 0, 3)), torch)


# --------------------------------------------------------------------- batch norm under vmap

def _batch_norm_net():
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))


def test_vmap_of_module_batch_norm_in_training_refuses_unbatched_stats():
    net = _batch_norm_net()
    with pytest.raises(RuntimeError, match="Batch norm got a batched tensor as input while the "
                                           "running_mean or running_var"):
        vmap(net)(tapegrad.ones(2, 5, 3))
    net.eval()
    assert tuple(vmap(net)(tapegrad.ones(2, 5, 3)).shape) == (2, 5, 4)


def test_ensemble_updates_its_stacked_running_stats():
    models = [_batch_norm_net() for _ in range(3)]
    params, buffers = stack_module_state(models)
    x = tapegrad.linspace(-1, 1, 15).view(5, 3)
    out = vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)),
               in_dims=(0, 0, None))(params, buffers, x)
    loop = tapegrad.stack([model(x) for model in models])
    assert tapegrad.allclose(out, loop, atol=1e-6)
    assert buffers["1.num_batches_tracked"].tolist() == [1, 1, 1]
    for i, model in enumerate(models):
        assert tapegrad.allclose(buffers["1.running_mean"][i], model[1].running_mean)


def test_batch_norm_without_running_stats_or_outside_vmap_is_fine():
    bn = nn.BatchNorm1d(2, track_running_stats=False)
    assert tuple(vmap(bn)(tapegrad.ones(3, 4, 2)).shape) == (3, 4, 2)
    nn.BatchNorm1d(2)(tapegrad.arange(8.0).view(4, 2))  # no vmap running: updates as usual


def test_batch_norm_under_vmap_same_as_torch():
    torch = pytest.importorskip("torch")

    def case(lib):
        bn = lib.nn.BatchNorm1d(3)
        return lib.func.vmap(bn)(lib.arange(24.0).view(2, 4, 3))

    assert_same(case, torch)


# ------------------------------------------------------------------------- complex refusals

def test_jacobians_refuse_complex_inputs_and_outputs():
    real, cplx = tapegrad.tensor([1.0, 2.0]), tapegrad.tensor([1j, 2j])
    with pytest.raises(RuntimeError, match="jacrev: Expected all inputs to be real but received "
                                           "complex tensor at flattened input idx: 1"):
        jacrev(lambda x, y: x * y.abs())(real, cplx)  # also arguments not differentiated
    with pytest.raises(RuntimeError, match="jacfwd: Expected all outputs to be real"):
        jacfwd(lambda x: x * (1 + 1j))(real)
    jacobian, aux = jacrev(lambda x: (x * 2, x * 1j), has_aux=True)(real)  # aux may be complex
    assert jacobian.tolist() == [[2, 0], [0, 2]] and aux.is_complex()


def test_grad_refuses_complex_scalar_output():
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for real scalar "
                                           "outputs but got torch.complex64"):
        grad(lambda x: (x * 2j).sum())(tapegrad.tensor([1.0]))
    assert grad(lambda x: (x * 2).sum().real)(tapegrad.tensor([1 + 2j])).tolist() == [2 + 0j]


def test_complex_refusals_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: lib.func.jacrev(lambda x: (x, x * 1j))(lib.tensor([1.0, 2.0])), torch)
    assert_same(lambda lib: lib.func.jacfwd(lambda x: x.abs())(lib.tensor([1 + 2j])), torch)
    assert_same(lambda lib: lib.func.hessian(lambda x: x.abs().sum())(lib.tensor([1 + 2j])),
                torch)
    assert_same(lambda lib: lib.func.grad_and_value(lambda x: (x * 2).sum())(
        lib.tensor([1 + 2j])), torch)


# --------------------------------------------------------------- named results as pytrees

def test_vmap_stacks_return_types_field_by_field():
    scores = tapegrad.tensor([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]])
    result = vmap(lambda s: s.topk(2))(scores)
    assert type(result).__name__ == "topk"
    assert result.values.tolist() == [[3, 2], [5, 0]]
    assert result.indices.tolist() == [[0, 2], [2, 0]]
    leaves, spec = tapegrad.utils._pytree.tree_flatten(result)
    assert len(leaves) == 2 and repr(spec).startswith("TreeSpec(topk, None, [")


def test_return_types_pytree_same_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: tuple(lib.func.vmap(lambda s: s.max(dim=0))(
        lib.tensor([[3.0, 1.0], [0.0, 5.0]]))), torch)
