"""The backward engine: walks the recorded graph from the outputs to the leaves, without recursion.

1. A first pass from the roots counts, for every reachable node, how many edges point at it.
2. Nodes whose gradients are complete (count zero) wait in a heap, newest first (PyTorch's order).
3. A node's incoming gradients are summed, its hooks run, its rule computes the gradients of its
   inputs, and those flow along ``next_functions``. ``AccumulateGrad`` adds into a leaf's ``.grad``.
4. Unless ``retain_graph``, each node drops its saved tensors once it has run.

Backward rules are tapegrad operations, run under ``no_grad`` unless ``create_graph`` is set, when
they are recorded too and give differentiable gradients (higher derivatives).
"""
import heapq

import numpy as np

from ..tensor import Tensor
from . import grad_mode
from .graph import AccumulateGrad

__all__ = ["backward", "grad"]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradients of ``tensors`` and accumulate them into the leaves' ``.grad``."""
    tensors = _as_tuple(tensors)
    roots = _roots(tensors, grad_tensors, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    targets = None
    if inputs is not None:
        inputs = _as_tuple(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        targets = {id(_edge_of(t)[0]): t for t in inputs}
    _run(roots, retain_graph, create_graph, capture=None, accumulate_only=targets)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned instead of accumulated."""
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    for i, t in enumerate(inputs):
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = _roots(outputs, grad_outputs, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    edges = [_edge_of(t) for t in inputs]
    captured = {}
    _run(roots, retain_graph, create_graph, capture=(edges, captured), accumulate_only=None)
    result = []
    for i, (t, edge) in enumerate(zip(inputs, edges)):
        g = captured.get((id(edge[0]), edge[1]))
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                g = Tensor._make(np.zeros_like(t._array))
        result.append(g)
    return tuple(result)


def _as_tuple(x):
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _edge_of(t):
    """The (node, output_nr) where ``t``'s gradient arrives."""
    if t._grad_fn is not None:
        return t._grad_fn, t._output_nr
    return AccumulateGrad.of(t), 0


def _roots(tensors, grad_tensors, create_graph):
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    else:
        grad_tensors = _as_tuple(grad_tensors) if not isinstance(grad_tensors, (list, tuple)) \
            else tuple(grad_tensors)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"grad can be implicitly created only for scalar outputs"
                           if not grad_tensors else
                           f"got {len(grad_tensors)} gradients for {len(tensors)} tensors")
    roots = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a "
                               "grad_fn")
        if g is None:
            if t._array.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = Tensor._make(np.ones_like(t._array))
        elif not isinstance(g, Tensor):
            g = Tensor._make(np.asarray(g, dtype=t._array.dtype))
        elif g._array.shape != t._array.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {_size(g)} and output[{i}] has "
                f"a shape of {_size(t)}.")
        if not create_graph:
            g = g.detach()
        roots.append((_edge_of(t), g))
    return roots


def _size(t):
    return f"torch.Size({list(t._array.shape)})"


def _dependencies(roots):
    """How many edges point at each node reachable from the roots (iterative DFS)."""
    counts = {}
    nodes = {}
    stack = [edge[0] for edge, _ in roots]
    seen = set(id(n) for n in stack)
    for n in stack:
        nodes[id(n)] = n
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            key = id(child)
            counts[key] = counts.get(key, 0) + 1
            if key not in seen:
                seen.add(key)
                nodes[key] = child
                stack.append(child)
    return counts, nodes


def _run(roots, retain_graph, create_graph, capture, accumulate_only):
    counts, _ = _dependencies(roots)
    buffers = {}  # id(node) -> {output_nr: summed gradient}
    ready, queued = [], set()
    for (node, nr), g in roots:
        _deposit(buffers, node, nr, g)
    for (node, _), _ in roots:
        if counts.get(id(node), 0) == 0 and id(node) not in queued:
            queued.add(id(node))
            heapq.heappush(ready, (-node.sequence_nr, id(node), node))

    capture_edges = {(id(n), nr) for n, nr in capture[0]} if capture is not None else None
    user_arrays = {id(g._array) for _, g in roots}
    handed_out = set()  # arrays already stored in some leaf's .grad during this run

    with grad_mode.set_grad_enabled(create_graph):
        while ready:
            _, key, node = heapq.heappop(ready)
            grads = _run_pre_hooks(node, buffers.pop(key))
            if capture_edges is not None:
                for nr, g in grads.items():
                    if (key, nr) in capture_edges:
                        capture[1][(key, nr)] = g
            if type(node) is AccumulateGrad:
                if capture is None and (accumulate_only is None or key in accumulate_only):
                    _accumulate(node.variable, grads.get(0), create_graph, handed_out, user_arrays)
                continue
            output_grads = _complete(node, grads)
            input_grads = node.apply(output_grads)
            if node._hooks:
                for hook in node._hooks:
                    replaced = hook(input_grads, output_grads)
                    if replaced is not None:
                        input_grads = tuple(replaced)
            if not retain_graph:
                node.release()
            for (child, nr), g in zip(node.next_functions, input_grads):
                if child is None:
                    continue
                child_key = id(child)
                if g is not None:
                    _deposit(buffers, child, nr, g)
                counts[child_key] -= 1
                if counts[child_key] == 0 and child_key in buffers:
                    heapq.heappush(ready, (-child.sequence_nr, child_key, child))


def _deposit(buffers, node, nr, g):
    slot = buffers.get(id(node))
    if slot is None:
        buffers[id(node)] = {nr: g}
    elif nr in slot:
        slot[nr] = slot[nr] + g
    else:
        slot[nr] = g


def _run_pre_hooks(node, grads):
    """Tensor hooks (``register_hook``), node pre-hooks, then ``retain_grad``, as PyTorch orders them."""
    tensor_hooks = node._tensor_pre_hooks
    if tensor_hooks:
        for nr, hooks in tensor_hooks.items():
            if nr in grads:
                for hook in hooks:
                    replaced = hook(grads[nr])
                    if replaced is not None:
                        grads[nr] = replaced
    if node._pre_hooks:
        for hook in node._pre_hooks:
            replaced = hook(_complete(node, grads))
            if replaced is not None:
                grads = dict(enumerate(replaced))
    if node._retain_grad_hooks:
        for nr, hooks in node._retain_grad_hooks.items():
            if nr in grads:
                for hook in hooks:
                    hook(grads[nr])
    return grads


def _complete(node, grads):
    """Gradients per output as a tuple; an output nothing flowed into gets None."""
    if len(grads) == 1 and 0 in grads:
        return (grads[0],)
    n = max(grads) + 1 if grads else 1
    return tuple(grads.get(i) for i in range(n))


def _accumulate(leaf, g, create_graph, handed_out, user_arrays):
    """Add ``g`` into ``leaf.grad``, running the leaf's hooks first (PyTorch's AccumulateGrad).

    A fresh gradient array is stored without copying; one that is a view, the caller's own
    ``gradient`` argument, or already stored in another leaf's ``.grad`` is copied first, so that
    no two ``.grad`` tensors share memory (``a.grad.zero_()`` must not clear ``b.grad``).
    """
    if g is None:
        return
    if leaf._hooks:
        for hook in leaf._hooks:
            replaced = hook(g)
            if replaced is not None:
                g = replaced
    if g._array.dtype != leaf._array.dtype:
        g = g.to(leaf.dtype)
    if leaf._grad is None:
        if create_graph:
            leaf._grad = g
            return
        array = g._array
        if array.base is not None or id(array) in handed_out or id(array) in user_arrays:
            array = array.copy()
        handed_out.add(id(array))
        leaf._grad = Tensor._make(array)
    elif create_graph or leaf._grad._requires_grad:
        leaf._grad = leaf._grad + g
    else:
        np.add(leaf._grad._array, g._array, out=leaf._grad._array)
        leaf._grad._version_counter.value += 1
