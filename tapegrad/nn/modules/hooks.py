"""Module hooks: removable handles, and the identity node that lets a module see its gradients.

A full backward hook needs the gradients with respect to a module's inputs and outputs taken
together. As PyTorch does, the module's tensor inputs and outputs are passed through an identity
``BackwardHookFunction``: the node on the outputs collects the output gradients (and runs the
backward pre-hooks), the node on the inputs hands both sets to the user's hooks.
"""
import itertools
import weakref

from ..._warnings import warn_at_caller
from ...autograd.function import Function
from ...tensor import Tensor

__all__ = ["RemovableHandle", "BackwardHookFunction", "BackwardHook"]


class RemovableHandle:
    """Returned by every ``register_*_hook``: ``remove()`` unregisters the hook (also on leaving
    a ``with`` block)."""

    _ids = itertools.count()

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._ids)
        self.extra_dict_refs = () if extra_dict is None else tuple(
            weakref.ref(d) for d in (extra_dict if isinstance(extra_dict, list) else [extra_dict]))

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_refs):
            table = ref()
            if table is not None:
                table.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


class BackwardHookFunction(Function):
    """The identity, recorded as a node (``BackwardHookFunctionBackward``) to hang hooks on."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args
                                      if isinstance(a, Tensor) and not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """One forward call's share of a module's full backward hooks and backward pre-hooks."""

    def __init__(self, module, hooks, pre_hooks):
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.n_inputs = 0
        self.input_positions = None  # positions of the inputs that take part in the graph
        self.grad_outputs = None

    def setup_input_hook(self, args):
        """``args`` with its grad-requiring tensors routed through the input identity node."""
        self.n_inputs = len(args)
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        if not positions:
            return args
        self.input_positions = positions
        routed = _as_tuple(BackwardHookFunction.apply(*[args[i] for i in positions]))
        routed[0].grad_fn.register_hook(self._input_hook)
        args = list(args)
        for i, tensor in zip(positions, routed):
            args[i] = tensor
        return tuple(args)

    def setup_output_hook(self, output):
        """``output`` (a tensor or a tuple of them) routed through the output identity node."""
        single = isinstance(output, Tensor)
        outputs = (output,) if single else tuple(output)
        positions = [i for i, o in enumerate(outputs) if isinstance(o, Tensor) and o.requires_grad]
        if not positions:
            return output
        routed = _as_tuple(BackwardHookFunction.apply(*[outputs[i] for i in positions]))
        routed[0].grad_fn.register_prehook(self._output_hook)
        outputs = list(outputs)
        for i, tensor in zip(positions, routed):
            outputs[i] = tensor
        return outputs[0] if single else type(output)(outputs)

    def _output_hook(self, grad_outputs):
        for hook in tuple(self.pre_hooks.values()):
            replaced = hook(self.module, grad_outputs)
            if replaced is not None:
                replaced = _as_tuple(replaced)
                if len(replaced) != len(grad_outputs):
                    raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                       f"grad_output, got {len(replaced)}, but expected "
                                       f"{len(grad_outputs)}")
                grad_outputs = replaced
        self.grad_outputs = grad_outputs
        if self.input_positions is None and self.hooks:  # no input takes part: the hooks run now
            warn_at_caller("Full backward hook is firing when gradients are computed with "
                           "respect to module outputs since no inputs require gradients. See "
                           "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                           "#torch.nn.Module.register_full_backward_hook for more details.")
            for hook in tuple(self.hooks.values()):
                if hook(self.module, (None,) * self.n_inputs, grad_outputs) is not None:
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
        return grad_outputs

    def _input_hook(self, grad_inputs, _):
        full = [None] * self.n_inputs
        for i, grad in zip(self.input_positions, grad_inputs):
            full[i] = grad
        full = tuple(full)
        for hook in tuple(self.hooks.values()):
            replaced = hook(self.module, full, self.grad_outputs)
            if replaced is None:
                continue
            replaced = _as_tuple(replaced)
            if len(replaced) != len(full):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(replaced)}, but expected {len(full)}")
            full = replaced
        return tuple(full[i] for i in self.input_positions)


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)
