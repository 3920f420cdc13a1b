"""Gradient checkpointing: trade compute for memory by recomputing a segment's forward in backward.

``checkpoint(fn, *args)`` runs ``fn`` without recording, so none of its intermediate results is
kept alive by the graph; only the inputs are saved. When the backward pass reaches the segment,
``fn`` is run again with recording on (with the random state it saw the first time, so dropout
draws the same mask) and the gradient flows through that fresh graph.
"""
import contextlib
import enum
import warnings

from .. import random
from ..autograd import Function, grad_mode
from ..autograd.engine import backward as run_backward
from ..autograd.graph import saved_tensors_hooks
from ..ops.registry import _modified_message
from ..tensor import Tensor
from .._warnings import warn_at_caller

__all__ = ["checkpoint", "checkpoint_sequential", "noop_context_fn", "CheckpointError",
           "CheckpointPolicy", "set_checkpoint_early_stop"]


class CheckpointError(RuntimeError):
    """The recomputation of a non-reentrant checkpoint did not save what the forward saved."""


class CheckpointPolicy(enum.Enum):
    """What selective checkpointing does with one operation's output (PyTorch's names and
    values; ``MUST_*`` may not be overridden by other subsystems, ``PREFER_*`` may)."""
    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""

_early_stop_override = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Override ``early_stop`` for the checkpoints whose forward runs inside the block: with
    ``False`` a recomputation that saves more tensors than the forward is an error instead of
    being cut short."""
    global _early_stop_override
    previous = _early_stop_override
    _early_stop_override = enable
    try:
        yield
    finally:
        _early_stop_override = previous


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
        if _walk_has_targets():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                "passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the `inputs` "
                "argument.")
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


def _walk_has_targets():
    """Whether the running backward walk is a ``grad()`` or ``backward(inputs=)`` one: the
    reentrant backward would run a whole walk of its own that ignores those targets."""
    walk = grad_mode._state.walk
    return walk is not None and walk[2] is not None


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


class _StopRecomputation(Exception):
    """Raised by a recomputation's pack hook once every saved tensor is back (early stop, as
    PyTorch's: what follows in the checkpointed function, forward hooks included, does not
    run again)."""


class _Recomputation:
    """The non-reentrant checkpoint of one call: the call is recorded as usual, but what its
    operations save for backward is only a position; the first backward step that needs a saved
    tensor reruns the function (under the same random state) and takes its saved tensors."""

    def __init__(self, function, args, kwargs, rng_state, recompute_context, metadata, early_stop):
        self.function, self.args, self.kwargs, self.rng_state = function, args, kwargs, rng_state
        self.recompute_context = recompute_context
        self.metadata, self.early_stop = metadata, early_stop
        self.versions = [(a, a._version_counter.value) for a in args if isinstance(a, Tensor)]
        self.saved_metadata = []
        self.recomputed = None

    def pack(self, tensor):
        self.saved_metadata.append(self.metadata(tensor))
        return len(self.saved_metadata) - 1

    def unpack(self, position):
        if self.recomputed is None:
            self._recompute()
        return self.recomputed[position]

    def _recompute(self):
        for tensor, version in self.versions:  # the rerun must see the inputs of the first run
            if tensor._version_counter.value != version:
                raise RuntimeError(_modified_message(tensor, version, None))
        saved = []

        def pack(tensor):
            saved.append(tensor)
            if self.early_stop and len(saved) == len(self.saved_metadata):
                raise _StopRecomputation  # all saved tensors are back: the rest need not run
            return len(saved) - 1

        # The rerun takes the original inputs, as PyTorch's does: the tensors it saves then carry
        # their history, so a backward with create_graph=True can be differentiated again.
        try:
            with saved_tensors_hooks(pack, saved.__getitem__):
                with self.recompute_context:
                    _recompute(lambda *a: self.function(*a, **self.kwargs), self.rng_state,
                               self.args)
        except _StopRecomputation:
            pass
        self.recomputed = self._matching(saved)

    def _matching(self, saved):
        """The recomputed saved tensors, checked against the forward's as PyTorch checks them:
        as many (extra ones are dropped under early stop, else an error), same metadata."""
        expected = len(self.saved_metadata)
        if len(saved) > expected and not self.early_stop:
            raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during "
                                  "recomputation than during the original forward pass.\n"
                                  + _DEBUG_TIP)
        saved = saved[:expected]
        if len(saved) < expected:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\nNumber of tensors saved during forward: "
                f"{expected}\nNumber of tensors saved during recomputation: {len(saved)}.\n"
                + _DEBUG_TIP)
        self._check_metadata(saved)
        return saved

    def _check_metadata(self, saved):
        mismatches = "".join(
            f"tensor at position {i}:\nsaved metadata: {before}\nrecomputed metadata: {after}\n"
            for i, (before, after) in enumerate(zip(self.saved_metadata, map(self.metadata, saved)))
            if before != after)
        if mismatches:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{mismatches}.\n" + _DEBUG_TIP)


def _tensor_metadata(tensor):
    """What ``determinism_check="default"`` compares between forward and recomputation."""
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


_DETERMINISM_CHECKS = {"default": _tensor_metadata, "none": lambda tensor: None}


def noop_context_fn():
    """The default ``context_fn``: no context around the forward nor the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check="default", debug=False, early_stop=True, **kwargs):
    """``function(*args, **kwargs)``, keeping only what is needed to run it again for the
    backward pass.

    ``use_reentrant=False`` (PyTorch's recommendation): the call is recorded as usual but keeps
    none of its intermediate results; gradients reach everything it used, parameters included.
    Otherwise (the default, with a warning, as in PyTorch) the reentrant form: the segment is one
    node whose backward reruns it, and at least one input must require grad for gradients to flow.
    ``preserve_rng_state`` travels in ``kwargs``, as in PyTorch. The recomputation always runs
    to the end; ``early_stop`` (or ``set_checkpoint_early_stop``) decides whether tensors it
    saves beyond the forward's are dropped or an error.
    """
    if use_reentrant is None:
        warn_at_caller(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.")
        use_reentrant = True
    preserve_rng_state = kwargs.pop("preserve_rng_state", True)
    if use_reentrant:
        return _checkpoint_reentrant(function, args, kwargs, preserve_rng_state, context_fn, debug)
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(f"determinism_check should be one of {list(_DETERMINISM_CHECKS)}, "
                         f"but got {determinism_check}")
    forward_context, recompute_context = context_fn()
    rng_state = random.get_rng_state() if preserve_rng_state else None
    if _early_stop_override is not None:
        early_stop = _early_stop_override
    frame = _Recomputation(function, args, kwargs, rng_state, recompute_context,
                           _DETERMINISM_CHECKS[determinism_check], early_stop)
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


def _checkpoint_reentrant(function, args, kwargs, preserve_rng_state, context_fn, debug):
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if context_fn is not noop_context_fn or debug is not False:
        raise ValueError("Passing `context_fn` or `debug` is only supported when "
                         "use_reentrant=False.")
    if grad_mode.is_grad_enabled() and not any(isinstance(a, Tensor) and a._requires_grad
                                              for a in args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")
    return CheckpointFunction.apply(function, preserve_rng_state, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run a Sequential (or list of modules) in ``segments`` checkpointed chunks."""
    if use_reentrant is None:
        warn_at_caller(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is not "
            "passed. use_reentrant=False is recommended, but if you need to preserve the current "
            "default behavior, you can pass use_reentrant=True. Refer to docs for more details "
            "on the differences between the two variants.")
        use_reentrant = True
    preserve_rng_state = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    functions = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        chunk = functions[start:end + 1]
        input = checkpoint(_run_chunk(chunk), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve_rng_state)
    return _run_chunk(functions[end + 1:])(input)


def _run_chunk(modules):
    def run(input):
        for module in modules:
            input = module(input)
        return input
    return run
