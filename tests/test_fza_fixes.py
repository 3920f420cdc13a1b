"""Differences found by differential fuzzing of autograd semantics against PyTorch (fza): random
small graphs mixing views and in-place ops on leaves, non-leaves and views (grad_fn names,
next_functions, is_leaf, requires_grad, _version, gradients, errors), tensor and node hooks,
retain_grad, backward/autograd.grad options, grad modes, autograd.Function edge cases and
torch.autograd.functional."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


# -- retain_grad follows the tensor through in-place ops -------------------------------------------

def _retained_after_inplace(lib, write):
    x = lib.ones(2, 3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    write(lib, x, y)
    (y * lib.arange(6.).view(2, 3)).sum().backward()
    return y.grad, x.grad


RETAIN_THEN_WRITE = {
    "mul_": lambda lib, x, y: y.mul_(3),
    "setitem": lambda lib, x, y: y.__setitem__(0, x[1] * 5),
    "through_a_view": lambda lib, x, y: y[:, 1:].sigmoid_(),
    "t_twice": lambda lib, x, y: y.t_().t_(),  # (in-place view ops leave the hook in place)
}


@pytest.mark.parametrize("name", sorted(RETAIN_THEN_WRITE))
def test_retain_grad_gives_the_gradient_of_the_written_value(name):
    y_grad, _ = _retained_after_inplace(tapegrad, RETAIN_THEN_WRITE[name])
    np.testing.assert_allclose(y_grad.numpy(), np.arange(6.).reshape(2, 3))


@needs_torch
@pytest.mark.parametrize("name", sorted(RETAIN_THEN_WRITE))
def test_retain_grad_after_inplace_as_torch(name):
    assert_same(lambda lib: _retained_after_inplace(lib, RETAIN_THEN_WRITE[name]), torch)


@needs_torch
def test_retain_grad_of_a_view_and_its_base_after_writing_the_view_as_torch():
    def case(lib):
        y = lib.ones(4, requires_grad=True) * 2
        y.retain_grad()
        v = y[:2]
        v.retain_grad()
        v.mul_(3)
        (v.sum() * 2 + (y * lib.arange(4.)).sum()).backward()
        return y.grad, v.grad
    assert_same(case, torch)


# -- autograd.Function: mark_dirty on a view, non-differentiable inputs, what backward returns -----

def _function(lib, forward, backward):
    return type("MyFn", (lib.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def _double_in_place(ctx, x):
    x.mul_(2)
    ctx.mark_dirty(x)
    return x


def _dirty_view(lib):
    double = _function(lib, _double_in_place, lambda ctx, g: g * 2)
    x = lib.ones(4, requires_grad=True)
    y = x * 1
    z = double.apply(y[:2])
    names = type(z.grad_fn).__name__, type(y.grad_fn).__name__, y._version
    y.sum().backward()
    return names, x.grad


def test_a_view_marked_dirty_rewrites_its_base_history():
    names, grad = _dirty_view(tapegrad)
    assert names == ("AsStridedBackward0", "CopySlices", 2)
    np.testing.assert_allclose(grad.numpy(), [2, 2, 1, 1])  # the doubling reaches the base


@needs_torch
def test_a_view_marked_dirty_as_torch():
    assert_same(_dirty_view, torch)


def _dirty_view_of_two_outputs(lib):
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x, x * 3
    both = _function(lib, forward, lambda ctx, g, h: g)
    both.apply((lib.ones(4, requires_grad=True) * 1)[:2])


def test_a_view_marked_dirty_must_be_the_only_output():
    with pytest.raises(RuntimeError, match="^If your Function modifies inplace an input that is a "
                                           "view of another Tensor, your Function cannot return "
                                           "more than one Tensor"):
        _dirty_view_of_two_outputs(tapegrad)


@needs_torch
def test_a_view_marked_dirty_must_be_the_only_output_as_torch():
    assert_same(_dirty_view_of_two_outputs, torch)


def _dirty_retained(lib):
    double = _function(lib, _double_in_place, lambda ctx, g: g * 2)
    x = lib.ones(3, requires_grad=True)
    y = x * 1
    y.retain_grad()
    (double.apply(y) * lib.arange(3.)).sum().backward()
    return y.grad, x.grad


def test_retain_grad_of_a_tensor_marked_dirty_gives_the_gradient_of_the_new_value():
    y_grad, x_grad = _dirty_retained(tapegrad)
    np.testing.assert_allclose(y_grad.numpy(), [0, 1, 2])
    np.testing.assert_allclose(x_grad.numpy(), [0, 2, 4])


@needs_torch
def test_retain_grad_of_a_tensor_marked_dirty_as_torch():
    assert_same(_dirty_retained, torch)


def _dirty_without_graph(lib):
    x = lib.ones(3)
    _function(lib, _double_in_place, lambda ctx, g: g).apply(x)
    return x._version


def test_marking_dirty_bumps_the_version_without_a_graph_too():
    assert _dirty_without_graph(tapegrad) == 2


@needs_torch
def test_marking_dirty_without_graph_as_torch():
    assert _dirty_without_graph(tapegrad) == _dirty_without_graph(torch)


def _non_differentiable_input_returned(lib, dirty):
    def forward(ctx, x):
        if dirty:
            x.add_(1)
            ctx.mark_dirty(x)
        ctx.mark_non_differentiable(x)
        return x
    y = lib.ones(3, requires_grad=True) * 1
    z = _function(lib, forward, lambda ctx, g: g).apply(y)
    return z is y, z.requires_grad, z.grad_fn, y.requires_grad, type(y.grad_fn).__name__


@pytest.mark.parametrize("dirty", [False, True])
def test_a_non_differentiable_input_comes_back_detached(dirty):
    assert _non_differentiable_input_returned(tapegrad, dirty) == (
        False, False, None, True, "MulBackward0")


@needs_torch
@pytest.mark.parametrize("dirty", [False, True])
def test_a_non_differentiable_input_returned_as_torch(dirty):
    assert (_non_differentiable_input_returned(tapegrad, dirty)
            == _non_differentiable_input_returned(torch, dirty))


def _backward_returns_a_number(lib):
    times_two = _function(lib, lambda ctx, x: x * 2, lambda ctx, g: 3.0)
    times_two.apply(lib.ones(3, requires_grad=True)).sum().backward()


def test_a_gradient_that_is_not_a_tensor_is_refused():
    with pytest.raises(RuntimeError, match=r"^expected Variable or None \(got float\)$"):
        _backward_returns_a_number(tapegrad)


@needs_torch
def test_a_gradient_that_is_not_a_tensor_as_torch():
    assert_same(_backward_returns_a_number, torch)


# -- in-place ops on views: what they save, and views of multi-output views ------------------------

MODIFIED = "^one of the variables needed for gradient computation has been modified by an inplace"


def _saved_output_of_view_modified(lib, op):
    x = lib.linspace(0.1, 0.4, 4, requires_grad=True)
    y = x * 1
    getattr(y[:2], op)()
    y.mul_(2)
    y.sum().backward()
    return x.grad


@pytest.mark.parametrize("op", ["tanh_", "sigmoid_", "exp_", "relu_", "sqrt_"])
def test_an_in_place_op_on_a_view_saves_the_view_itself(op):
    with pytest.raises(RuntimeError, match=MODIFIED):
        _saved_output_of_view_modified(tapegrad, op)


@needs_torch
@pytest.mark.parametrize("op", ["tanh_", "sigmoid_", "exp_", "relu_", "sqrt_"])
def test_an_in_place_op_on_a_view_then_a_write_as_torch(op):
    assert_same(lambda lib: _saved_output_of_view_modified(lib, op), torch)


@needs_torch
def test_an_in_place_op_on_a_view_without_later_write_as_torch():
    def case(lib):
        x = lib.linspace(0.1, 0.4, 4, requires_grad=True)
        y = x * 1
        y[1:3].tanh_()
        (y * lib.arange(4.)).sum().backward()
        return x.grad
    assert_same(case, torch)


VIEWS_OF_PIECES = {
    "view": lambda lib, y: y.unbind()[0].view(3),
    "slice": lambda lib, y: y.unbind()[1][:2],
    "select": lambda lib, y: y.split(1)[0][0],
    "transpose": lambda lib, y: y.chunk(2, 1)[0].t(),
}


def _write_view_of_piece(lib, name):
    y = lib.ones(2, 3, requires_grad=True) * 1
    VIEWS_OF_PIECES[name](lib, y).mul_(2)


@pytest.mark.parametrize("name", sorted(VIEWS_OF_PIECES))
def test_a_view_of_a_multi_output_view_may_not_be_written(name):
    with pytest.raises(RuntimeError, match="This view is the output of a function that returns "
                                           "multiple views"):
        _write_view_of_piece(tapegrad, name)


@needs_torch
@pytest.mark.parametrize("name", sorted(VIEWS_OF_PIECES))
def test_a_view_of_a_multi_output_view_written_as_torch(name):
    assert_same(lambda lib: _write_view_of_piece(lib, name), torch)


@needs_torch
def test_a_view_of_a_multi_output_view_of_a_modified_base_as_torch():
    def case(lib):
        y = lib.ones(2, 3, requires_grad=True) * 1
        v = y.unbind()[0].view(3)
        y.add_(1)
        return v.grad_fn
    assert_same(case, torch)


def _write_unsafe_piece(lib):
    x = lib.ones(4, requires_grad=True)
    y = x * 1
    a, _ = y.unsafe_split(2)
    a.mul_(2)
    a[:1].add_(1)
    y.sum().backward()
    return a, x.grad


def test_unsafe_split_pieces_may_be_written():
    piece, grad = _write_unsafe_piece(tapegrad)
    assert type(piece.grad_fn).__name__ == "CopySlices"
    np.testing.assert_allclose(grad.numpy(), [1, 1, 1, 1])  # the writes bypass y's history


@needs_torch
def test_unsafe_split_pieces_written_as_torch():
    assert_same(_write_unsafe_piece, torch)


# -- a node may be called -------------------------------------------------------------------------

NODE_CALLS = {
    "two_inputs": lambda lib, x: (x * 3).grad_fn(lib.ones(3)),
    "one_input": lambda lib, x: x.exp().grad_fn(lib.ones(3)),
    "split": lambda lib, x: x.split(2)[0].grad_fn(lib.ones(2), lib.ones(1)),
    "too_many": lambda lib, x: (x * 3).grad_fn(lib.ones(3), lib.ones(3)),
}


@pytest.mark.parametrize("name", sorted(NODE_CALLS))
def test_calling_a_node_runs_its_backward(name):
    x = tapegrad.ones(3, requires_grad=True)
    if name == "too_many":
        with pytest.raises(TypeError, match=r"^expected 1 arguments, got 2 instead$"):
            NODE_CALLS[name](tapegrad, x)
    else:
        assert NODE_CALLS[name](tapegrad, x) is not None


@needs_torch
@pytest.mark.parametrize("name", sorted(NODE_CALLS))
def test_calling_a_node_as_torch(name):
    assert_same(lambda lib: NODE_CALLS[name](lib, lib.ones(3, requires_grad=True)), torch)


# -- in-place ops on views of a base laid out otherwise than C's (a transposed result) ------------

def _write_views_of_transposed_result(lib):
    x = lib.arange(24.).view(2, 3, 4).requires_grad_()
    w0 = lib.linspace(0, 1, 6).view(3, 2).requires_grad_()
    y = x.permute(2, 0, 1) * 1  # laid out as x, its dims permuted
    v = y[1:3, :, 1]
    v.mul_(3)
    w = y[0]
    y[:, 1].add_(w0[:, 0])
    y[3] = w0.t() * 2
    (y.sin().sum() + (w * w).sum() * 3 + v.sum() + y[:, 0, 2].exp().sum()).backward()
    return x.grad, w0.grad, v._version


def test_views_of_a_non_contiguous_result_may_be_written():
    x_grad, w0_grad, version = _write_views_of_transposed_result(tapegrad)
    assert version == 3
    assert np.isfinite(x_grad.numpy()).all() and np.abs(w0_grad.numpy()).sum() > 0


@needs_torch
def test_views_of_a_non_contiguous_result_written_as_torch():
    assert_same(_write_views_of_transposed_result, torch)


@needs_torch
def test_a_write_into_a_transposed_result_differentiates_twice_as_torch():
    def case(lib):
        x = lib.linspace(0.1, 1, 6).view(2, 3).requires_grad_()
        y = x.t() * x.t()
        y[1].mul_(x[:, 0])
        g, = lib.autograd.grad((y ** 2).sum(), x, create_graph=True)
        g.sum().backward()
        return g, x.grad
    assert_same(case, torch)


@needs_torch
def test_a_stale_view_of_a_transposed_base_reaches_the_new_values_as_torch():
    def case(lib):
        x = lib.linspace(0.1, 1, 12).view(3, 4).requires_grad_()
        y = x * 1
        flat = y.view(12)
        y.t_()
        y[0].mul_(5)
        (flat * lib.arange(12.)).sum().backward()
        return x.grad
    assert_same(case, torch)


# -- an in-place view op on a view under no_grad leaves its history stale --------------------------

def _transpose_view_in_place_without_grad(lib):
    x = lib.linspace(0.1, 1.2, 12).view(3, 4).requires_grad_()
    v = (x * 1).T
    with lib.no_grad():
        v.transpose_(0, 1)
    (v * lib.arange(12.).view(3, 4)).sum().backward()
    return x.grad


def test_a_view_transposed_in_place_under_no_grad_gets_its_region_of_the_base():
    np.testing.assert_allclose(_transpose_view_in_place_without_grad(tapegrad).numpy(),
                               np.arange(12.).reshape(3, 4))


@needs_torch
def test_a_view_transposed_in_place_under_no_grad_as_torch():
    assert_same(_transpose_view_in_place_without_grad, torch)


def _input_returned_without_graph(lib):
    identity = _function(lib, lambda ctx, x: x, lambda ctx, g: g)
    w = lib.ones(3, requires_grad=True)
    with lib.no_grad():
        y = identity.apply(w)
    return y is w, y.requires_grad, y.grad_fn


def test_an_input_returned_without_a_graph_comes_back_as_an_alias():
    assert _input_returned_without_graph(tapegrad) == (False, False, None)


@needs_torch
def test_an_input_returned_without_a_graph_as_torch():
    assert _input_returned_without_graph(tapegrad) == _input_returned_without_graph(torch)


def _write_one_of_two_returned_views(lib):
    halves = _function(lib, lambda ctx, x: (x[:2], x[1:]), lambda ctx, g, h: g)
    a, _ = halves.apply(lib.ones(3, requires_grad=True) * 1)
    a.mul_(2)


def test_views_returned_by_a_function_returning_several_follow_the_multiple_views_rule():
    with pytest.raises(RuntimeError, match=r"^Output 0 of MyFn is a view and is being modified "
                                           r"inplace\. This view is the output of a function that "
                                           r"returns multiple views\."):
        _write_one_of_two_returned_views(tapegrad)


@needs_torch
def test_views_returned_by_a_function_returning_several_as_torch():
    assert_same(_write_one_of_two_returned_views, torch)


def _wrong_gradient_for_an_input_without_grad(lib):
    scale = _function(lib, lambda ctx, x, w: x * w, lambda ctx, g: (g, g[:2]))
    x = lib.ones(3, requires_grad=True)
    scale.apply(x, lib.ones(3)).sum().backward()
    return x.grad


def test_the_gradient_of_an_input_without_grad_is_dropped_unchecked():
    np.testing.assert_allclose(_wrong_gradient_for_an_input_without_grad(tapegrad).numpy(), 1)


@needs_torch
def test_the_gradient_of_an_input_without_grad_as_torch():
    assert_same(_wrong_gradient_for_an_input_without_grad, torch)


def _view_of_a_base_detached_in_place(lib):
    x = lib.linspace(0.1, 1.2, 12).view(3, 4).requires_grad_()
    y = x * 1
    rows = y[1:]
    y.tanh_()
    y.detach_()
    node = rows.grad_fn
    rows.sum().backward()
    return type(node).__name__, node.next_functions, rows.requires_grad, x.grad


def test_a_view_of_a_base_detached_in_place_sends_no_gradient_back():
    assert _view_of_a_base_detached_in_place(tapegrad) == (
        "AsStridedBackward0", ((None, 0),), True, None)


@needs_torch
def test_a_view_of_a_base_detached_in_place_as_torch():
    assert _view_of_a_base_detached_in_place(tapegrad) == _view_of_a_base_detached_in_place(torch)


# -- grad-mode switches ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode, name", [("yes", "str"), (None, "NoneType"), (0, "int"),
                                        (np.bool_(False), "numpy.bool")])
def test_set_grad_enabled_takes_a_bool_only(mode, name):
    with pytest.raises(TypeError, match=rf"^set_grad_enabled\(\): argument 'enabled' \(position 1\) "
                                        rf"must be bool, not {name}$"):
        tapegrad.set_grad_enabled(mode)
    assert tapegrad.is_grad_enabled()


@needs_torch
@pytest.mark.parametrize("mode", ["yes", None, 0, 1.0])
def test_set_grad_enabled_of_a_non_bool_as_torch(mode):
    assert_same(lambda lib: lib.set_grad_enabled(mode), torch)


def _inference_mode_of_a_non_bool(lib):
    with lib.inference_mode("x"):
        pass


@needs_torch
def test_inference_mode_of_a_non_bool_decorates_it_as_torch():
    assert_same(_inference_mode_of_a_non_bool, torch)


def _clones(lib):
    made = []
    for switch in (lib.no_grad(), lib.enable_grad(), lib.inference_mode(False)):
        clone = switch.clone()
        made.append((type(clone).__name__, getattr(clone, "mode", None)))
    clone = lib.set_grad_enabled(False).clone()
    made.append((type(clone).__name__, lib.is_grad_enabled()))
    lib.set_grad_enabled(True)
    return made


def test_grad_mode_switches_clone():
    assert _clones(tapegrad) == [("no_grad", None), ("enable_grad", None),
                                 ("inference_mode", False), ("set_grad_enabled", False)]


@needs_torch
def test_grad_mode_switches_clone_as_torch():
    assert _clones(tapegrad) == _clones(torch)


def _multithreading(lib):
    seen = [lib.autograd.is_multithreading_enabled()]
    with lib.autograd.set_multithreading_enabled(False):
        seen.append(lib.autograd.is_multithreading_enabled())
    seen.append(lib.autograd.is_multithreading_enabled())
    return seen


def test_the_multithreading_switch_is_kept():
    assert _multithreading(tapegrad) == [True, False, True]
    with pytest.raises(TypeError, match="^set_multithreading_enabled\\(\\): argument 'enabled' "):
        tapegrad.autograd.set_multithreading_enabled("no")


@needs_torch
def test_the_multithreading_switch_as_torch():
    assert _multithreading(tapegrad) == _multithreading(torch)


def _write_view_returned_without_graph(lib):
    head = _function(lib, lambda ctx, x: x[:2], lambda ctx, g: g)
    with lib.no_grad():
        y = head.apply(lib.ones(3, requires_grad=True))
    y.mul_(2)


def test_a_view_returned_by_a_function_without_graph_may_not_be_written_with_grad():
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and is being "
                                           "modified inplace with grad mode enabled. This view "
                                           "was created inside a custom Function"):
        _write_view_returned_without_graph(tapegrad)


@needs_torch
def test_a_view_returned_by_a_function_without_graph_written_as_torch():
    assert_same(_write_view_returned_without_graph, torch)


def _leaf_given_up_after_the_graph(T):
    w = T.ones(2, requires_grad=True)
    seen = []
    w.register_post_accumulate_grad_hook(lambda t: seen.append(1))
    y = (w * 2).sum()
    w.requires_grad_(False)
    y.backward()
    return w.grad, len(seen)


@needs_torch
def test_a_leaf_that_stopped_requiring_grad_accumulates_nothing_as_torch():
    assert_same(_leaf_given_up_after_the_graph, torch)


def test_a_leaf_that_stopped_requiring_grad_accumulates_nothing():
    assert _leaf_given_up_after_the_graph(tapegrad) == (None, 1)  # (its hook still runs)
