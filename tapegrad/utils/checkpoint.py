"""Gradient checkpointing: trade compute for memory by recomputing a segment's forward in backward.

``checkpoint(fn, *args)`` runs ``fn`` without recording, so none of its intermediate results is
kept alive by the graph; only the inputs are saved. When the backward pass reaches the segment,
``fn`` is run again with recording on (with the random state it saw the first time, so dropout
draws the same mask) and the gradient flows through that fresh graph.
"""
import warnings

from .. import random
from ..autograd import Function, grad_mode
from ..autograd.engine import backward as run_backward
from ..autograd.graph import saved_tensors_hooks
from ..ops.registry import _modified_message
from ..tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]


class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, function, preserve_rng_state, *args):
        ctx.function = function
        ctx.rng_state = random.get_rng_state() if preserve_rng_state else None
        ctx.save_for_backward(*(a for a in args if isinstance(a, Tensor)))
        ctx.arguments = [None if isinstance(a, Tensor) else a for a in args]
        return function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        saved = iter(ctx.saved_tensors)
        inputs = [next(saved) if a is None else a for a in ctx.arguments]
        detached = [a.detach().requires_grad_(a._requires_grad) if isinstance(a, Tensor) else a
                    for a in inputs]
        outputs = _recompute(ctx.function, ctx.rng_state, detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs)
                 if isinstance(o, Tensor) and o._requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        run_backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *(a._grad if isinstance(a, Tensor) else None for a in detached))


def _recompute(function, rng_state, inputs):
    """``function(*inputs)`` with recording on, under the random state of the first run."""
    if rng_state is None:
        with grad_mode.enable_grad():
            return function(*inputs)
    current = random.get_rng_state()
    random.set_rng_state(rng_state)
    try:
        with grad_mode.enable_grad():
            return function(*inputs)
    finally:
        random.set_rng_state(current)


class _Recomputation:
    """The non-reentrant checkpoint of one call: the call is recorded as usual, but what its
    operations save for backward is only a position; the first backward step that needs a saved
    tensor reruns the function (under the same random state) and takes its saved tensors."""

    def __init__(self, function, args, kwargs, rng_state):
        self.function, self.args, self.kwargs, self.rng_state = function, args, kwargs, rng_state
        self.versions = [(a, a._version_counter.value) for a in args if isinstance(a, Tensor)]
        self.count = 0
        self.recomputed = None

    def pack(self, tensor):
        self.count += 1
        return self.count - 1

    def unpack(self, position):
        if self.recomputed is None:
            self._recompute()
        return self.recomputed[position]

    def _recompute(self):
        for tensor, version in self.versions:  # the rerun must see the inputs of the first run
            if tensor._version_counter.value != version:
                raise RuntimeError(_modified_message(tensor, version, None))
        saved = []
        inputs = [a.detach().requires_grad_(a._requires_grad) if isinstance(a, Tensor) else a
                  for a in self.args]
        with saved_tensors_hooks(lambda t: saved.append(t) or len(saved) - 1, saved.__getitem__):
            _recompute(lambda *a: self.function(*a, **self.kwargs), self.rng_state, inputs)
        self.recomputed = saved


def checkpoint(function, *args, use_reentrant=None, preserve_rng_state=True, **kwargs):
    """``function(*args, **kwargs)``, keeping only what is needed to run it again for the
    backward pass.

    ``use_reentrant=False`` (PyTorch's recommendation): the call is recorded as usual but keeps
    none of its intermediate results; gradients reach everything it used, parameters included.
    Otherwise (the default, as in PyTorch) the reentrant form: the segment is one node whose
    backward reruns it, and at least one input must require grad for gradients to flow at all.
    """
    if use_reentrant is False:
        if not grad_mode.is_grad_enabled():
            return function(*args, **kwargs)
        rng_state = random.get_rng_state() if preserve_rng_state else None
        frame = _Recomputation(function, args, kwargs, rng_state)
        with saved_tensors_hooks(frame.pack, frame.unpack):
            return function(*args, **kwargs)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if grad_mode.is_grad_enabled() and not any(isinstance(a, Tensor) and a._requires_grad
                                              for a in args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")
    return CheckpointFunction.apply(function, preserve_rng_state, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run a Sequential (or list of modules) in ``segments`` checkpointed chunks."""
    functions = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        chunk = functions[start:end + 1]
        input = checkpoint(_run_chunk(chunk), input, use_reentrant=use_reentrant, **kwargs)
    return _run_chunk(functions[end + 1:])(input)


def _run_chunk(modules):
    def run(input):
        for module in modules:
            input = module(input)
        return input
    return run
