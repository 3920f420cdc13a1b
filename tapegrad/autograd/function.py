"""``autograd.Function``: user-defined operations with a hand-written backward, as in PyTorch.

```python
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

y = Exp.apply(x)          # y.grad_fn is an <ExpBackward object ...>
```
The node recorded for a call is the ``ctx`` itself (a ``BackwardCFunction``), named after the class.
"""
import numpy as np

from ..tensor import Tensor
from . import grad_mode
from .graph import FREED_MESSAGE, AccumulateGrad, Node

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


class FunctionCtx:
    """What ``forward`` may tell ``backward``: saved tensors, and any attribute it sets."""

    def save_for_backward(self, *tensors):
        self._to_save = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = {id(t) for t in tensors}

    def set_materialize_grads(self, value):
        self._materialize_grads = bool(value)

    @property
    def saved_tensors(self):
        saved = self._saved
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        from ..ops.registry import _modified_message
        result = []
        for tensor, version in saved:
            if tensor is not None and tensor._version_counter.value != version:
                raise RuntimeError(_modified_message(tensor, version, self))
            result.append(tensor)
        return tuple(result)


class BackwardCFunction(Node, FunctionCtx):
    """The node of one ``Function.apply`` call; also its ``ctx``. Has a ``__dict__`` for user state."""

    _function = None  # set on the per-Function subclass

    def __init__(self, next_functions):
        Node.__init__(self, next_functions)
        self._to_save = ()
        self._saved = ()
        self._dirty = ()
        self._non_differentiable = set()
        self._materialize_grads = True
        self._tensor_positions = ()
        self._output_meta = ()

    def apply(self, grads):
        if self._saved is None:
            raise RuntimeError(FREED_MESSAGE)
        if self._materialize_grads:
            grads = tuple(Tensor._make(_zeros(meta)) if g is None else g
                          for g, meta in zip(grads, self._output_meta))
        result = self._function.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = self._n_args
        if len(result) != n_args:
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(
                    f"function {type(self).__name__} returned an incorrect number of gradients "
                    f"(expected {n_args}, got {len(result)})")
        return tuple(result[i] for i in self._tensor_positions)

    def release(self):
        self._saved = None


def _zeros(meta):
    shape, dtype = meta
    return np.zeros(shape, dtype=dtype)


class Function:
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call ``apply``."""

    _node_classes = {}

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your "
                                  "custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def _node_class(cls):
        node_class = Function._node_classes.get(cls)
        if node_class is None:
            node_class = type(f"{cls.__name__}Backward", (BackwardCFunction,), {"_function": cls})
            Function._node_classes[cls] = node_class
        return node_class

    @classmethod
    def apply(cls, *args, **kwargs):
        positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        tensors = [args[i] for i in positions]
        recording = grad_mode.is_grad_enabled() and any(t._requires_grad for t in tensors)
        ctx = cls._node_class()(tuple(
            ((t._grad_fn or AccumulateGrad.of(t)), t._output_nr) if t._requires_grad else (None, 0)
            for t in tensors))
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx._tensor_positions = positions
        ctx._n_args = len(args)
        with grad_mode.no_grad():
            outputs = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        ctx._saved = tuple((t, t._version_counter.value) if t is not None else (None, 0)
                           for t in ctx._to_save)
        ctx._to_save = ()
        if recording:
            outputs = tuple(_attach(ctx, i, out, tensors) for i, out in enumerate(outputs))
            ctx._output_meta = tuple((o._array.shape, o._array.dtype) if isinstance(o, Tensor)
                                     else ((), float) for o in outputs)
        return outputs[0] if single else outputs


def _attach(ctx, index, out, inputs):
    """Make ``out`` the ``index``-th output of ``ctx``'s node."""
    if not isinstance(out, Tensor) or id(out) in ctx._non_differentiable:
        return out
    if out._array.dtype.kind != "f":
        return out
    if any(out is t for t in inputs) and not any(out is d for d in ctx._dirty):
        out = out.detach()  # an input returned unchanged becomes a new tensor of the graph
    out._grad_fn = ctx
    out._output_nr = index
    out._requires_grad = True
    return out


def once_differentiable(backward):
    """Mark a backward as not differentiable again: it runs under ``no_grad``."""
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            return backward(ctx, *grads)
    wrapper.__name__ = backward.__name__
    return wrapper
