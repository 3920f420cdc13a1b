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


def checkpoint(function, *args, use_reentrant=None, preserve_rng_state=True, **kwargs):
    """``function(*args)``, keeping only ``args`` for the backward pass.

    Gradients reach the tensors in ``args`` and the parameters ``function`` uses, as PyTorch's
    reentrant checkpoint: at least one input must require grad for gradients to flow at all.
    """
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
        input = checkpoint(_run_chunk(chunk), input, **kwargs)
    return _run_chunk(functions[end + 1:])(input)


def _run_chunk(modules):
    def run(input):
        for module in modules:
            input = module(input)
        return input
    return run
