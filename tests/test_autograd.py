"""The autograd engine's behaviour: the tape, backward, hooks, grad modes, autograd.grad, Function.

Expectations come from analytic derivatives and literal PyTorch behaviour; where PyTorch is
installed, the same program is also run with it and the results (values, error types and messages)
must agree. ``torch`` here is always real PyTorch; tapegrad is ``tg``.
"""
import re
import threading
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.autograd import Function, gradcheck, gradgradcheck
from tapegrad.autograd.gradcheck import GradcheckError

# PyTorch's once-per-process warning (test_create_graph_backward_warns_... checks it is given).
pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")
HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True, check_nan=False).")
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information.")


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def grad_mode_left_on():
    """A test that leaves recording off would silently change every later test: restore, fail."""
    yield
    leaked = not tg.is_grad_enabled() or tg.is_inference_mode_enabled()
    tg.autograd.grad_mode._state.grad_enabled, tg.autograd.grad_mode._state.inference = True, False
    assert not leaked, "the test left grad mode switched off"


def _outcome(program, lib):
    """What ``program(lib)`` gives: ("value", numbers) or ("error", type name, message)."""
    try:
        result = program(lib)
    except Exception as exc:  # the outcome under comparison
        return "error", type(exc).__name__, str(exc)
    return "value", _numbers(result)


def _numbers(result):
    if isinstance(result, (tuple, list)):
        return [_numbers(r) for r in result]
    if result is None or isinstance(result, (bool, int, float, str)):
        return result
    return np.asarray(result.detach()).tolist()


def _same_as_torch(program, torch):
    ours, theirs = _outcome(program, tg), _outcome(program, torch)
    assert ours == theirs
    return ours


def _warnings_of(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def _leaf(values, dtype=None):
    return tg.tensor(values, dtype=dtype, requires_grad=True)


def _close(tensor, expected):
    np.testing.assert_allclose(tensor.detach().numpy(), expected, rtol=1e-6, atol=1e-12)


# -- requires_grad, leaves, grad_fn ----------------------------------------------------------------

def test_leaf_and_result_flags():
    x = _leaf([1.0, 2.0])
    y = x * 2
    assert (x.is_leaf, x.requires_grad, x.grad_fn) == (True, True, None)
    assert (y.is_leaf, y.requires_grad, y.grad_fn.name()) == (False, True, "MulBackward0")
    c = tg.tensor([1.0, 2.0])
    assert (c.is_leaf, c.requires_grad, (c * 2).requires_grad, (c * 2).is_leaf) == (
        True, False, False, True)


def test_requires_grad_underscore_and_setter():
    x = tg.tensor([1.0, 2.0])
    assert x.requires_grad_() is x and x.requires_grad
    x.requires_grad_(False)
    assert not x.requires_grad
    x.requires_grad = True
    assert x.requires_grad and (x * 2).requires_grad


def test_requires_grad_of_a_non_leaf_cannot_be_switched_off():
    y = _leaf([1.0]) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf "):
        y.requires_grad_(False)
    assert y.requires_grad and y.grad_fn is not None


def test_integer_tensors_cannot_require_grad():
    n = tg.tensor([1, 2, 3])
    with pytest.raises(RuntimeError) as error:
        n.requires_grad_()
    assert str(error.value) == "only Tensors of floating point dtype can require gradients"
    assert not n.requires_grad
    with pytest.raises(RuntimeError, match="floating point"):
        tg.tensor([1, 2], requires_grad=True)


def test_integer_requires_grad_message_matches_torch(torch):
    _same_as_torch(lambda lib: lib.tensor([1, 2]).requires_grad_(), torch)


# -- next_functions --------------------------------------------------------------------------------

def test_leaves_get_accumulate_grad_and_constants_none():
    x, w = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    y = x * w + 1
    add = y.grad_fn
    assert add.next_functions[1] == (None, 0)
    mul, nr = add.next_functions[0]
    assert (mul.name(), nr) == ("MulBackward0", 0)
    (acc_x, nr_x), (acc_w, nr_w) = mul.next_functions
    assert type(acc_x).__name__ == "AccumulateGrad" and (nr_x, nr_w) == (0, 0)
    assert acc_x.variable is x and acc_w.variable is w and acc_x.next_functions == ()
    assert (x * tg.tensor([1.0, 1.0])).grad_fn.next_functions[1] == (None, 0)


def test_one_accumulate_grad_per_leaf_while_the_graph_lives():
    x = _leaf([1.0])
    a, b = x * 2, x + 1
    assert a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]


def test_graph_structure_matches_torch(torch):
    def structure(lib):
        x = lib.tensor([0.5, -1.0], requires_grad=True)
        w = lib.tensor([2.0, 3.0], requires_grad=True)
        loss = ((x * w + 1).tanh() ** 2).sum() - x.exp().mean()
        names, stack = [], [loss.grad_fn]
        while stack:
            node = stack.pop()
            names.append(node.name())
            edges = [(None if n is None else n.name(), nr) for n, nr in node.next_functions]
            names.append(edges)
            stack.extend(n for n, _ in node.next_functions if n is not None)
        return names

    _same_as_torch(structure, torch)


# -- backward --------------------------------------------------------------------------------------

def test_backward_with_gradient_argument():
    x = _leaf([1.0, 2.0, 3.0])
    (x * x).backward(gradient=tg.tensor([1.0, 0.0, 2.0]))
    _close(x.grad, [2.0, 0.0, 12.0])


def test_gradients_accumulate_into_grad():
    x = _leaf([1.0, 2.0])
    for step in range(1, 4):
        (x * 3).sum().backward()
        _close(x.grad, [3.0 * step] * 2)
    x.grad.zero_()
    (x * 3).sum().backward()
    _close(x.grad, [3.0, 3.0])


def test_second_backward_raises_pytorchs_message():
    x = _leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as error:
        y.backward()
    assert str(error.value) == FREED
    _close(x.grad, [2.0, 4.0])  # the failed call added nothing


def test_freed_graph_message_matches_torch(torch):
    def twice(lib):
        y = (lib.tensor([1.0, 2.0], requires_grad=True) ** 2).sum()
        y.backward()
        y.backward()

    assert _same_as_torch(twice, torch)[0] == "error"


def test_retain_graph_allows_a_second_backward_that_accumulates():
    x = _leaf(3.0)
    z = x * x
    z.backward(retain_graph=True)
    z.backward()
    _close(x.grad, 12.0)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()


def test_create_graph_makes_grad_differentiable():
    x = _leaf(2.0, dtype=tg.float64)
    (x ** 3).backward(create_graph=True)
    first = x.grad
    assert first.requires_grad
    _close(first, 12.0)  # 3 x^2
    x.grad = None
    first.backward()
    _close(x.grad, 12.0)  # 6 x


def test_create_graph_grad_structure_matches_torch(torch):
    def program(lib):
        x = lib.tensor(2.0, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the reference-cycle warning, checked below
            (x ** 3).backward(create_graph=True)
            node = x.grad.grad_fn
            first = (type(node).__name__, [(n and type(n).__name__, nr)
                                           for n, nr in node.next_functions])
            (x ** 3).backward(create_graph=True)
        return x.grad, first, x.grad.grad_fn.name()

    assert _same_as_torch(program, torch) == (
        "value", [24.0, ["CopyBackwards", [[None, 0], ["MulBackward0", 0]]], "AddBackward0"])


def test_create_graph_backward_warns_of_the_reference_cycle_once():
    tg.autograd.engine._create_graph_warned = False
    x = _leaf(2.0)
    messages = _warnings_of(lambda: [(x ** 3).backward(create_graph=True) for _ in range(2)])
    assert len(messages) == 1
    assert messages[0].startswith("Using backward() with create_graph=True will create a reference "
                                  "cycle between the parameter and its gradient")


def test_create_graph_grads_of_two_leaves_do_not_share_memory():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    (a + b).sum().backward(create_graph=True)
    a.grad.zero_()
    _close(b.grad, [1.0, 1.0])


def test_backward_inputs_accumulates_only_into_those():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    (a * b).sum().backward(inputs=[a])
    _close(a.grad, [3.0, 4.0])
    assert b.grad is None


def test_backward_inputs_may_name_a_non_leaf(torch):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = x * 2
        (c * c).sum().backward(inputs=[c])
        return c.grad, c.retains_grad, x.grad

    assert _same_as_torch(program, torch) == ("value", [[4.0, 8.0], True, None])


def test_backward_inputs_must_not_be_empty():
    x = _leaf([1.0])
    with pytest.raises(RuntimeError, match="`inputs` argument to `backward\\(\\)` cannot be empty"):
        (x * 2).sum().backward(inputs=[])


def test_autograd_backward_of_several_outputs():
    x = _leaf([1.0, 2.0])
    tg.autograd.backward([(x * x).sum(), x * 3], [None, tg.tensor([1.0, -1.0])])
    _close(x.grad, [2.0 + 3.0, 4.0 - 3.0])


def test_a_branch_that_returns_no_gradient_does_not_block_the_rest():
    class Blocked(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, grad):
            return None

    x = _leaf([1.0, 2.0])
    loss = Blocked.apply(x * 2).sum() + (x * 3).sum()
    loss.backward()
    _close(x.grad, [3.0, 3.0])


# -- bad input: a clear error, nothing changed -----------------------------------------------------

def _prepared():
    """A leaf with a gradient already stored and a live graph built from it."""
    x = _leaf([1.0, 2.0])
    (x * 5).sum().backward()
    return x, x * x


BAD_CALLS = {
    "non-scalar output without gradient": (
        lambda x, y: y.backward(), RuntimeError,
        "grad can be implicitly created only for scalar outputs"),
    "output that needs no grad": (
        lambda x, y: (y.detach() * 2).sum().backward(), RuntimeError,
        "element 0 of tensors does not require grad and does not have a grad_fn"),
    "gradient of the wrong shape": (
        lambda x, y: y.backward(tg.ones(2, 1)), RuntimeError,
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([2, 1]) and output[0] has a "
        "shape of torch.Size([2])."),
    "gradient that is not a tensor": (
        lambda x, y: tg.autograd.backward([y], [[1.0, 1.0]]), TypeError,
        "gradients can be either Tensors or None, but got list"),
    "fewer gradients than outputs": (
        lambda x, y: tg.autograd.backward([y, y.sum()], [tg.ones(2)]), RuntimeError,
        "got 2 tensors and 1 gradients"),
}


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_bad_backward_call_raises_and_changes_nothing(case):
    call, error_type, message = BAD_CALLS[case]
    x, y = _prepared()
    with pytest.raises(error_type) as error:
        call(x, y)
    assert str(error.value) == message
    _close(x.grad, [5.0, 5.0])
    y.sum().backward()  # the graph is still whole
    _close(x.grad, [7.0, 9.0])


@pytest.mark.parametrize("program", [
    lambda lib: (lib.tensor([1.0, 2.0], requires_grad=True) * 2).backward(),
    lambda lib: (lib.tensor([1.0, 2.0]) * 2).sum().backward(),
    lambda lib: (lib.tensor([1.0, 2.0], requires_grad=True) * 2).backward(lib.ones(2, 1)),
    lambda lib: lib.autograd.grad((lib.tensor([1.0], requires_grad=True) * 2).sum(),
                                  lib.tensor([1.0])),
    lambda lib: lib.autograd.grad((lib.tensor([1.0], requires_grad=True) * 2).sum(),
                                  [lib.tensor([1.0], requires_grad=True)]),
    lambda lib: lib.autograd.grad(lib.tensor([1.0], requires_grad=True).sum(), []),
    lambda lib: lib.autograd.backward([lib.tensor([1.0], requires_grad=True) * 2], [[1.0]]),
    lambda lib: lib.autograd.backward([lib.tensor([1.0], requires_grad=True) * 2] * 2,
                                      [lib.ones(1)]),
], ids=["non-scalar", "no-grad", "shape", "grad-input-no-grad", "unused", "grad-no-inputs",
        "gradient-type", "gradient-count"])
def test_bad_input_messages_match_torch(program, torch):
    assert _same_as_torch(program, torch)[0] == "error"


# -- retain_grad and the non-leaf .grad warning ----------------------------------------------------

def test_retain_grad_keeps_a_non_leaf_gradient():
    x = _leaf([1.0, 2.0])
    mid = x * 2
    mid.retain_grad()
    loss = (mid * mid).sum()
    loss.backward(retain_graph=True)
    assert mid.retains_grad and not x.retains_grad
    assert _warnings_of(lambda: mid.grad) == []
    _close(mid.grad, [4.0, 8.0])
    loss.backward()
    _close(mid.grad, [8.0, 16.0])


def test_retain_grad_on_a_leaf_is_a_no_op_and_needs_requires_grad():
    x = _leaf([1.0])
    x.retain_grad()
    assert not x.retains_grad
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad="):
        tg.tensor([1.0]).retain_grad()


def test_reading_grad_of_a_non_leaf_warns_with_pytorchs_text():
    x = _leaf([3.0])
    mid = x * 2
    mid.sum().backward()
    assert _warnings_of(lambda: mid.grad) == [NON_LEAF_GRAD]
    assert _warnings_of(lambda: x.grad) == []
    mid.grad = tg.ones(1)
    assert _warnings_of(lambda: mid.grad) == []  # PyTorch warns only while there is nothing there


def test_non_leaf_grad_warning_matches_torch(torch):
    mid = torch.tensor([3.0], requires_grad=True) * 2
    (theirs,) = _warnings_of(lambda: mid.grad)
    assert theirs.split(" (Triggered internally")[0] == NON_LEAF_GRAD


# -- hooks -----------------------------------------------------------------------------------------

def test_leaf_hook_changes_the_stored_gradient_until_removed():
    x = _leaf([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    (x * 2).sum().backward()
    _close(x.grad, [20.0, 20.0])
    handle.remove()
    (x * 2).sum().backward()
    _close(x.grad, [22.0, 22.0])
    assert seen == [[2.0, 2.0]]


def test_non_leaf_hook_changes_the_gradient_flowing_on():
    x = _leaf([1.0, 2.0])
    mid = x * 3
    handle = mid.register_hook(lambda g: g + 1)
    mid.sum().backward(retain_graph=True)
    _close(x.grad, [6.0, 6.0])  # (1 + 1) * 3
    handle.remove()
    x.grad = None
    mid.sum().backward()
    _close(x.grad, [3.0, 3.0])


def test_hooks_on_one_tensor_chain_in_registration_order():
    x = _leaf([1.0])
    x.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: g + 1)
    (x * 1).sum().backward()
    _close(x.grad, [3.0])


def test_register_hook_needs_requires_grad():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't"):
        tg.tensor([1.0]).register_hook(lambda g: g)


def test_node_hook_sees_input_and_output_gradients_and_may_replace_them():
    x = _leaf([1.0, 2.0])
    y = x * tg.tensor([5.0, 7.0])
    calls = []
    handle = y.grad_fn.register_hook(
        lambda grad_inputs, grad_outputs: calls.append((grad_inputs, grad_outputs)))
    y.sum().backward(retain_graph=True)
    ((grad_x, grad_const),), ((grad_y,),) = [c[0] for c in calls], [c[1] for c in calls]
    _close(grad_x, [5.0, 7.0])
    assert grad_const is None
    _close(grad_y, [1.0, 1.0])
    handle.remove()
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 0, None))
    y.sum().backward()
    assert len(calls) == 1
    _close(x.grad, [5.0, 7.0])  # the second pass added zeros


def test_node_prehook_may_replace_the_incoming_gradient():
    x = _leaf([1.0, 2.0])
    y = x * 2
    handle = y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 100,))
    y.sum().backward(retain_graph=True)
    _close(x.grad, [200.0, 200.0])
    handle.remove()
    x.grad = None
    y.sum().backward()
    _close(x.grad, [2.0, 2.0])


def test_accumulate_grad_node_hooks():
    x = _leaf([1.0, 2.0])
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    calls = []
    acc.register_prehook(lambda grad_outputs: calls.append(("pre", grad_outputs[0].tolist())))
    acc.register_hook(lambda grad_inputs, grad_outputs: calls.append(
        ("post", grad_inputs, grad_outputs[0].tolist())))
    y.sum().backward()
    assert calls == [("pre", [2.0, 2.0]), ("post", (), [2.0, 2.0])]


def test_hook_order_against_retain_grad_and_prehooks_matches_torch(torch):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = x * 2
        c.retain_grad()
        c.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 100,))
        c.register_hook(lambda g: g * 10)
        (c * 1).sum().backward()
        return c.grad, x.grad

    assert _same_as_torch(program, torch) == ("value", [[10.0, 10.0], [2000.0, 2000.0]])


def test_nodes_show_what_they_saved_under_torchs_names(torch):
    def program(lib):
        p = lib.tensor([1.0, 2.0], requires_grad=True)
        square, exp, product, total = p.pow(2), p.exp(), p * p, p.sum(0)
        return (square.grad_fn._saved_self is p, square.grad_fn._saved_exponent,
                [round(v, 4) for v in exp.grad_fn._saved_result.tolist()],
                exp.grad_fn._saved_result.grad_fn is exp.grad_fn,
                product.grad_fn._saved_other is p, total.grad_fn._saved_dim,
                tuple(total.grad_fn._saved_self_sym_sizes), hasattr(product.grad_fn, "_saved_x"))

    assert _same_as_torch(program, torch)[1] == [True, 2, [2.7183, 7.3891],
                                                 True, True, [0], [2], False]


def test_saved_tensors_are_gone_after_backward():
    p = _leaf([1.0, 2.0])
    product = p * p
    product.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        product.grad_fn._saved_self


def test_saved_tensors_hooks_pack_and_unpack_what_the_graph_keeps_as_torch(torch):
    def program(lib):
        shapes = []

        def pack(tensor):
            shapes.append(list(tensor.shape))
            return ("stored", tensor.detach().clone())

        a = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack, lambda packed: packed[1]):
            b = a.clone()
            y = (b * b).exp()            # saves b twice, then exp's result
            z = _torch_twin(Exp, lib).apply(a)  # a custom Function's saved output
        with lib.no_grad():
            b.add_(1)                    # the hooks hold copies: no in-place error
        (y.sum() + z.sum()).backward()
        return shapes, [round(v, 3) for v in a.grad.tolist()]

    assert _same_as_torch(program, torch) == ("value", [[[2], [2], [2], [2]], [8.155, 225.782]])


def test_an_unpack_hook_must_give_back_a_tensor_and_hooks_can_be_disabled(torch):
    def bad_unpack(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda packed: 5):
            y = a * a
        y.sum().backward()

    def disabled(lib):
        with lib.autograd.graph.disable_saved_tensors_hooks("not here"):
            with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass

    assert _same_as_torch(bad_unpack, torch) == (
        "error", "TypeError",
        "Output of saved tensor unpack_hook expected to be a Tensor but got result of type int")
    assert _same_as_torch(disabled, torch) == ("error", "RuntimeError", "not here")


def test_save_on_cpu_keeps_copies():
    a = _leaf([1.0, 2.0])
    with tg.autograd.graph.save_on_cpu():
        b = a * 1
        y = b * b
    with tg.no_grad():
        b.add_(1)
    y.sum().backward()
    _close(a.grad, [2.0, 4.0])


def test_post_accumulate_grad_hooks_run_after_the_grad_is_stored_as_torch(torch):
    def program(lib):
        p = lib.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        handle = p.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
        p.register_hook(lambda g: seen.append(("tensor hook", g.tolist())))
        (p * 3).sum().backward()
        (p * 3).sum().backward()
        lib.autograd.grad((p * 3).sum(), p)  # grad() accumulates nothing: no call
        handle.remove()
        (p * 3).sum().backward()
        return seen

    def optimizer_in_backward(lib):
        p = lib.tensor([1.0, 2.0], requires_grad=True)
        optimizer = lib.optim.SGD([p], lr=0.1)

        def step(tensor):
            optimizer.step()
            optimizer.zero_grad()
        p.register_post_accumulate_grad_hook(step)
        (p * 3).sum().backward()
        return [round(v, 4) for v in p.tolist()], p.grad

    assert _same_as_torch(program, torch)[1] == [
        ["tensor hook", [3.0, 3.0]], [3.0, 3.0], ["tensor hook", [3.0, 3.0]], [6.0, 6.0],
        ["tensor hook", [3.0, 3.0]], ["tensor hook", [3.0, 3.0]]]
    assert _same_as_torch(optimizer_in_backward, torch) == ("value", [[0.7, 1.7], None])


@pytest.mark.parametrize("misuse", ["non-leaf", "no grad", "returns a value"])
def test_post_accumulate_grad_hook_misuse_raises_as_torch(torch, misuse):
    def program(lib):
        p = lib.tensor([1.0, 2.0], requires_grad=misuse != "no grad")
        target = p * 2 if misuse == "non-leaf" else p
        target.register_post_accumulate_grad_hook(lambda t: 5)
        (p * 3).sum().backward()

    assert _same_as_torch(program, torch)[0] == "error"


def test_a_given_gradient_is_cast_to_the_outputs_dtype_as_torch(torch):
    def program(lib):
        w = lib.ones(2, 2, requires_grad=True)
        (w @ lib.ones(2)).backward(lib.ones(2, dtype=lib.float64))
        (w * 2).sum().backward(lib.tensor(1))
        (grad,) = lib.autograd.grad((w * 2).sum(), w, lib.tensor(1.0, dtype=lib.float64))
        return str(w.grad.dtype), w.grad, str(grad.dtype)

    assert _same_as_torch(program, torch) == (
        "value", ["torch.float32", [[3.0, 3.0], [3.0, 3.0]], "torch.float32"])


def _keep_first(grad_inputs, grad_outputs):
    return (grad_inputs[0],)


@pytest.mark.parametrize("attach", [
    lambda lib, x, y: y.register_hook(lambda g: g[:1]),                     # size changed
    lambda lib, x, y: y.register_hook(lambda g: g.double()),                 # dtype changed
    lambda lib, x, y: y.register_hook(lambda g: 3),                          # not a tensor
    lambda lib, x, y: x.register_hook(lambda g: (g, g)),                     # on a leaf
    lambda lib, x, y: y.grad_fn.register_hook(_keep_first),                  # too few
    lambda lib, x, y: y.grad_fn.register_hook(lambda gi, go: gi[0]),         # not a tuple
    lambda lib, x, y: y.grad_fn.register_hook(lambda gi, go: [gi[0], None]),  # a list
    lambda lib, x, y: y.grad_fn.register_hook(lambda gi, go: (gi[0], lib.ones(2))),  # None → value
    lambda lib, x, y: y.grad_fn.register_prehook(lambda go: (go[0], go[0])),
    lambda lib, x, y: y.grad_fn.register_prehook(lambda go: (go[0][:1],)),
])
def test_a_hook_returning_the_wrong_gradients_is_refused_as_torch(torch, attach):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * lib.tensor([3.0, 4.0])
        attach(lib, x, y)
        y.sum().backward()
        return x.grad

    assert _same_as_torch(program, torch)[0] == "error"


# -- version counters and in-place operations ------------------------------------------------------

def test_modifying_a_saved_tensor_makes_backward_raise():
    x = _leaf([1.0, 2.0, 3.0])
    a = x * 2
    b = a * a  # saves a
    a.mul_(3)
    with pytest.raises(RuntimeError) as error:
        b.sum().backward()
    assert str(error.value) == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at version 1; expected "
        "version 0 instead. " + HINT)
    assert x.grad is None


@pytest.mark.parametrize("program", [
    lambda lib: _modify_saved(lib, lambda a: a.mul_(3)),
    lambda lib: _modify_saved(lib, lambda a: a.add_(1)),
    lambda lib: _modify_saved(lib, lambda a: a.detach().add_(1)),
    lambda lib: _modify_saved(lib, lambda a: _under_no_grad(lib, lambda: a[0].mul_(2))),
], ids=["mul_", "add_", "through-detach", "through-view"])
def test_modified_saved_tensor_message_matches_torch(program, torch):
    assert _same_as_torch(program, torch)[0] == "error"


def _under_no_grad(lib, action):
    with lib.no_grad():
        action()


def _modify_saved(lib, modify):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x * 2
    b = a * a
    modify(a)
    b.sum().backward()


@pytest.mark.parametrize("program", [
    lambda lib: _modify_saved_leaf_input(lib),
    lambda lib: _modify_saved_output(lib),
], ids=["saved-input", "saved-output"])
def test_modified_saved_leaf_or_output_message_matches_torch(program, torch):
    assert _same_as_torch(program, torch)[0] == "error"


def _modify_saved_leaf_input(lib):
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    data = lib.tensor([3.0, 4.0])
    y = (w * data).sum()
    data.mul_(2)
    y.backward()


def _modify_saved_output(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    e = x.exp()  # ExpBackward0 saves its output
    e.mul_(2)
    e.sum().backward()


def test_version_counter_is_shared_by_views_and_detached_tensors():
    a = tg.ones(3)
    assert a._version == 0
    a.add_(1)
    assert a._version == 1
    a[0].mul_(2)
    assert a._version == 2
    d = a.detach()
    d.add_(1)
    assert (a._version, d._version) == (3, 3)
    _close(a, [5.0, 3.0, 3.0])


@pytest.mark.parametrize("modify", [
    lambda x: x.add_(1), lambda x: x.mul_(2), lambda x: x.sub_(1), lambda x: x.zero_()],
    ids=["add_", "mul_", "sub_", "zero_"])
def test_in_place_on_a_leaf_that_requires_grad_raises_and_changes_nothing(modify):
    x = _leaf([1.0, 2.0])
    with pytest.raises(RuntimeError) as error:
        modify(x)
    assert str(error.value) == "a leaf Variable that requires grad is being used in an in-place " \
                               "operation."
    _close(x, [1.0, 2.0])
    assert x._version == 0 and x.is_leaf


def test_augmented_assignment_on_a_leaf_raises():
    w = tg.zeros(1, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used"):
        w -= 0.1
    _close(w, [0.0])


def test_in_place_on_a_view_of_a_leaf_raises():
    x = _leaf([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError) as error:
        x[0:2].mul_(2)
    assert str(error.value) == ("a view of a leaf Variable that requires grad is being used in an "
                                "in-place operation.")
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad is being used in an "
                                           "in-place operation"):
        x[0] = 5.0
    _close(x, [1.0, 2.0, 3.0])


def test_in_place_on_a_leaf_is_allowed_under_no_grad():
    w = _leaf([1.0, 2.0])
    with tg.no_grad():
        w.mul_(2)
    assert (w.is_leaf, w.requires_grad, w._version) == (True, True, 1)
    _close(w, [2.0, 4.0])


def _views_made_without_grad(lib):
    """A view of a tensor that requires grad, made under no_grad: requires grad, has no history,
    sends its gradient nowhere, and refuses an in-place write with grad mode on."""
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    with lib.no_grad():
        v, pieces = a[:2], a.split(1)
    with lib.inference_mode():
        q = a[1:]
    seen.append((v.requires_grad, v.is_leaf, v.grad_fn, [p.requires_grad for p in pieces],
                 q.requires_grad, q.is_inference()))
    m = v * 2
    seen.append((m.requires_grad, m.grad_fn.next_functions))
    m.sum().backward()
    seen.append((a.grad, v.grad))
    for attempt in (lambda: v.backward(lib.ones(2)), lambda: v.add_(1), lambda: q.mul_(2),
                    lambda: lib.autograd.grad((v * 2).sum(), a)):
        with pytest.raises(RuntimeError) as error:
            attempt()
        seen.append(str(error.value))
    with lib.no_grad():
        v.add_(1)  # allowed: both inside no_grad
    seen.append(a.tolist())
    return seen


def test_a_view_made_under_no_grad_requires_grad_but_has_no_history(torch):
    ours = _views_made_without_grad(tg)
    assert ours[0] == (True, True, None, [True, True, True], True, False)
    assert ours[1:3] == [(True, ((None, 0), (None, 0))), (None, None)]
    assert "created in no_grad mode" in ours[4] and "created in inference mode" in ours[5]
    assert ours == _views_made_without_grad(torch)


def _view_taken_before_a_write(lib):
    x = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    h = x.clone()
    first, middle = h[0], h[1:3]
    h[1] = 5.0  # middle now reads a value that does not come from x
    names = (first.grad_fn.name(), middle.grad_fn.name())
    (first * 2 + middle.sum()).backward()
    return names, x.grad.tolist()


def test_a_view_taken_before_its_base_was_written_gets_the_new_history(torch):
    ours = _view_taken_before_a_write(tg)
    assert ours == (("AsStridedBackward0", "AsStridedBackward0"), [2.0, 0.0, 1.0, 0.0])
    assert ours == _view_taken_before_a_write(torch)


def _expanded_view_read_after_its_base_was_written(lib):
    """An expanded view, kept across training steps that update its base in place (a
    distribution built once from a broadcast parameter): its regenerated history must add
    the gradients of the elements that share one position."""
    w = lib.zeros(1, requires_grad=True)
    v = w.expand(3)
    target = lib.tensor([0.5, 1.0, -1.0])
    grads = []
    for _ in range(2):
        w.grad = None
        ((v - target) ** 2).sum().backward()
        grads.append(w.grad.tolist())
        with lib.no_grad():
            w -= 0.1 * w.grad
    x = lib.zeros(2, 1, requires_grad=True)
    h = x.clone()
    wide = h.expand(2, 3)
    h.mul_(2)
    (wide * lib.arange(6.0).reshape(2, 3)).sum().backward()
    return grads, x.grad.tolist()


def test_an_expanded_view_of_a_written_base_sums_its_gradient(torch):
    ours = _expanded_view_read_after_its_base_was_written(tg)
    # d/dw sum((w - t)^2) = 2 * sum(w - t) = 2 * (3w - 0.5): -1 at w = 0, then -0.4 at w = 0.1;
    # h = 2x, so x's gradient is twice each row's sum of arange weights
    assert ours == ([[-1.0], [pytest.approx(-0.4)]], [[6.0], [24.0]])
    assert ours[1] == _expanded_view_read_after_its_base_was_written(torch)[1]


def _saved_only_for_the_gradients_asked(lib):
    """``a * b`` needs ``a`` only for ``b``'s gradient: ``a`` may change before backward."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h, constant = x.clone(), lib.tensor([3.0, 4.0])
    products = [h * constant, h / constant, h[None] @ constant[:, None], lib.dot(h, constant)]
    h.add_(1)
    sum(p.sum() for p in products).backward()
    return x.grad.tolist()


def test_an_input_saved_only_for_another_inputs_gradient_is_not_saved(torch):
    ours = _saved_only_for_the_gradients_asked(tg)
    np.testing.assert_allclose(ours, [3 + 1 / 3 + 3 + 3, 4 + 1 / 4 + 4 + 4])
    np.testing.assert_allclose(ours, _saved_only_for_the_gradients_asked(torch))
    h = tg.tensor([1.0, 2.0], requires_grad=True).clone()
    y = h * tg.tensor([3.0, 4.0], requires_grad=True)
    h.add_(1)  # now y's node needs it for the other factor's gradient
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


@pytest.mark.parametrize("method", ["add_", "sub_"])
def test_scaled_in_place_update_equals_the_out_of_place_op_bit_for_bit(method):
    """add_/sub_ with alpha run block by block on large arrays (the optimizer update)."""
    rng = np.random.default_rng(0)
    for shape in [(300, 500), (7,), (2, 3)]:
        p = tg.tensor(rng.standard_normal(shape).astype(np.float32))
        g = tg.tensor(rng.standard_normal(shape).astype(np.float32))
        expected = getattr(tg, method[:-1])(p, g, alpha=-0.1).numpy()
        getattr(p, method)(g, alpha=-0.1)
        np.testing.assert_array_equal(p.numpy(), expected)
        assert p._version == 1


def test_scaled_in_place_update_reading_its_own_memory():
    """An operand that is the destination itself reads the old values; one that overlaps it
    only partly is refused, as PyTorch refuses it, and the destination stays as it was."""
    base = np.arange(200_000, dtype=np.float64)
    x = tg.tensor(base)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the "
                                           "written-to tensor refer to a single memory location"):
        x[1:].add_(x[:-1], alpha=2.0)
    np.testing.assert_array_equal(x.numpy(), base)
    y = tg.tensor(base)
    y.sub_(y, alpha=0.5)
    np.testing.assert_array_equal(y.numpy(), base - 0.5 * base)


# -- grad modes ------------------------------------------------------------------------------------

def test_no_grad_and_enable_grad_blocks_nest():
    x = _leaf([1.0])
    with tg.no_grad():
        assert not tg.is_grad_enabled()
        y = x * 2
        with tg.enable_grad():
            z = x * 2
        w = x * 2
    assert tg.is_grad_enabled()
    assert (y.requires_grad, y.grad_fn, z.requires_grad, w.requires_grad) == (
        False, None, True, False)


def test_grad_mode_is_restored_after_an_exception():
    with pytest.raises(ValueError):
        with tg.no_grad():
            raise ValueError
    assert tg.is_grad_enabled()


def test_set_grad_enabled_as_call_and_as_context():
    x = _leaf([1.0])
    try:
        tg.set_grad_enabled(False)
        assert not tg.is_grad_enabled() and not (x * 2).requires_grad
    finally:
        tg.set_grad_enabled(True)
    with tg.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert tg.is_grad_enabled()
    with tg.no_grad(), tg.set_grad_enabled(True):
        assert (x * 2).requires_grad


def test_inference_mode():
    x = _leaf([1.0])
    with tg.inference_mode():
        assert tg.is_inference_mode_enabled() and not tg.is_grad_enabled()
        assert not (x * 2).requires_grad
        with tg.inference_mode(False):  # off again, and recording, as in PyTorch
            assert not tg.is_inference_mode_enabled() and (x * 2).requires_grad
    with tg.no_grad(), tg.inference_mode(False):
        assert tg.is_grad_enabled()
    assert not tg.is_inference_mode_enabled() and tg.is_grad_enabled()


_INFERENCE_MISUSES = {
    "in-place outside": lambda lib, inf, x: inf.add_(1),
    "in-place on a view": lambda lib, inf, x: inf[0].fill_(2),
    "in-place under no_grad": lambda lib, inf, x: _under(lib.no_grad(), lambda: inf.zero_()),
    "copied into": lambda lib, inf, x: inf.copy_(lib.zeros(3)),
    "saved for backward": lambda lib, inf, x: inf * x,
    "saved as the other operand": lambda lib, inf, x: x * inf,
    "used where nothing is saved": lambda lib, inf, x: (inf + x).tolist(),
    "copied from": lambda lib, inf, x: lib.zeros(3).copy_(inf).tolist(),
    "which views are": lambda lib, inf, x: _inference_flags(lib, inf, x),
}


def _under(context, action):
    with context:
        return action()


def _inference_flags(lib, inf, x):
    with lib.inference_mode():
        return (inf.view(3).is_inference(), x.detach().view(3).is_inference(),
                inf[1:].is_inference(), (x * 2).is_inference())


@pytest.mark.parametrize("misuse", list(_INFERENCE_MISUSES))
def test_inference_tensors_follow_torchs_rules(torch, misuse):
    def program(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with lib.inference_mode():
            inf = lib.ones(3)
            inf.add_(1)  # allowed inside
        return _INFERENCE_MISUSES[misuse](lib, inf, x)

    _same_as_torch(program, torch)


def _decorated(mode):
    x = _leaf([1.0])

    @mode
    def compute():
        return (x * 2).requires_grad, tg.is_grad_enabled()
    return compute


# Factories: set_grad_enabled(False) switches grad mode off as soon as it is built, as in PyTorch.
@pytest.mark.parametrize("make_mode, records", [
    (lambda: tg.no_grad, False), (lambda: tg.no_grad(), False), (lambda: tg.enable_grad, True),
    (lambda: tg.enable_grad(), True), (lambda: tg.set_grad_enabled(False), False),
    (lambda: tg.set_grad_enabled(True), True), (lambda: tg.inference_mode, False),
    (lambda: tg.inference_mode(), False), (lambda: tg.inference_mode(False), True)],
    ids=["no_grad", "no_grad()", "enable_grad", "enable_grad()", "set_grad_enabled(False)",
         "set_grad_enabled(True)", "inference_mode", "inference_mode()", "inference_mode(False)"])
def test_grad_modes_as_decorators(make_mode, records):
    compute = _decorated(make_mode())
    assert tg.is_grad_enabled()  # a set_grad_enabled used as a decorator changes nothing outside
    assert compute.__name__ == "compute"
    assert compute() == (records, records)
    with tg.no_grad():
        assert compute() == (records, records)
    assert tg.is_grad_enabled()


def test_a_decorated_generator_runs_each_step_in_the_mode():
    @tg.no_grad()
    def steps():
        yield tg.is_grad_enabled()
        yield tg.is_grad_enabled()

    generator = steps()
    assert next(generator) is False
    assert tg.is_grad_enabled()  # the caller, between steps
    assert next(generator) is False


def test_grad_mode_is_thread_local():
    x = _leaf([1.0])
    inside, resume, results = threading.Event(), threading.Event(), {}

    def evaluate():
        with tg.no_grad():
            inside.set()
            resume.wait(10)
            results["worker"] = (x * 2).requires_grad

    worker = threading.Thread(target=evaluate)
    worker.start()
    inside.wait(10)
    results["main"] = (x * 2).requires_grad  # while the worker sits inside no_grad
    resume.set()
    worker.join()
    assert results == {"main": True, "worker": False}


def test_a_new_thread_starts_with_grad_enabled():
    seen = []
    with tg.no_grad():
        thread = threading.Thread(target=lambda: seen.append(tg.is_grad_enabled()))
        thread.start()
        thread.join()
    assert seen == [True]


# -- detach ----------------------------------------------------------------------------------------

def test_detach_shares_memory_and_version_but_not_history():
    x = _leaf([1.0, 2.0])
    y = x * 2
    d = y.detach()
    assert (d.requires_grad, d.grad_fn, d.is_leaf) == (False, None, True)
    assert np.shares_memory(d.numpy(), y.detach().numpy())
    d.add_(1)
    _close(y, [3.0, 5.0])
    assert y._version == 1


def test_detach_in_place_cuts_a_tensor_out_of_the_graph():
    x = _leaf([1.0, 2.0])
    y = x * 2
    assert y.detach_() is y
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)


# -- autograd.grad ---------------------------------------------------------------------------------

def test_first_second_and_third_derivatives_match_formulas():
    values = np.array([-1.3, 0.4, 2.0])
    x = tg.tensor(values, dtype=tg.float64, requires_grad=True)
    y = x ** 3 * x.sin()
    ones = tg.ones(3, dtype=tg.float64)
    (d1,) = tg.autograd.grad(y, x, ones, create_graph=True)
    (d2,) = tg.autograd.grad(d1, x, ones, create_graph=True)
    (d3,) = tg.autograd.grad(d2, x, ones)
    s, c, v = np.sin(values), np.cos(values), values
    _close(d1, 3 * v**2 * s + v**3 * c)
    _close(d2, 6 * v * s + 6 * v**2 * c - v**3 * s)
    _close(d3, 6 * s + 18 * v * c - 9 * v**2 * s - v**3 * c)
    assert d1.requires_grad and d2.requires_grad and not d3.requires_grad
    assert x.grad is None  # grad() returns gradients, it does not accumulate them


def test_mixed_second_derivative():
    x = _leaf(1.5, dtype=tg.float64)
    y = _leaf(-0.5, dtype=tg.float64)
    f = x ** 2 * y ** 3
    dx, dy = tg.autograd.grad(f, (x, y), create_graph=True)
    _close(dx, 2 * 1.5 * (-0.5) ** 3)
    _close(dy, 3 * 1.5 ** 2 * 0.5 ** 2)
    (dxy,) = tg.autograd.grad(dx, y)
    _close(dxy, 6 * 1.5 * 0.5 ** 2)


def test_grad_with_respect_to_an_intermediate():
    x = _leaf([1.0, 2.0])
    mid = x * 3
    (g,) = tg.autograd.grad((mid ** 2).sum(), mid)
    _close(g, [6.0, 12.0])


def test_grad_frees_the_graph_unless_retain_graph():
    x = _leaf([1.0, 2.0])
    y = (x * x).sum()
    tg.autograd.grad(y, x, retain_graph=True)
    (g,) = tg.autograd.grad(y, x)
    _close(g, [2.0, 4.0])
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        tg.autograd.grad(y, x)


def test_grad_leaves_untouched_branches_unfreed():
    x, z = _leaf([1.0, 2.0]), _leaf([0.5])
    y = x.exp().sum() + z.exp().sum()
    (gx,) = tg.autograd.grad(y, x)
    (gz,) = tg.autograd.grad(y, z)  # z's branch did not run the first time, so it was not freed
    _close(gx, np.exp([1.0, 2.0]))
    _close(gz, np.exp([0.5]))


def test_grad_unused_inputs():
    x, unused = _leaf([1.0]), _leaf([2.0, 3.0])
    y = (x * 2).sum()
    with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears to not "
                                           "have been used in the graph. Set allow_unused=True"):
        tg.autograd.grad(y, [x, unused], retain_graph=True)
    gx, none = tg.autograd.grad(y, [x, unused], allow_unused=True, retain_graph=True)
    assert none is None
    _close(gx, [2.0])
    _, zeros = tg.autograd.grad(y, [x, unused], materialize_grads=True)
    _close(zeros, [0.0, 0.0])
    with pytest.raises(ValueError, match="allow_unused"):
        tg.autograd.grad(y, [x], allow_unused=False, materialize_grads=True)


def test_grad_needs_inputs_that_require_grad():
    x = _leaf([1.0])
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require"):
        tg.autograd.grad((x * 2).sum(), tg.tensor([1.0]))


def test_grad_applies_leaf_hooks_and_captures_intermediates_as_torch(torch):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 10)
        c = x * 2
        c.register_hook(lambda g: g + 1)
        return lib.autograd.grad((c * c).sum(), [c, x])

    _same_as_torch(program, torch)


# -- autograd.Function -----------------------------------------------------------------------------

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


class ScaledProductAndSum(Function):
    """Two differentiable outputs, a non-differentiable index, and a non-tensor argument."""

    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        index = a.argmax()
        ctx.mark_non_differentiable(index)
        return a * b * scale, a + b, index

    @staticmethod
    def backward(ctx, grad_product, grad_sum, grad_index):
        ctx.seen = (ctx.needs_input_grad, grad_index.tolist())
        a, b = ctx.saved_tensors
        grad_a = grad_product * b * ctx.scale + grad_sum if ctx.needs_input_grad[0] else None
        grad_b = grad_product * a * ctx.scale + grad_sum if ctx.needs_input_grad[1] else None
        return grad_a, grad_b, None


def test_function_forward_backward_and_node():
    x = _leaf([0.5, -1.0], dtype=tg.float64)
    y = Exp.apply(x)
    assert y.grad_fn.name() == "ExpBackward" and type(y.grad_fn).__name__ == "ExpBackward"
    assert re.fullmatch(r"<torch\.autograd\.function\.ExpBackward object at 0x[0-9a-f]+>",
                        repr(y.grad_fn))
    assert y.grad_fn.next_functions[0][0].variable is x
    y.sum().backward()
    _close(x.grad, np.exp([0.5, -1.0]))
    with pytest.raises(RuntimeError) as error:
        y.grad_fn.saved_tensors
    assert str(error.value) == FREED


def test_function_with_several_outputs_and_a_non_tensor_argument():
    a, b = _leaf([1.0, 3.0]), tg.tensor([2.0, 5.0])
    product, total, index = ScaledProductAndSum.apply(a, b, 3.0)
    assert product.grad_fn is total.grad_fn
    assert (index.requires_grad, index.grad_fn, index.tolist()) == (False, None, 1)
    assert product.grad_fn.next_functions[1] == (None, 0)
    (product.sum() + total.sum()).backward()
    _close(a.grad, [2.0 * 3 + 1, 5.0 * 3 + 1])
    assert product.grad_fn.seen == ((True, False, False), 0)


def test_function_output_without_gradient_gets_zeros():
    a, b = _leaf([1.0, 3.0]), _leaf([2.0, 5.0])
    product, _, _ = ScaledProductAndSum.apply(a, b, 2.0)
    product.sum().backward()
    _close(a.grad, [4.0, 10.0])
    _close(b.grad, [2.0, 6.0])


def test_function_behaviour_matches_torch(torch):
    def program(lib):
        class ProductAndIndex(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a, b, scale):
                ctx.scale = scale
                ctx.save_for_backward(a, b)
                index = a.argmax()
                ctx.mark_non_differentiable(index)
                return a * b * scale, a + b, index

            @staticmethod
            def backward(ctx, grad_product, grad_sum, grad_index):
                a, b = ctx.saved_tensors
                ctx.seen = [ctx.needs_input_grad, grad_sum.tolist(), grad_index.tolist()]
                return grad_product * b * ctx.scale + grad_sum, None, None

        a = lib.tensor([1.0, 3.0], requires_grad=True)
        product, _, index = ProductAndIndex.apply(a, lib.tensor([2.0, 5.0]), 3.0)
        product.sum().backward()
        return (a.grad, index, product.grad_fn.name(), product.grad_fn.seen,
                type(product.grad_fn.next_functions[0][0]).__name__,
                product.grad_fn.next_functions[1])

    _same_as_torch(program, torch)


def _split_style_function(lib):
    """PyTorch 2's ``forward(*args)`` + ``setup_context``, keyword and default arguments bound
    into ``inputs``; a non-tensor output's gradient is None; a second backward through a node
    that saved nothing runs, one that reads the freed saved tensors fails."""
    seen = []

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(x, k=3.0):
            return x * k, x.numel()

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append((len(inputs), inputs[1], type(output).__name__))
            ctx.k = inputs[1]
            ctx.set_materialize_grads(False)

        @staticmethod
        def backward(ctx, grad, grad_count):
            seen.append(grad_count)
            return grad * ctx.k, None

    x = lib.tensor([1.0, -2.0], requires_grad=True)
    y, count = Scale.apply(x)
    z, _ = Scale.apply(x, k=5.0)
    (y.sum() + z.sum()).backward()
    seen.append((count, x.grad.tolist(), y.grad_fn.name()))
    seen.append(lib.autograd.grad(y.sum(), x)[0].tolist())  # nothing saved: runs again
    e = Exp.apply(x) if lib is tg else None
    return seen, e


def test_function_split_style_and_non_tensor_outputs_match_torch(torch):
    ours, exp_out = _split_style_function(tg)
    assert ours == _split_style_function(torch)[0]
    assert (2, [8.0, 8.0], "ScaleBackward") in ours and ours[-1] == [3.0, 3.0]
    exp_out.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        exp_out.sum().backward()


def test_function_does_not_record_without_grad():
    assert Exp.apply(tg.tensor([1.0])).grad_fn is None
    with tg.no_grad():
        y = Exp.apply(_leaf([1.0]))
    assert (y.requires_grad, y.grad_fn) == (False, None)


def test_function_retain_graph_keeps_saved_tensors():
    x = _leaf([1.0], dtype=tg.float64)
    y = Exp.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    _close(x.grad, 2 * np.exp([1.0]))


def test_function_saved_tensor_modified_in_place():
    x = _leaf([1.0, 2.0])
    y = Exp.apply(x * 1)
    y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def _function_returning(gradient):
    class Returns(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return gradient(grad)
    return Returns


@pytest.mark.parametrize("gradient, message", [
    (lambda g: (g, g), "function ReturnsBackward returned an incorrect number of gradients "
                       "(expected 1, got 2)"),
    (lambda g: g.sum(), "Function ReturnsBackward returned an invalid gradient at index 0 - got [] "
                        "but expected shape compatible with [2]"),
    (lambda g: tg.ones(3), "Function ReturnsBackward returned an invalid gradient at index 0 - got "
                           "[3] but expected shape compatible with [2]"),
], ids=["count", "too-small", "incompatible"])
def test_function_returning_bad_gradients(gradient, message):
    with pytest.raises(RuntimeError) as error:
        _function_returning(gradient).apply(_leaf([1.0, 2.0])).sum().backward()
    assert str(error.value) == message


def test_function_gradient_for_a_non_tensor_argument_is_an_error():
    class Scale(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    with pytest.raises(RuntimeError, match="returned a gradient different than None at position 2"):
        Scale.apply(_leaf([1.0]), 2.0).sum().backward()


def test_function_broadcast_gradient_is_summed_to_the_input_shape():
    x = _leaf([[1.0, 2.0]])
    _function_returning(lambda g: g.expand(3, 1, 2)).apply(x).sum().backward()
    _close(x.grad, [[3.0, 3.0]])


def test_function_returning_a_tensor_it_keeps_does_not_alias_grad():
    kept = tg.tensor([1.0, 1.0])
    x = _leaf([0.0, 0.0])
    Passing = _function_returning(lambda g: kept)
    Passing.apply(x).sum().backward()
    Passing.apply(x).sum().backward()
    _close(x.grad, [2.0, 2.0])
    _close(kept, [1.0, 1.0])


def test_gradcheck_passes_a_correct_function():
    x = tg.tensor([0.3, -0.2, 1.1], dtype=tg.float64, requires_grad=True)
    assert gradcheck(Exp.apply, (x,))
    a = tg.tensor([0.3, -0.2], dtype=tg.float64, requires_grad=True)
    b = tg.tensor([1.5, 0.7], dtype=tg.float64, requires_grad=True)
    assert gradcheck(lambda p, q: ScaledProductAndSum.apply(p, q, 2.5)[:2], (a, b))


def test_gradgradcheck_of_a_function_with_a_differentiable_backward():
    x = tg.tensor([0.3, -0.2], dtype=tg.float64, requires_grad=True)
    assert gradgradcheck(Exp.apply, (x,))


def test_gradcheck_catches_a_wrong_backward():
    class WrongSquare(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x  # should be 2 * x

    x = tg.tensor([0.3, -0.2], dtype=tg.float64, requires_grad=True)
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to inp"):
        gradcheck(WrongSquare.apply, (x,))
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False


def test_gradcheck_perturbs_non_contiguous_inputs():
    x = tg.tensor(np.arange(6.0).reshape(3, 2)).t().requires_grad_()
    assert not x.is_contiguous()
    assert gradcheck(lambda t: (t * t).sum(0), (x,))


class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_function_marking_its_input_dirty_rebases_its_history():
    x = _leaf([1.0, 2.0])
    y = x * 3
    z = AddOneInPlace.apply(y)
    # version 2: the add_, then mark_dirty (as in PyTorch)
    assert z is y and z.grad_fn.name() == "AddOneInPlaceBackward" and y._version == 2
    z.sum().backward()
    _close(x.grad, [3.0, 3.0])


def test_function_modifying_a_leaf_or_its_view_in_place_raises_as_torch(torch):
    def on_leaf(lib):
        return _torch_twin(AddOneInPlace, lib).apply(lib.tensor([1.0], requires_grad=True))

    def on_view_of_leaf(lib):
        leaf = lib.tensor([1.0, 2.0], requires_grad=True)
        return _torch_twin(AddOneInPlace, lib).apply(leaf.view(2))

    assert _same_as_torch(on_leaf, torch) == (
        "error", "RuntimeError",
        "a leaf Variable that requires grad has been used in an in-place operation.")
    assert _same_as_torch(on_view_of_leaf, torch) == (
        "error", "RuntimeError",
        "a view of a leaf Variable that requires grad is being used in an in-place operation.")


def _torch_twin(function_class, lib):
    """``function_class`` (a tapegrad Function) rebuilt on ``lib.autograd.Function``."""
    if lib is tg:
        return function_class
    methods = {k: v for k, v in vars(function_class).items() if isinstance(v, staticmethod)}
    return type(function_class.__name__, (lib.autograd.Function,), methods)


def _nan_born_in_sqrt(lib):
    x = lib.tensor([0.0, 1.0, 4.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with lib.autograd.detect_anomaly():
            assert lib.is_anomaly_enabled() and lib.is_anomaly_check_nan_enabled()
            (lib.sqrt(x) * lib.tensor([0.0, 1.0, 1.0])).sum().backward()
    return x.grad


def test_anomaly_detection_names_the_node_that_made_a_nan(torch):
    for lib in (tg, torch):
        with pytest.raises(RuntimeError) as error:
            _nan_born_in_sqrt(lib)
        assert str(error.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."
        assert not lib.is_anomaly_enabled()
    with tg.autograd.set_detect_anomaly(True, check_nan=False):  # context manager: restores
        e = tg.tensor([0.0], requires_grad=True)
        (e / e).sum().backward()
        assert np.isnan(e.grad.item())
    assert not tg.is_anomaly_enabled() and tg.is_anomaly_check_nan_enabled()
    with pytest.raises(TypeError, match="argument 'enabled' \\(position 1\\) must be bool"):
        tg.autograd.set_detect_anomaly("yes")


def _inplace_views(lib):
    w = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = w * 1
    names = []
    for op in (lambda t: t.t_(), lambda t: t.unsqueeze_(0), lambda t: t.squeeze_(),
               lambda t: t.transpose_(0, 1)):
        assert op(h) is h
        names.append((h.grad_fn.name(), h._version, tuple(h.shape)))
    (h * lib.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
    plain = lib.arange(6.0)
    plain.resize_(2, 3)
    return names, w.grad.tolist(), plain.tolist(), plain._version


def test_in_place_view_methods_record_pytorchs_nodes(torch):
    assert _inplace_views(tg) == _inplace_views(torch)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        tg.ones(2, requires_grad=True).t_()
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        (tg.ones(2, requires_grad=True) * 1).resize_(4)


def _multi_grad_hook_calls(lib, mode):
    seen = []
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    record = (lambda grads: seen.append([None if g is None else g.tolist() for g in grads])) \
        if mode == "all" else (lambda grad: seen.append(grad.tolist()))
    handle = lib.autograd.graph.register_multi_grad_hook((a, b), record, mode=mode)
    (a * b).sum().backward()
    (a * 2).sum().backward()
    handle.remove()
    (a * b).sum().backward()
    return seen


def test_multi_grad_hook_fires_once_per_pass_as_torchs(torch):
    for mode in ("all", "any"):
        assert _multi_grad_hook_calls(tg, mode) == _multi_grad_hook_calls(torch, mode)


def test_increment_version_makes_backward_refuse_a_changed_saved_tensor():
    x = tg.tensor([0.5, 1.5], requires_grad=True)
    y = x.pow(2)
    tg.autograd.graph.increment_version(x)
    tg.autograd.graph.increment_version([x, x])
    assert x._version == 3
    with pytest.raises(RuntimeError, match="is at version 3; expected version 0"):
        y.sum().backward()


@pytest.mark.parametrize("write", [lambda v: v.mul_(v), lambda v: v.addcmul_(v, v, value=0.5),
                                   lambda v: v.pow_(v), lambda v: v.mul_(v[:])],
                         ids=["mul_", "addcmul_", "pow_", "mul_view"])
def test_an_operand_overwritten_by_its_own_write_is_refused_not_differentiated(write):
    """``v.mul_(v)``: the rule would need the operand's old value, which the write replaced.
    As in PyTorch the operand is saved as it was, so backward refuses it (it used to give a
    silently wrong gradient, x² + x for d(x²)/dx)."""
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x * 1
    write(v)
    with pytest.raises(RuntimeError, match="modified by an inplace operation: .* is at version 1; "
                                           "expected version 0 instead"):
        v.sum().backward()


def test_an_in_place_write_with_an_unaliased_operand_still_differentiates():
    x = tg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x * 1
    v.mul_(x)
    v.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_node_hooks_get_a_slot_for_every_output_of_a_custom_function():
    """A Function with two outputs, one unused: its node's pre-hook sees (gradient, None), as
    PyTorch's does (the engine sizes the tuple from the node's outputs, not from the gradients
    that arrived)."""
    class TwoOutputs(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, a, b):
            return a * 2 + (0 if b is None else b * 3)

    x = tg.ones(2, requires_grad=True)
    first, _ = TwoOutputs.apply(x)
    seen = []
    first.grad_fn.register_prehook(lambda grads: seen.append([g is None for g in grads]))
    first.grad_fn.register_hook(lambda inputs, outputs: seen.append(len(outputs)))
    first.sum().backward()
    assert seen == [[False, True], 2]
    assert x.grad.tolist() == [2.0, 2.0]


def test_data_of_a_tensor_that_requires_grad_must_stay_floating():
    p = tg.nn.Parameter(tg.ones(2))
    with pytest.raises(RuntimeError, match="data set to a tensor that requires gradients must "
                                           "be floating point or complex dtype"):
        p.data = tg.ones(2, dtype=tg.int64)
    assert p.dtype == tg.float32
    plain = tg.ones(2)
    plain.data = tg.ones(3, dtype=tg.int64)  # no grad required: anything goes
    assert plain.tolist() == [1, 1, 1]


def test_numpy_of_a_tensor_that_requires_grad_only_under_no_grad():
    x = tg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        x.numpy()
    with tg.no_grad():
        assert x.numpy().tolist() == [1.0, 1.0]


def test_grad_mode_contexts_bind_none():
    # ``with torch.no_grad() as g`` binds None in PyTorch; code that prints or tests it agrees
    for context in (tg.no_grad(), tg.enable_grad(), tg.set_grad_enabled(False),
                    tg.inference_mode(), tg.autograd.set_detect_anomaly(False)):
        with context as bound:
            assert bound is None


@pytest.mark.parametrize("keepdim", [False, True])
def test_max_and_min_over_a_dim_save_their_indices_not_the_input(keepdim):
    """As PyTorch's MaxBackward0: the input may change in place before backward, the indices
    may not, and the gradient goes to the chosen position of each row."""
    x = tg.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    y = x * 1
    values, indices = y.max(dim=1, keepdim=keepdim)
    assert values.grad_fn._saved_indices.tolist() == indices.tolist()
    assert values.grad_fn._saved_self_sym_sizes == (2, 3)
    y.add_(1)
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]

    values, indices = x.min(dim=0, keepdim=keepdim)
    indices.add_(0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        values.sum().backward()
    assert gradcheck(lambda t: t.min(dim=0, keepdim=keepdim)[0] ** 2,
                     (tg.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=tg.float64, requires_grad=True),))
    assert gradgradcheck(lambda t: t.max(dim=1, keepdim=keepdim)[0] ** 2,
                         (tg.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=tg.float64,
                                    requires_grad=True),))
