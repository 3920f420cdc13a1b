"""The backward node of a compiled call, which runs the fused backward kernel.

Differentiable outputs of one call share one ``CompiledFunctionBackward``; eager ``backward()``
reaches it like any other node and gets one gradient per input that requires grad from a single
kernel call.
"""
import numpy as np

from ..autograd import grad_mode
from ..autograd.graph import FREED_MESSAGE, Node
from ..ops.registry import _modified_message
from ..tensor import Tensor

__all__ = ["CompiledFunctionBackward", "CompiledFunctionBackwardBackward", "kernel_argument"]


def kernel_argument(kind, payload):
    """A constant argument as a kernel takes it: an array C-contiguous (``np.asarray``, not
    ``ascontiguousarray``, which makes a 0-d array 1-d), a BLAS function as it is."""
    return payload if kind == "function" else np.asarray(payload, order="C")


class CompiledFunctionBackward(Node):
    """The backward of a compiled call: one fused kernel for every differentiable input.

    ``apply`` receives the gradients of the call's differentiable outputs and returns one
    gradient per edge in ``next_functions`` (the inputs that require grad), exactly as the
    eager nodes it replaces would have, in one kernel call.
    """

    __slots__ = ("program", "residuals", "saved_sources")

    def __init__(self, next_functions, program, residuals, saved_sources):
        super().__init__(next_functions)
        self.program = program
        self.residuals = residuals
        self.saved_sources = saved_sources

    def apply(self, grads):
        if self.residuals is None:
            raise RuntimeError(FREED_MESSAGE)
        p = self.program
        for tensor, version in self.saved_sources:
            if tensor._version_counter.value != version:
                raise RuntimeError(_modified_message(tensor, version, self))
        grads = tuple(grads) + (None,) * (len(p.cotangent_types) - len(grads))
        # np.asarray(order="C"), not ascontiguousarray: that makes a 0-d gradient 1-d, and the
        # kernel compiled for 0-d would be compiled again for it
        cotangents = [np.zeros(shape, dtype) if grad is None else
                      np.asarray(grad._array, dtype, order="C")
                      for grad, (shape, dtype) in zip(grads, p.cotangent_types)]
        sources = iter(t._array for t, _ in self.saved_sources)
        arguments = []
        for kind, payload in p.backward_args:
            if kind == "saved":  # C-contiguous, as the kernel was compiled (and BLAS told)
                arguments.append(np.asarray(self.residuals[payload], order="C"))
            elif kind == "source":
                arguments.append(np.asarray(next(sources), order="C"))
            elif kind == "cotangent":
                arguments.append(cotangents[payload])
            else:
                arguments.append(kernel_argument(kind, payload))
        results = p.backward(*arguments)
        grads = tuple(None if k is None else Tensor._make(results[k]) for k in p.wrt_results)
        if grad_mode.is_grad_enabled():  # create_graph=True: the kernel has no derivative
            node = CompiledFunctionBackwardBackward(())
            for grad in grads:
                if grad is not None:
                    grad._grad_fn, grad._requires_grad = node, True
        return grads

    def release(self):
        self.residuals = None
        self.saved_sources = None


class CompiledFunctionBackwardBackward(Node):
    """The grad_fn of gradients a compiled backward made under ``create_graph=True``: as in
    PyTorch, differentiating them again is an error, not a silent zero."""

    __slots__ = ()

    def apply(self, grads):
        raise RuntimeError("torch.compile with aot_autograd does not currently support double "
                           "backward")
