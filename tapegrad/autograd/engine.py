"""The backward engine: walks the recorded graph from the outputs to the leaves, without recursion.

1. A first pass from the roots counts, for every node the walk visits, how many edges point at it.
   ``grad()`` and ``backward(inputs=...)`` visit only the nodes on a path to the requested tensors
   (PyTorch's ``exec_info``): other branches are neither computed nor freed.
2. Nodes whose gradients are complete (count zero) wait in a heap, newest first (PyTorch's order;
   leaves' ``AccumulateGrad`` first of all).
3. A node's incoming gradients are summed, its hooks run, its rule computes the gradients of its
   inputs, and those flow along ``next_functions``. ``AccumulateGrad`` adds into a leaf's ``.grad``.
4. Unless ``retain_graph``, each node drops its saved tensors once it has run.

Backward rules are tapegrad operations, run under ``no_grad`` unless ``create_graph`` is set, when
they are recorded too and give differentiable gradients (higher derivatives).
"""
import heapq
import itertools
from collections.abc import Mapping
import sys
import warnings

import numpy as np

from .. import _profiling
from .._warnings import keep_numpy_quiet, warn_at_caller
from ..memory_format import is_non_overlapping_and_dense
from ..tensor import Tensor
from . import anomaly_mode, grad_mode
from . import function as _function
from .graph import AccumulateGrad, GradientEdge

__all__ = ["backward", "grad"]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradients of ``tensors`` and accumulate them into the leaves' ``.grad``.

    With ``inputs``, only those tensors' ``.grad`` is accumulated into (a non-leaf among them is
    made to ``retain_grad()``, as in PyTorch).
    """
    if _function.active_transforms:  # (autograd.grad is allowed: transforms use it too)
        raise RuntimeError("backward() called inside a functorch transform. This is not "
                           "supported, please use functorch.grad or functorch.vjp instead or "
                           "call backward() outside of functorch transforms.")
    tensors = _as_tuple(tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    roots = _roots(tensors, grad_tensors, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        _warn_create_graph_cycle()
    targets = None
    if inputs is not None:
        if not all(t._requires_grad for t in inputs):
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        for t in inputs:
            t.retain_grad()
        targets = [_edge_of(t) for t in inputs]
    _run(roots, retain_graph, create_graph, targets, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned instead of accumulated
    (a dict of them for a dict of inputs, such as ``dict(model.named_parameters())``).
    ``only_inputs`` is PyTorch's deprecated, ignored flag."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    names = None
    if type(inputs) is dict:
        names, inputs = tuple(inputs), tuple(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    if is_grads_batched:
        result = _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                               allow_unused, materialize_grads)
    else:
        result = _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                       materialize_grads)
    return result if names is None else dict(zip(names, result))


def _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
          materialize_grads):
    if allow_unused is None:
        allow_unused = materialize_grads
    roots = _roots(outputs, grad_outputs, create_graph)  # PyTorch checks the outputs first
    for t in inputs:
        if isinstance(t, Tensor) and not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    edges = [_edge_of(t) for t in inputs]
    captured = _run(roots, retain_graph, create_graph, edges, accumulate=False)
    result = []
    for i, (t, edge) in enumerate(zip(inputs, edges)):
        g = captured.get(edge)
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                g = Tensor._make(np.zeros_like(t._array))
        result.append(g)
    return tuple(result)


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """``grad(..., is_grads_batched=True)``: row k of every grad_output gives one
    vector-Jacobian product, and the results are stacked (PyTorch vmaps the backward). The graph
    is kept until the last row, which frees it unless ``retain_graph``."""
    rows = _batched_grad_outputs(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    per_row = [_grad(outputs, inputs, row, retain_graph or k < len(rows) - 1, create_graph,
                     allow_unused=True, materialize_grads=False)
               for k, row in enumerate(rows)]
    from ..ops.shape import stack
    result = []
    for i, t in enumerate(inputs):
        column = [grads[i] for grads in per_row]
        if any(g is None for g in column) or not column:
            g = None
        else:
            g = stack(column)
        if g is None and not (allow_unused or materialize_grads):
            raise RuntimeError(
                f"The differentiated Tensor at index {i} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior.")
        if g is None and materialize_grads:  # unbatched, as PyTorch's zeros_like(input)
            g = Tensor._make(np.zeros_like(t._array)).requires_grad_(create_graph)
        result.append(g)
    return tuple(result)


def _batched_grad_outputs(outputs, grad_outputs):
    """The grad_outputs split into rows along their first (batch) dimension, checked with
    PyTorch's messages (a missing one is the implicit scalar 1., which has no batch dimension)."""
    grads = (None,) * len(outputs) if grad_outputs is None else _as_tuple(grad_outputs)
    batched = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._array.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                             "but that input is a Tensor of dimensionality 0 so expected in_dim to "
                             "satisfy 0 <= in_dim < 0.")
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        first = g[0]  # PyTorch's own IndexError for a 0-d or empty batch
        if first._array.shape != out._array.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                "as the batch dimension. The sizes of the remaining dimensions are expected to "
                f"match the shape of corresponding output, but a mismatch was detected: "
                f"grad_output[{i}] has a shape of torch.Size({list(first._array.shape[1:])}) and "
                f"output[{i}] has a shape of {_size(out)}. If you only want some tensors in "
                "`grad_output` to be considered batched, consider using vmap.")
        batched.append(g)
    sizes = [g._array.shape[0] for g in batched]
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return [tuple(g[k] for g in batched) for k in range(sizes[0] if sizes else 0)]


_create_graph_warned = False


def _warn_create_graph_cycle():
    """PyTorch's warning, once per process: a differentiable .grad points back at its leaf."""
    global _create_graph_warned
    if not _create_graph_warned:
        _create_graph_warned = True
        warn_at_caller(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.")


def _as_tuple(x):
    if isinstance(x, (Tensor, GradientEdge)) or x is None:
        return (x,)
    return tuple(x)


def _edge_of(t):
    """The (node, output_nr) where ``t``'s gradient arrives (``t`` may be that GradientEdge)."""
    if isinstance(t, GradientEdge):
        return t.node, t.output_nr
    grad_fn = t.grad_fn  # the property: a stale view's history is regenerated first
    if grad_fn is not None:
        return grad_fn, t._output_nr
    return AccumulateGrad.of(t), 0


def _roots(tensors, grad_tensors, create_graph):
    """Each output's edge with its starting gradient. Checks everything before anything runs."""
    grads = (None,) * len(tensors) if grad_tensors is None else _as_tuple(grad_tensors)
    for g in grads:  # PyTorch checks the types before the count
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    roots = []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if not t._requires_grad or _is_view_made_without_grad(t):
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a "
                               "grad_fn")
        if g is None:
            if t._array.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if t._array.dtype.kind == "c":
                raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                   f"but got {t.dtype}")
            shape, dtype = t._array.shape, t._array.dtype
            # np.array(1) is a fifth of np.ones' cost, and a 0-d loss is the common case
            g = Tensor._make(np.array(1, dtype) if not shape else np.ones(shape, dtype))
        elif g._array.shape != t._array.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {_size(g)} and output[{i}] "
                f"has a shape of {_size(t)}.")
        else:
            if g._array.dtype != t._array.dtype:  # PyTorch casts a given gradient to the output's
                g = g.to(t.dtype)
            if not create_graph:
                g = g.detach()
        roots.append((_edge_of(t), g))
    return roots


def _is_view_made_without_grad(t):
    """A view made under no_grad of a tensor that requires grad: it requires grad but has no
    history, and its gradient goes nowhere (see ``registry._mark_view_made_without_grad``)."""
    return t._grad_fn is None and t._view_made_without_grad is not None


def _size(t):
    return f"torch.Size({list(t._array.shape)})"


def _count_all(roots):
    """How many edges point at each node reachable from the roots (iterative DFS).

    Here and below nodes are dictionary keys: they hash and compare by identity."""
    counts = {}
    stack = [node for (node, _), _ in roots]
    seen = set(stack)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child in counts:
                counts[child] += 1
            else:
                counts[child] = 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return counts


def _plan_for_targets(roots, targets, accumulate):
    """For ``grad()``/``backward(inputs=)``: the nodes that must run, those the walk visits, counts.

    A node runs when a target lies below it. A target node is visited (its gradient is captured
    there) but runs only when ``backward`` accumulates: a leaf's AccumulateGrad must, and PyTorch
    runs a non-leaf input's node as well.
    """
    target_nodes = {node for node, _ in targets}
    post_order = []  # every node after all the nodes below it
    seen = set()
    for (root, _), _ in roots:
        if root not in seen:
            seen.add(root)
            _post_order(root, seen, post_order)
    runs, counts = set(), {}
    for node in post_order:  # children first, so whether they run is already known
        wanted = [child for child, _ in node.next_functions
                  if child is not None and (child in runs or child in target_nodes)]
        if wanted or (accumulate and node in target_nodes):
            runs.add(node)
            for child in wanted:
                counts[child] = counts.get(child, 0) + 1
    visits = runs | (target_nodes & seen)
    return runs, visits, counts


def _post_order(root, seen, out):
    stack = [(root, iter(root.next_functions))]
    while stack:
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append((child, iter(child.next_functions)))
                break
        else:
            stack.pop()
            out.append(node)


def _run(roots, retain_graph, create_graph, targets, accumulate):
    """Walk the graph. ``accumulate``: into leaves' ``.grad``; otherwise the gradients arriving at
    ``targets`` are captured and returned, keyed by ``(node, output_nr)``."""
    if targets is None:
        counts, runs, visits = _count_all(roots), None, None
    else:
        runs, visits, counts = _plan_for_targets(roots, targets, accumulate)
    keep_numpy_quiet()  # (gradients are summed with np.add)
    captures = () if accumulate else set(targets)
    capture_nodes = {node for node, _ in captures}
    captured = {}
    # Arrays something outside this walk may hold (the caller's gradients, whatever hooks return,
    # what one leaf's .grad already keeps): never stored in a .grad without a copy.
    shared = {id(g._array) for _, g in roots}

    buffers = {}  # node -> {output_nr: summed gradient}
    ready = []  # heap of (-sequence_nr, tie-breaker, node)
    tie = itertools.count()
    for (node, nr), g in roots:
        _deposit(buffers, node, nr, g)
    for node in {node: None for (node, _), _ in roots}:  # each root once, in order
        if node not in counts and (visits is None or node in visits):
            heapq.heappush(ready, (-node.sequence_nr, next(tie), node))

    heappush, heappop = heapq.heappush, heapq.heappop
    check_nan = anomaly_mode._settings.enabled and anomaly_mode._settings.check_nan
    state = grad_mode._state
    grad_was_enabled, state.grad_enabled = state.grad_enabled, create_graph
    outer_walk, state.walk = state.walk, (counts, roots, visits, capture_nodes)
    recorder, profiled = _profiling.active, None  # a profiler's events for the current node
    try:
        while ready:
            node = heappop(ready)[2]
            if recorder is not None:
                profiled = recorder.node_started(node, profiled)
            grads = buffers.pop(node, None)
            if grads is None:
                input_grads = None  # no gradient reached this node: its inputs get none from it
            elif node._hooks is None and type(node) is not AccumulateGrad and not (
                    node.gradients_may_be_shared or node in capture_nodes
                    or runs is not None and node not in runs):
                input_grads = node.apply(  # the common case, kept lean
                    (grads[0],) if len(grads) == 1 and 0 in grads else _complete(grads))
            elif type(node) is AccumulateGrad and runs is None and node._hooks is None \
                    and not node.variable._hooks:  # a leaf's .grad, no hooks: also kept lean
                if 0 in grads:
                    _accumulate(node.variable, grads[0], create_graph, shared)
                continue
            elif node in capture_nodes:
                node_runs = node in runs
                if node_runs:
                    _capture(captured, captures, node, grads)  # PyTorch captures before the hooks
                grads = _tensor_pre_hooks(node, grads, shared)  # when the node runs on
                if not node_runs:
                    _capture(captured, captures, node, grads)
                    continue
                input_grads = _call(node, grads, create_graph, shared)
            elif runs is not None and node not in runs:
                continue
            else:
                input_grads = _call(node, _tensor_pre_hooks(node, grads, shared), create_graph,
                                    shared)
            if check_nan and input_grads:
                anomaly_mode.check_gradients(node, input_grads)
            if not retain_graph:
                node.release()
            if input_grads is None:
                input_grads = (None,) * len(node.next_functions)
            for (child, nr), g in zip(node.next_functions, input_grads):
                if child is None or (visits is not None and child not in visits):
                    continue
                if g is not None:
                    slot = buffers.get(child)
                    if slot is None:  # _deposit, spelled out for the first gradient to arrive
                        buffers[child] = {nr: g}
                    else:
                        _deposit(buffers, child, nr, g)
                remaining = counts[child] - 1
                counts[child] = remaining
                if remaining == 0:
                    heappush(ready, (-child.sequence_nr, next(tie), child))
    finally:
        state.grad_enabled = grad_was_enabled
        state.walk = outer_walk
        if recorder is not None:
            recorder.node_started(None, profiled)
    return captured


def _capture(captured, captures, node, grads):
    for nr, g in grads.items():
        if (node, nr) in captures:
            captured[(node, nr)] = g


def _deposit(buffers, node, nr, g):
    """Add ``g`` to what arrived for output ``nr`` of ``node`` (a tensor used twice gets both)."""
    slot = buffers.get(node)
    if slot is None:
        buffers[node] = {nr: g}
    elif nr in slot:
        slot[nr] = _sum_gradients(slot[nr], g)
    else:
        slot[nr] = g


def _sum_gradients(held, g):
    """``held + g``, written into ``held``'s array when only this walk can see it.

    As PyTorch's InputBuffer does (it checks the tensor's use count), a tensor used by several
    operations then gathers its gradients in one array instead of a new array per use. The
    reference counts prove no one else holds the tensor or its array: the buffer entry, this
    frame's name and ``getrefcount``'s own argument account for three references to each.
    """
    if (type(held) is not Tensor or type(g) is not Tensor) and (held.is_sparse or g.is_sparse):
        return g + held if held.is_sparse and not g.is_sparse else held + g
    array, other = held._array, g._array
    if (not (held._requires_grad or g._requires_grad) and array.base is None
            and _function.forward_ad_level is None  # (else the sum's tangent must be recorded)
            and array.flags.writeable and array.shape == other.shape and array.dtype == other.dtype
            and sys.getrefcount(held) == 3 and sys.getrefcount(array) == 3):
        np.add(array, other, out=array)
        return held
    return held + g


def _tensor_pre_hooks(node, grads, shared):
    """Hooks registered on tensors (``register_hook``; a leaf's run at its AccumulateGrad), then
    ``retain_grad``, as PyTorch orders them."""
    if type(node) is AccumulateGrad:
        hooks = node.variable._hooks
        if hooks and 0 in grads:
            for hook in tuple(hooks):
                _apply_tensor_hook(hook, grads, 0, shared)
        return grads
    table = node._hooks
    if table is None:
        return grads
    for nr, hooks in table.tensor.items():
        if nr in grads:
            for hook in tuple(hooks):
                _apply_tensor_hook(hook, grads, nr, shared)
    for nr, hooks in table.retain_grad.items():
        if nr in grads:
            for hook in hooks:
                hook(grads[nr])
    return grads


def _apply_tensor_hook(hook, grads, nr, shared):
    replaced = _checked_hook_result(hook, grads[nr], hook(grads[nr]))
    if replaced is not None:
        shared.add(id(replaced._array))
        grads[nr] = replaced


def _checked_hook_results(hook, originals, replaced):
    """A node hook's replacement gradients, refused as PyTorch refuses them: a tuple with one
    entry per gradient, each checked as ``_checked_hook_result``."""
    if not isinstance(replaced, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(replaced).__name__}'")
    if len(replaced) != len(originals):
        raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect number of values "
                           f"(got {len(replaced)}, but expected {len(originals)})")
    for original, value in zip(originals, replaced):
        _checked_hook_result(hook, original, value)
    return replaced


def _checked_hook_result(hook, original, replaced):
    """What a hook returned for one gradient: None (keep it) or a tensor of its dtype and shape."""
    if replaced is None:
        return None
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(replaced, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(replaced).__name__}'")
    if replaced._array.dtype != original._array.dtype:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value (was "
                           f"{original.type()} got {replaced.type()})")
    if replaced._array.shape != original._array.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")
    return replaced


def _hook_name(hook):
    return getattr(hook, "__name__", "<unknown>")


def _call(node, grads, create_graph, shared):
    """Run one node with its node hooks (the walk's slow path); the gradients for its inputs."""
    table = node._hooks
    if table is not None:
        for hook in tuple(table.pre):
            originals = _complete(grads, node.output_count)
            replaced = hook(originals)
            if replaced is not None:
                _checked_hook_results(hook, originals, replaced)
                shared.update(id(g._array) for g in replaced if g is not None)
                grads = dict(enumerate(replaced))
    output_grads = _complete(grads, node.output_count if table is not None else None)
    if type(node) is AccumulateGrad:
        if output_grads[0] is not None:
            _accumulate(node.variable, output_grads[0], create_graph, shared)
        input_grads = ()
    else:
        input_grads = node.apply(output_grads)
        if node.gradients_may_be_shared:
            shared.update(id(g._array) for g in input_grads if g is not None)
    if table is not None:
        if table.post and not isinstance(node, _function.BackwardCFunction):
            input_grads = _unneeded_as_none(node, input_grads)
        for hook in tuple(table.post):
            replaced = hook(input_grads, output_grads)
            if replaced is not None:
                input_grads = _checked_hook_results(hook, input_grads, replaced)
                shared.update(id(g._array) for g in input_grads if g is not None)
    return input_grads


def _unneeded_as_none(node, input_grads):
    """None for the inputs this walk does not need (those of ``grad()`` or ``backward(inputs=)``
    that lead to no target): PyTorch's built-in nodes leave them uncomputed, so post hooks see
    None (a custom Function's backward gives what it computed)."""
    visits = grad_mode._state.walk[2]
    if visits is None or len(input_grads) != len(node.next_functions):
        return input_grads
    return tuple(g if child in visits else None
                 for (child, _), g in zip(node.next_functions, input_grads))


def _complete(grads, count=None):
    """Gradients per output as a tuple (``count`` outputs, where known); an output nothing
    flowed into gets None."""
    n = max(max(grads) + 1 if grads else 1, count or 0)
    if n == 1 and 0 in grads:
        return (grads[0],)
    return tuple(grads.get(i) for i in range(n))


def _accumulate(leaf, g, create_graph, shared):
    """Add ``g`` into ``leaf.grad``, then run the leaf's post-accumulate-grad hooks (these run,
    as PyTorch's, for a leaf that no longer requires grad, whose ``.grad`` is left alone)."""
    if leaf._requires_grad:
        _add_into_grad(leaf, g, create_graph, shared)
    hooks = leaf._post_accumulate_grad_hooks
    if hooks:
        for hook in tuple(hooks):
            returned = hook(leaf)
            if returned is not None:
                raise TypeError(f"expected Variable, but hook returned '{type(returned).__name__}'")


def _add_into_grad(leaf, g, create_graph, shared):
    """Add ``g`` into ``leaf.grad`` (PyTorch's AccumulateGrad).

    The first gradient is stored without a copy when the walk made its array and nothing else
    holds it; otherwise it is copied, so that no two ``.grad`` tensors share memory
    (``a.grad.zero_()`` must not clear ``b.grad``). Later gradients are added in place, or out of
    place under ``create_graph`` so that the sum stays differentiable.
    """
    current = leaf._grad
    if (type(g) is not Tensor or type(current) not in (Tensor, type(None))) and (
            g.is_sparse or (current is not None and current.is_sparse)):
        # a sparse gradient (nn.Embedding(sparse=True)) is kept sparse while every one is;
        # a dense one joining it makes the sum dense
        leaf._grad = g if current is None else current + g if g.is_sparse else g + current
        return
    if g._array.dtype != leaf._array.dtype:
        g = g.to(leaf.dtype)
    if current is None:
        if create_graph:
            # A copy recorded on the tape (CopyBackwards, as PyTorch): .grad stays differentiable
            leaf._grad = Tensor._make(np.empty(g._array.shape, g._array.dtype)).copy_(g)
            return
        array = g._array
        if id(array) in shared or not _sole_owner(g):
            array = _copy_in_layout(array, leaf._array)
        elif array.strides != leaf._array.strides and _dense_otherwise(leaf._array):
            array = _copy_in_layout(array, leaf._array)
        shared.add(id(array))
        leaf._grad = Tensor._make(array)
    elif create_graph or current._requires_grad:
        leaf._grad = current + g
    elif _function.forward_ad_level is not None:
        current.add_(g)  # through the op table: the sum's tangent is recorded too
    else:
        np.add(current._array, g._array, out=current._array)
        current._version_counter.value += 1


def _dense_otherwise(array):
    """Whether ``array`` is laid out densely in an order other than C's (channels_last, a
    transpose): PyTorch's AccumulateGrad gives such a leaf's ``.grad`` the leaf's strides."""
    return not array.flags.c_contiguous and is_non_overlapping_and_dense(array)


def _copy_in_layout(array, leaf):
    """A copy of the gradient ``array`` laid out as ``leaf`` when that is dense in another order,
    else in C order (PyTorch's layout contract for ``.grad``)."""
    if not _dense_otherwise(leaf):
        return array.copy()
    out = np.empty_like(leaf)  # the leaf's stride order
    out[...] = array
    return out


def _sole_owner(tensor):
    """Whether ``tensor``'s array can become a ``.grad`` as it is: an array of its own, or a
    C-contiguous view of all of a base that nothing else holds (a Linear weight's gradient
    arrives as the transpose of the product the rule computed).

    Reference counts prove the base unshared: the view's reference, this frame's name and
    ``getrefcount``'s argument, plus the base tensor's when the view tensor keeps it as ``_base``
    (which then must be held by nothing else)."""
    array = tensor._array
    base = array.base
    if base is None:
        return True
    base_tensor = tensor._base
    kept = base_tensor is not None and base_tensor._array is base
    return (type(base) is np.ndarray and base.base is None and array.size == base.size
            and array.flags.c_contiguous and array.flags.writeable
            and sys.getrefcount(base) == 3 + kept
            and (not kept or sys.getrefcount(base_tensor) == 3))
