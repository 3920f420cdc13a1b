"""The engine at scale and its memory: deep graphs, when saved arrays are released, hook order,
and ``.grad`` tensors that never share memory.

Memory is checked with weak references to the numpy arrays a graph saves (numpy arrays support
them): an array is released exactly when its weak reference dies. The garbage collector is
switched off in those tests, so a release must come from reference counting alone: a reference
cycle in the graph would keep the arrays alive and fail the test.
"""
import gc
import sys
import weakref

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.autograd import Function

# PyTorch's once-per-process warning about create_graph (test_autograd checks it).
pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")

CHAIN = 100_000


@pytest.fixture
def no_gc():
    enabled = gc.isenabled()
    gc.disable()
    yield
    if enabled:
        gc.enable()


def test_backward_through_a_chain_of_100000_operations():
    assert CHAIN > 10 * sys.getrecursionlimit()  # recursion anywhere would overflow
    x = tg.tensor(1.0, dtype=tg.float64, requires_grad=True)
    y = x
    for _ in range(CHAIN):
        y = y * 1.00001
    y.backward()
    assert x.grad.item() == pytest.approx(1.00001 ** CHAIN, rel=1e-9)  # about e


def test_grad_through_a_deep_chain_and_dropping_it():
    x = tg.tensor([0.5], dtype=tg.float64, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y + x * 1e-4
    (g,) = tg.autograd.grad(y.sum(), x)
    assert g.item() == pytest.approx(1 + 20_000 * 1e-4)
    del y  # freeing 20,000 nested nodes must not overflow the C stack either


def _saving_graph():
    """A loss whose graph saves two arrays: one the caller's (an input), one made inside (tanh's
    output). Returns the loss and weak references to both arrays, holding no other reference."""
    data = np.linspace(-1.0, 1.0, 1000).astype(np.float32)
    w = tg.tensor(0.5, requires_grad=True)
    hidden = (w * tg.from_numpy(data)).tanh()  # Mul saves the input, Tanh its output
    refs = weakref.ref(data), weakref.ref(hidden.detach().numpy())
    return hidden.sum(), refs


def _alive(refs):
    return [ref() is not None for ref in refs]


def test_dropping_the_last_reference_releases_the_graph(no_gc):
    loss, refs = _saving_graph()
    assert _alive(refs) == [True, True]
    del loss
    assert _alive(refs) == [False, False]


def test_backward_releases_saved_arrays_while_the_loss_lives(no_gc):
    loss, refs = _saving_graph()
    loss.backward()
    assert _alive(refs) == [False, False]
    assert loss.grad_fn is not None  # the graph's nodes remain, without their saved arrays


def test_retain_graph_keeps_saved_arrays_until_the_graph_goes(no_gc):
    loss, refs = _saving_graph()
    loss.backward(retain_graph=True)
    assert _alive(refs) == [True, True]
    del loss
    assert _alive(refs) == [False, False]


def test_a_function_that_saves_its_output_makes_no_cycle(no_gc):
    class Exp(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    y = Exp.apply(tg.tensor([0.1, 0.2], requires_grad=True))
    ref = weakref.ref(y.detach().numpy())
    loss = y.sum()
    del y
    assert ref() is not None
    del loss
    assert ref() is None


def _training(running_loss_update, steps=5):
    refs = []
    running_loss = 0.0
    for _ in range(steps):
        loss, step_refs = _saving_graph()
        refs.extend(step_refs)
        running_loss = running_loss_update(running_loss, loss)
    return running_loss, refs


def test_running_loss_tensor_keeps_every_iterations_graph_alive(no_gc):
    running_loss, refs = _training(lambda total, loss: total + loss)
    assert all(_alive(refs))
    assert running_loss.grad_fn is not None
    del running_loss
    assert not any(_alive(refs))


def test_running_loss_item_keeps_no_graph(no_gc):
    running_loss, refs = _training(lambda total, loss: total + loss.item())
    assert isinstance(running_loss, float)
    assert not any(_alive(refs))


def test_augmented_running_loss_behaves_the_same(no_gc):
    """The tutorial's spelling, ``running_loss += loss``, with a tensor and with ``.item()``."""
    kept, released = [], []
    tensor_total, float_total = 0.0, 0.0
    for _ in range(3):
        loss, refs = _saving_graph()
        kept.extend(refs)
        tensor_total += loss
        loss, refs = _saving_graph()
        released.extend(refs)
        float_total += loss.item()
        del loss
    assert all(_alive(kept)) and not any(_alive(released))


def test_hooks_run_in_pytorchs_order():
    order = []
    x = tg.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2, x * 3
    a.register_hook(lambda g: order.append("a"))
    b.register_hook(lambda g: order.append("b"))
    x.register_hook(lambda g: order.append("x"))
    (a + b).sum().backward()
    assert order == ["b", "a", "x"]  # newest node first; the leaf once both have arrived


def test_hook_order_matches_torch():
    torch = pytest.importorskip("torch")

    def order_of(lib):
        order = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        a = x * 2
        b = a.exp()
        c = x.sin() + a
        for name, t in (("x", x), ("a", a), ("b", b), ("c", c)):
            t.register_hook(lambda g, name=name: order.append(name))
        (b.sum() * c.sum()).backward()
        return order

    assert order_of(tg) == order_of(torch)


@pytest.mark.parametrize("combine", [
    lambda a, b: (a + b).sum().backward(),
    lambda a, b: (a + b).backward(tg.ones(3)),
    lambda a, b: (a * 1 + b * 1).sum().backward(),
    lambda a, b: (a + b).sum().backward(create_graph=True),
], ids=["sum", "gradient-argument", "two-products", "create_graph"])
def test_two_leaves_grads_never_share_memory(combine):
    a = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = tg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    combine(a, b)
    assert not np.shares_memory(a.grad.detach().numpy(), b.grad.detach().numpy())
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.detach().numpy(), [1.0, 1.0, 1.0])


def test_grad_never_aliases_the_callers_gradient_or_a_hooks_result():
    given = tg.ones(3)
    from_hook = tg.full((3,), 2.0)
    a = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b.register_hook(lambda g: from_hook)
    for _ in range(2):  # the second pass accumulates in place into .grad
        a.backward(given)
        (b * 1).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(b.grad.numpy(), [4.0, 4.0, 4.0])
    np.testing.assert_array_equal(given.numpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(from_hook.numpy(), [2.0, 2.0, 2.0])
