"""Optimizers with sparse gradients (``nn.Embedding(sparse=True)``): SGD and Adagrad take them,
moving only the stored rows; the other optimizers refuse them with PyTorch's messages."""
import inspect

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same


def embedding_run(T, make_optimizer, sparse, steps=4):
    """Train a small embedding on a fixed batch (a repeated index included); its weights."""
    emb = T.nn.Embedding(6, 3, sparse=sparse)
    with T.no_grad():
        emb.weight.copy_(T.cos(T.arange(18.0)).reshape(6, 3))
    opt = make_optimizer(emb.parameters())
    index = T.tensor([1, 4, 1, 2])
    scale = T.tensor([1.0, -2.0, 0.5])
    for _ in range(steps):
        opt.zero_grad()
        (emb(index) * scale).pow(2).sum().backward()
        opt.step()
    return emb.weight.detach()


SPARSE_CAPABLE = {
    "sgd": lambda T: lambda ps: T.optim.SGD(ps, lr=0.05),
    "sgd_momentum": lambda T: lambda ps: T.optim.SGD(ps, lr=0.05, momentum=0.9, dampening=0.1),
    "sgd_nesterov_max": lambda T: lambda ps: T.optim.SGD(ps, lr=0.05, momentum=0.5, nesterov=True,
                                                         maximize=True),
    "adagrad": lambda T: lambda ps: T.optim.Adagrad(ps, lr=0.3),
    "adagrad_decay": lambda T: lambda ps: T.optim.Adagrad(ps, lr=0.3, lr_decay=0.2,
                                                          initial_accumulator_value=0.5),
}


@pytest.mark.parametrize("name", sorted(SPARSE_CAPABLE))
def test_sparse_gradients_match_dense_ones(name):
    """Rows without a gradient stay put in both, so sparse and dense training agree."""
    make = SPARSE_CAPABLE[name](tapegrad)
    sparse = embedding_run(tapegrad, make, sparse=True)
    dense = embedding_run(tapegrad, make, sparse=False)
    np.testing.assert_allclose(sparse.numpy(), dense.numpy(), rtol=1e-5, atol=1e-6)
    untouched = [0, 3, 5]
    start = np.cos(np.arange(18.0)).reshape(6, 3)[untouched]
    np.testing.assert_allclose(sparse.numpy()[untouched], start, rtol=1e-6)


def test_sgd_momentum_buffer_stays_sparse():
    emb = tapegrad.nn.Embedding(4, 2, sparse=True)
    opt = tapegrad.optim.SGD(emb.parameters(), lr=0.1, momentum=0.9)
    for _ in range(2):
        opt.zero_grad()
        emb(tapegrad.tensor([0, 2])).sum().backward()
        opt.step()
    assert opt.state[emb.weight]["momentum_buffer"].is_sparse


REFUSING = ["Adam", "AdamW", "NAdam", "RAdam", "Adamax", "Adadelta", "RMSprop", "Rprop", "ASGD"]


@pytest.mark.parametrize("name", REFUSING)
def test_refusal_of_sparse_gradients_as_torch(name):
    torch = pytest.importorskip("torch")
    assert_same(lambda T: embedding_run(T, getattr(T.optim, name), sparse=True), torch)


def test_refusal_happens_before_any_update():
    dense = tapegrad.nn.Parameter(tapegrad.ones(2))
    emb = tapegrad.nn.Embedding(3, 2, sparse=True)
    opt = tapegrad.optim.RMSprop([dense, emb.weight])
    dense.grad = tapegrad.ones(2)
    emb(tapegrad.tensor([1])).sum().backward()
    with pytest.raises(RuntimeError, match="RMSprop does not support sparse gradients"):
        opt.step()
    assert dense.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("name", sorted(SPARSE_CAPABLE))
def test_sparse_training_as_torch(name):
    torch = pytest.importorskip("torch")
    assert_same(lambda T: embedding_run(T, SPARSE_CAPABLE[name](T), sparse=True), torch)


def test_adagrad_sparse_weight_decay_error_as_torch():
    torch = pytest.importorskip("torch")
    assert_same(lambda T: embedding_run(
        T, lambda ps: T.optim.Adagrad(ps, weight_decay=0.1), sparse=True), torch)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_bad_step_pre_hook_names_the_class_step(name):
    """The hook error names the optimizer's own ``step`` (``<function SGD.step at ...>``),
    where the base class's rule is the implementation."""
    opt = getattr(tapegrad.optim, name)([tapegrad.nn.Parameter(tapegrad.ones(1))], lr=0.1)
    opt.register_step_pre_hook(lambda *_: 5)
    with pytest.raises(RuntimeError, match=r"<function \w+\.step at .* must return None"):
        opt.step()
    # the step patched onto a class keeps its implementation's name, as PyTorch's does (AdamW's
    # is Adam.step), whichever optimizer patched its class first in this process
    implementation = inspect.unwrap(type(opt).step)
    owner = next(c for c in reversed(type(opt).__mro__)
                 if "step" in c.__dict__ and inspect.unwrap(c.__dict__["step"]) is implementation)
    assert type(opt).step.__qualname__ == f"{owner.__name__}.step"


def one_differentiable_step(T, cls, kwargs, p, grad, state):
    """PyTorch's differentiable-optimizer pattern: a non-leaf copy of ``p`` updated in place."""
    p = p.clone()
    p.grad = grad
    opt = getattr(T.optim, cls)([p], differentiable=True, **kwargs)
    opt.state[p].update({k: v.clone() for k, v in state.items()})
    opt.step()
    return (p,) + tuple(v for v in opt.state[p].values() if v.requires_grad)


def float64_inputs(T, state_spec):
    """``p``, ``grad`` and state tensors (float64, requiring grad; ``step`` a plain count)."""
    def ramp(offset, positive=False):
        t = T.linspace(-1, 1, 4, dtype=T.float64) + offset
        return (t.abs() + 0.5 if positive else t).requires_grad_()
    state = {k: (T.tensor(4.0, dtype=T.float64) if spec == "step" else ramp(*spec))
             for k, spec in state_spec.items()}
    return ramp(0.0), ramp(-0.4), state


DIFFERENTIABLE = {
    "SGD": (dict(lr=0.5, momentum=0.9, dampening=0.1), {"momentum_buffer": (0.3,)}),
    "Adam": (dict(lr=0.2, amsgrad=True), {"step": "step", "exp_avg": (0.3,),
                                          "exp_avg_sq": (0.3, True), "max_exp_avg_sq": (0.1, True)}),
    "AdamW": (dict(lr=0.2), {"step": "step", "exp_avg": (0.3,), "exp_avg_sq": (0.3, True)}),
    "RMSprop": (dict(lr=0.1, centered=True, momentum=0.5),
                {"step": "step", "square_avg": (3.0, True), "momentum_buffer": (0.3,),
                 "grad_avg": (-0.2,)}),
    "Adagrad": (dict(lr=0.1), {"step": "step", "sum": (0.3, True)}),
    "Adamax": (dict(lr=0.1), {"step": "step", "exp_avg": (0.3,), "exp_inf": (0.3, True)}),
}


@pytest.mark.parametrize("cls", sorted(DIFFERENTIABLE))
def test_differentiable_step_gradcheck(cls):
    """differentiable=True records the step: its derivatives match finite differences."""
    from tapegrad.autograd import gradcheck
    kwargs, spec = DIFFERENTIABLE[cls]
    p, grad, state = float64_inputs(tapegrad, spec)
    names = list(state)

    def step(p, grad, *values):
        return one_differentiable_step(tapegrad, cls, kwargs, p, grad, dict(zip(names, values)))
    assert gradcheck(step, (p, grad, *state.values()))


@pytest.mark.parametrize("cls", sorted(DIFFERENTIABLE))
def test_differentiable_step_as_torch(cls):
    torch = pytest.importorskip("torch")
    kwargs, spec = DIFFERENTIABLE[cls]

    def case(T):
        p, grad, state = float64_inputs(T, spec)
        outs = one_differentiable_step(T, cls, kwargs, p, grad, state)
        inputs = (p, grad) + tuple(v for v in state.values() if v.requires_grad)
        return outs + T.autograd.grad(sum(o.sum() for o in outs), inputs, allow_unused=True)
    assert_same(case, torch)


def test_learned_learning_rate_as_torch():
    """A tensor lr requiring grad: the validation loss after the step has a gradient for it."""
    torch = pytest.importorskip("torch")

    def case(T):
        w = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
        lr = T.tensor(0.1, requires_grad=True)
        p = w.clone()
        p.grad = (2 * w).detach().requires_grad_()
        T.optim.SGD([p], lr=lr, differentiable=True).step()
        return (p,) + T.autograd.grad((p * p).sum(), [lr, w])
    assert_same(case, torch)


def test_differentiable_step_on_a_leaf_is_refused_as_torch():
    torch = pytest.importorskip("torch")

    def case(T):
        leaf = T.nn.Parameter(T.ones(2))
        leaf.grad = T.ones(2)
        T.optim.SGD([leaf], lr=0.1, differentiable=True).step()
    assert_same(case, torch)
