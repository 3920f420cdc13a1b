"""Module hooks: removable handles, and the identity node that lets a module see its gradients.

A full backward hook needs the gradients with respect to a module's inputs and outputs taken
together. As PyTorch does, the module's tensor inputs and outputs are passed through an identity
``BackwardHookFunction``: the node on the outputs collects the output gradients (and runs the
backward pre-hooks), the node on the inputs hands both sets to the user's hooks.
"""
import weakref
from collections import OrderedDict

from ..._warnings import warn_at_caller
from ...autograd import grad_mode
from ...autograd.function import Function, vmapped_innermost
from ...tensor import Tensor

__all__ = ["RemovableHandle", "BackwardHookFunction", "BackwardHook"]


class RemovableHandle:
    """Returned by every ``register_*_hook``: ``remove()`` unregisters the hook (also on leaving
    a ``with`` block). It refers to the hook tables weakly; copied or pickled along with its
    module, it refers to the copies of those tables (a table not copied with it is dead)."""

    next_id = 0

    def __repr__(self):  # PyTorch's class lives in torch.utils.hooks
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"

    def __init__(self, hooks_dict, *, extra_dict=None, on_remove=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.on_remove = on_remove  # called after removing (a module counts it as a change)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extra = [] if extra_dict is None else (
            extra_dict if isinstance(extra_dict, list) else [extra_dict])
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra)

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            table = ref()
            if table is not None:
                table.pop(self.id, None)
        if self.on_remove is not None:
            self.on_remove()

    def __getstate__(self):
        return self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref)

    def __setstate__(self, state):
        self.hooks_dict_ref = _table_ref(state[0])
        self.id = state[1]
        self.on_remove = None
        # ids stay unique: later handles must not reuse the id of one that was loaded
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = tuple(_table_ref(d) for d in (state[2] if len(state) > 2 else ()))

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


def _table_ref(table):
    """A weak reference to a hook table; a dead one for a table that was not kept."""
    return weakref.ref(table if table is not None else OrderedDict())


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
    """One forward call's share of a module's full backward hooks and backward pre-hooks.

    As in PyTorch, the hooks see one gradient per positional input and one per element of a
    tuple output: ``None`` where that entry is no tensor or (for outputs) got no gradient, zeros
    for an input tensor that needs no gradient while another input does.
    """

    def __init__(self, module, hooks, pre_hooks):
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.n_inputs = 0
        self.input_positions = None  # positions of the tensor inputs, once routed
        self.n_outputs = 0
        self.output_positions = None
        self.grad_outputs = None

    def setup_input_hook(self, args):
        """``args`` with its tensors routed through the input identity node."""
        self.n_inputs = len(args)

        def hook(grad_inputs, grad_outputs):  # PyTorch's name, which the engine's errors quote
            return self._input_hook(grad_inputs, grad_outputs)
        args, self.input_positions = _route_tensors(args, lambda node: node.register_hook(hook))
        return args

    def setup_output_hook(self, output):
        """``output`` (a tensor or a tuple) with its tensors routed through the output node."""
        if not isinstance(output, (Tensor, tuple)):
            warn_at_caller("For backward hooks to be called, module output should be a Tensor "
                           f"or a tuple of Tensors but received {type(output)}")
        single = not isinstance(output, tuple)
        outputs = (output,) if single else output
        self.n_outputs = len(outputs)
        outputs, self.output_positions = _route_tensors(outputs, lambda node: node.register_hook(
            self._output_hook))
        return outputs[0] if single else outputs

    def _output_hook(self, _, grad_outputs):
        """A hook run after the output node, as in PyTorch: the node's other hooks (a
        deprecated backward hook's) see the gradients it received, the pre-hooks' changes
        only in what it passes on."""
        self.grad_outputs = _pack_with_none(self.output_positions, grad_outputs, self.n_outputs)
        for hook in tuple(self.pre_hooks.values()):
            replaced = hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(self.grad_outputs):
                raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                   f"grad_output, got {len(replaced)}, but expected "
                                   f"{len(self.grad_outputs)}")
            self.grad_outputs = replaced
        routed = tuple(self.grad_outputs[i] for i in self.output_positions)
        if self.input_positions is None:
            self._run_hooks_without_inputs()
        return routed

    def _run_hooks_without_inputs(self):
        """No input takes part in the graph: the hooks run now, with ``None`` for every input."""
        warn_at_caller("Full backward hook is firing when gradients are computed with respect "
                       "to module outputs since no inputs require gradients. See "
                       "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                       "#torch.nn.Module.register_full_backward_hook for more details.")
        for hook in tuple(self.hooks.values()):
            result = hook(self.module, (None,) * self.n_inputs, self.grad_outputs)
            if result is not None and not (isinstance(result, tuple)
                                           and all(g is None for g in result)):
                raise RuntimeError("Backward hook for Modules where no input requires "
                                   "gradient should always return None or None for all "
                                   "gradients.")
        self.grad_outputs = None

    def _input_hook(self, grad_inputs, _):
        if self.grad_outputs is None:  # reached without passing through the outputs
            return None
        full = _pack_with_none(self.input_positions, grad_inputs, self.n_inputs)
        for hook in tuple(self.hooks.values()):
            replaced = hook(self.module, full, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(full):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(replaced)}, but expected {len(full)}")
            full = replaced
        self.grad_outputs = None
        return tuple(full[i] for i in self.input_positions)


def _route_tensors(values, on_node):
    """``values`` (a tuple) with all its tensors passed together through one
    ``BackwardHookFunction`` whose node ``on_node`` receives, and the tensors' positions; the
    tuple unchanged and ``None`` when no tensor requires grad (or gradients are off)."""
    positions = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
    if vmapped_innermost() or not grad_mode.is_grad_enabled() or \
            not any(values[i].requires_grad for i in positions):
        return values, None
    routed = _as_tuple(BackwardHookFunction.apply(*[values[i] for i in positions]))
    on_node(next(t.grad_fn for t in routed if t.grad_fn is not None))
    replaced = list(values)
    for i, tensor in zip(positions, routed):
        replaced[i] = tensor
    return (tuple(replaced) if type(values) is tuple else type(values)(*replaced)), positions


def _pack_with_none(positions, values, size):
    full = [None] * size
    for i, value in zip(positions, values):
        full[i] = value
    return tuple(full)


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)
