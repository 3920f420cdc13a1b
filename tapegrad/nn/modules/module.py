"""``nn.Module``: the base class that registers parameters, buffers and submodules by assignment.

Everything a training loop asks of a model — its parameters, its state dict, train/eval mode —
is answered by walking the tree of modules that attribute assignment builds.
"""
import functools
from collections import OrderedDict, namedtuple
from collections.abc import Mapping, Sized
from itertools import chain
from numbers import Integral, Number
from typing import TypeVar

from ... import __future__, dtypes
from ...autograd import grad_mode
from ...compile import compile as compile_function
from ..._runtime import typename
from ..._warnings import warn_at_caller
from ..._layout import layout
from ...memory_format import memory_format as _memory_format
from ...ops.operands import type_name
from ...tensor import META_COPY_ERROR, Tensor, _check_device, device, type_argument_dtype
from ..parameter import Buffer, Parameter, is_lazy, reset_grad
from .hooks import BackwardHook, RemovableHandle

__all__ = ["Module"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class for all neural network modules; subclasses define ``forward``."""

    training: bool
    # Saved in ``state_dict()._metadata``; a subclass whose state dict layout changes bumps it, and
    # its ``_load_from_state_dict`` upgrades checkpoints of older versions.
    _version = 1
    # Counts changes to any module's attributes, parameters, buffers, submodules, modes or
    # hooks: a compiled function's guards compare a module's settings only after it moved.
    _changes = 0

    # A class that sets this to True has ``Module.__init__`` pass its arguments on to the next
    # ``__init__`` in the MRO (a mixin's), as PyTorch does; otherwise arguments are an error.
    call_super_init = False
    dump_patches = False  # PyTorch's (unused) switch for printing source diffs when unpickling
    T_destination = TypeVar("T_destination", bound=dict)  # state_dict's type, for annotations

    def __init__(self, *args, **kwargs):
        if not self.call_super_init and kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if not self.call_super_init and args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        # Which kind of backward hook ``_backward_hooks`` holds: None until one is registered,
        # then True (full) or False (the deprecated kind) for good, as in PyTorch.
        object.__setattr__(self, "_is_full_backward_hook", None)
        for table in _HOOK_TABLES:  # ordered dicts: handles refer to them weakly
            object.__setattr__(self, table, OrderedDict())
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    def forward(self, *input):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _GLOBAL_HOOKS.any):
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    # -- hooks ------------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` (or ``(module, args, kwargs)``) runs before ``forward``; it
        may return new args (a tuple, or one value), or with kwargs an ``(args, kwargs)`` pair."""
        handle = RemovableHandle(self._forward_pre_hooks,
                                 extra_dict=self._forward_pre_hooks_with_kwargs,
                                 on_remove=_count_change)
        _insert(self._forward_pre_hooks, handle.id, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """``hook(module, args, output)`` (or ``(module, args, kwargs, output)``) runs after
        ``forward``; it may return a new output. ``always_call``: also when forward raised."""
        handle = RemovableHandle(self._forward_hooks, extra_dict=[
            self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
            on_remove=_count_change)
        _insert(self._forward_hooks, handle.id, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs once the gradients with respect to the
        module's inputs are computed; it may return a new ``grad_input``."""
        self._set_backward_hook_kind(full=True)
        handle = RemovableHandle(self._backward_hooks, on_remove=_count_change)
        _insert(self._backward_hooks, handle.id, hook, prepend)
        return handle

    def register_backward_hook(self, hook):
        """The deprecated hook: ``hook(module, grad_input, grad_output)`` on the node that made
        the module's output, so ``grad_input`` are that last operation's input gradients
        (``nn.Linear``: bias, input, weight.t()). Prefer ``register_full_backward_hook``."""
        self._set_backward_hook_kind(full=False)
        handle = RemovableHandle(self._backward_hooks, on_remove=_count_change)
        _insert(self._backward_hooks, handle.id, hook, prepend=False)
        return handle

    def _set_backward_hook_kind(self, full):
        if self._is_full_backward_hook is (not full):
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", full)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the gradients with respect to the module's
        outputs are computed, before the module's own backward; it may return new ones."""
        handle = RemovableHandle(self._backward_pre_hooks)
        _insert(self._backward_pre_hooks, handle.id, hook, prepend)
        return handle

    def _call_around(self, forward, args, kwargs):
        """This module's call, hooks and all, with ``forward`` in place of its own (a compiled
        forward: ``tapegrad.compile(module)``)."""
        if (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _GLOBAL_HOOKS.any):
            return self._call_with_hooks(args, kwargs, forward)
        return forward(*args, **kwargs)

    def _call_with_hooks(self, args, kwargs, forward=None):
        """A call with hooks: the global ones (``register_module_*``) run before the module's.
        Should anything raise, the ``always_call`` forward hooks that did not run yet still
        run before the error goes on."""
        call = _Call(args, kwargs)
        try:
            return self._run_hooked(call, forward or self.forward)
        except Exception:
            self._run_always_called_hooks(call)
            raise

    def _run_hooked(self, call, forward):
        for hook_id, hook in (*_GLOBAL_HOOKS.forward_pre.items(),
                              *self._forward_pre_hooks.items()):
            call.args, call.kwargs = self._run_forward_pre_hook(hook_id, hook, call.args,
                                                                call.kwargs)
        full_hooks, legacy_hooks = self._backward_hooks_by_kind()
        pre_hooks = {**_GLOBAL_HOOKS.backward_pre, **self._backward_pre_hooks}
        backward_hook = None
        if full_hooks or pre_hooks:
            backward_hook = BackwardHook(self, full_hooks, pre_hooks)
            call.args = backward_hook.setup_input_hook(call.args)
        call.result = forward(*call.args, **call.kwargs)
        for hook_id, hook in (*_GLOBAL_HOOKS.forward.items(), *self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called or \
                    hook_id in _GLOBAL_HOOKS.forward_always_called:
                call.always_called.add(hook_id)
            result = self._run_forward_hook(hook_id, hook, call.args, call.kwargs, call.result)
            if result is not None:
                call.result = result
        if backward_hook is not None:
            call.result = backward_hook.setup_output_hook(call.result)
        if legacy_hooks:
            self._attach_legacy_backward_hooks(legacy_hooks, call.args, call.result)
        return call.result

    def _run_always_called_hooks(self, call):
        """After an error: each ``always_call`` forward hook not run yet, given what the one
        before returned (at first forward's output, or None); as in PyTorch, an error of such a
        hook is only warned about, and global hooks get no kwargs here."""
        for hooks, always_called, kind in (
                (_GLOBAL_HOOKS.forward, _GLOBAL_HOOKS.forward_always_called,
                 "global module forward hook"),
                (self._forward_hooks, self._forward_hooks_always_called, "module forward hook")):
            for hook_id, hook in tuple(hooks.items()):
                if hook_id not in always_called or hook_id in call.always_called:
                    continue
                try:
                    result = hook(self, call.args, call.kwargs, call.result) \
                        if hook_id in self._forward_hooks_with_kwargs \
                        else hook(self, call.args, call.result)
                except Exception as error:  # noqa: BLE001  the forward's error is the one raised
                    warn_at_caller(f"{kind} with ``always_call=True`` raised an exception that "
                                   f"was silenced as another error was raised in forward: "
                                   f"{error}")
                    continue
                if result is not None:
                    call.result = result

    def _backward_hooks_by_kind(self):
        """The global and own backward hooks, as (full, deprecated-kind) dicts; hooks put in
        the table directly, with no kind registered, are not run (as in PyTorch)."""
        full, legacy = {}, {}
        for is_full, hooks in ((_GLOBAL_HOOKS.is_full_backward, _GLOBAL_HOOKS.backward),
                               (self._is_full_backward_hook, self._backward_hooks)):
            if is_full is not None:
                (full if is_full else legacy).update(hooks)
        return full, legacy

    def _attach_legacy_backward_hooks(self, hooks, args, output):
        """The deprecated hooks go on the node of the output's first tensor, as in PyTorch."""
        first = output
        while not isinstance(first, Tensor):
            first = next(v for v in first.values() if isinstance(v, Tensor)) \
                if isinstance(first, Mapping) else first[0]
        node = first.grad_fn
        if node is None:
            return
        for hook in hooks.values():  # under the hook's name, which the engine's errors quote
            node.register_hook(functools.update_wrapper(functools.partial(hook, self), hook))
        _warn_legacy_backward_hook(args, output, node)

    def _run_forward_pre_hook(self, hook_id, hook, args, kwargs):
        if hook_id in self._forward_pre_hooks_with_kwargs:
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {result}.")
                args, kwargs = result
        else:
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        return args, kwargs

    def _run_forward_hook(self, hook_id, hook, args, kwargs, output):
        if hook_id in self._forward_hooks_with_kwargs or \
                hook_id in _GLOBAL_HOOKS.forward_with_kwargs:
            return hook(self, args, kwargs, output)
        return hook(self, args, output)

    # -- registration -----------------------------------------------------------------------------
    def register_parameter(self, name, param):
        self._check_registrable(name, "parameter", "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and param._grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method.")
        self._parameters[name] = param if param is None else \
            _registered(_PARAMETER_REGISTRATION_HOOKS, self, name, param)
        Module._changes += 1

    def register_buffer(self, name, tensor, persistent=True):
        self._check_registrable(name, "buffer", "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = _registered(_BUFFER_REGISTRATION_HOOKS, self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)
        Module._changes += 1

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_registrable(name, "module", "_modules")
        self._modules[name] = _registered(_MODULE_REGISTRATION_HOOKS, self, name, module)
        Module._changes += 1

    register_module = add_module

    def _check_registrable(self, name, kind, own_dict):
        if "_parameters" not in self.__dict__ and kind != "module":  # (a module fails on storing)
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        # PyTorch checks a module's name for a clash first and quotes it in the "." message.
        clash = hasattr(self, name) and name not in getattr(self, own_dict)
        if clash and kind == "module":
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."' +
                           (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if clash:
            raise KeyError(f"attribute '{name}' already exists")

    def __setstate__(self, state):
        """Unpickling fills in what a module pickled by an older tapegrad lacks (a newer hook
        table, the backward-hook kind), as PyTorch does for its older modules."""
        self.__dict__.update(state)
        for table in _HOOK_TABLES:
            self.__dict__.setdefault(table, OrderedDict())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    def __getattr__(self, name):
        # Only called when normal lookup fails: the registered state lives in three dicts.
        state = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in state and name in state[store]:
                return state[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        Module._changes += 1
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = _registered(_MODULE_REGISTRATION_HOOKS, self, name, value)
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = _registered(_MODULE_REGISTRATION_HOOKS, self, name, None)
        elif isinstance(value, Buffer):  # an attribute of that name is a clash, as in PyTorch
            if params is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self.register_buffer(name, value, value.persistent)
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            self._buffers[name] = _registered(_BUFFER_REGISTRATION_HOOKS, self, name, value)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Drop ``name`` from every store but ``keep``, so re-assigning changes what kind of thing
        it is, while re-assigning the same kind (weight tying) keeps its place in the order."""
        self.__dict__.pop(name, None)
        for store in (self._parameters, self._buffers, self._modules):
            if store is not keep:
                store.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __delattr__(self, name):
        Module._changes += 1
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        """The class's and instance's attributes and the registered names, as PyTorch lists
        them: names that are no identifiers ("0", "1", … of a container) left out, a name found
        twice (a submodule shadowing a method) listed twice."""
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules,
                *self._buffers]
        return sorted(key for key in keys if not key[0].isdigit())

    # -- traversal --------------------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """``(name, module)`` for this module and every descendant, depth first, parents first."""
        if memo is None:
            memo = set()
        if self in memo:  # (a memo given with remove_duplicate=False still skips its modules)
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, members, prefix, recurse, remove_duplicate):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in members(module):
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                   remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target):
        """The module at the dotted path ``target`` ("" is this module)."""
        module = self
        for name in target.split(".") if target != "" else ():
            module = _attribute(module, name)
            if not isinstance(module, Module):
                raise AttributeError(f"`{name}` is not an nn.Module")
        return module

    def get_parameter(self, target):
        """The parameter at the dotted path ``target``."""
        module, name = self._owner_of(target)
        param = _attribute(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at the dotted path ``target`` (None if registered as None)."""
        module, name = self._owner_of(target)
        buffer = _attribute(module, name)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return buffer

    def _owner_of(self, target):
        """The submodule holding the last name of ``target``, and that name."""
        module_path, _, name = target.rpartition(".")
        return self.get_submodule(module_path), name

    def set_submodule(self, target, module, strict=False):
        """Put ``module`` at the dotted path ``target``, replacing the module there (``strict``:
        only if there is one)."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {_class_repr(type(module))}")
        parent, name = self._owner_of(target)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    # -- modes and bulk operations ----------------------------------------------------------------
    def train(self, mode=True):
        """Set this module's mode, then each child's through its own ``train`` (so a subclass
        that overrides ``train``, e.g. to keep its BatchNorm in eval mode, is obeyed)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode  # an assignment: a parameter named "training" refuses it
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for param in self.parameters():
            reset_grad(param, set_to_none)

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, fn, recurse=True):
        """Put ``fn`` of every parameter, gradient and buffer in its place (children first,
        unless not ``recurse``): what ``to``, ``float``, ``double``, ``half``, ``type``, ``cpu``
        and ``to_empty`` do. As in PyTorch, parameters stay the same objects (their ``.data`` is
        set) while buffers are replaced, and a subclass overrides it to convert tensors it keeps
        elsewhere (a cache, say) and then calls ``super()._apply(fn)``."""
        if recurse:
            for module in self.children():
                module._apply(fn)
        with grad_mode.no_grad():
            for name, param in self._parameters.items():
                if param is not None:
                    self._apply_to_parameter(name, param, fn)
        for name, buffer in self._buffers.items():  # recorded, as in PyTorch
            if buffer is not None:
                self._buffers[name] = fn(buffer)
        Module._changes += 1
        return self

    def _apply_to_parameter(self, name, param, fn):
        """Convert one parameter and its gradient: in place (``.data`` set), or — opted into
        with ``torch.__future__.set_overwrite_module_params_on_conversion`` — as a new
        ``Parameter`` registered under ``name`` (an optimizer still holds the old one)."""
        converted = fn(param)
        grad = param._grad
        if __future__.get_overwrite_module_params_on_conversion() and \
                not __future__.get_swap_module_params_on_conversion():
            replacement = Parameter(converted, param.requires_grad)
            self._parameters[name] = replacement
            if grad is not None:
                replacement.grad = fn(grad).requires_grad_(grad.requires_grad)
            return
        param.data = converted
        if grad is not None:
            grad.data = fn(grad)

    def to(self, *args, **kwargs):
        """Converts floating-point parameters and buffers, and moves all of them to the meta
        device when asked (the CPU is the only other); with ``memory_format``, the 4-d and 5-d
        ones also take that layout. The arguments are read as PyTorch's ``to`` reads them."""
        device, target, memory_format = _parse_to(args, kwargs)  # (a device is checked per tensor)
        if target is not None:
            target = dtypes.as_dtype(target)
            if not (target.is_floating_point or target.is_complex):
                raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, "
                                f"but got desired dtype={target}")
            if target.is_complex:
                warn_at_caller(_COMPLEX_MODULES_WARNING)

        def convert(t):
            dtype = target if t.is_floating_point() or t.is_complex() else None
            try:
                if memory_format is not None and t.dim() in (4, 5):
                    return t.to(dtype=dtype, device=device, memory_format=memory_format)
                return t.to(dtype=dtype, device=device) if dtype or device is not None else t
            except NotImplementedError as error:
                if str(error) != META_COPY_ERROR:
                    raise
                raise NotImplementedError(f"{error} Please use torch.nn.Module.to_empty() instead "
                                          "of torch.nn.Module.to() when moving module from meta "
                                          "to a different device.") from None
        return self._apply(convert)

    def float(self):
        return self._apply(_floating_to(dtypes.float32))

    def double(self):
        return self._apply(_floating_to(dtypes.float64))

    def half(self):
        return self._apply(_floating_to(dtypes.float16))

    def bfloat16(self):
        """As in PyTorch; tapegrad cannot compute in bfloat16, so this raises its TypeError
        (before any parameter is cast)."""
        return self._apply(_floating_to(dtypes.bfloat16))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def to_empty(self, *, device=None, recurse=True):
        """Give every parameter and buffer new, uninitialized memory of its shape and dtype on
        ``device`` (the CPU by default), as after building a model on the meta device."""
        device = "cpu" if device is None else device
        _check_device(device)
        return self._apply(lambda t: t.new_empty(t.shape, device=device), recurse=recurse)

    def share_memory(self):
        """Move every parameter, gradient and buffer into shared memory
        (``Tensor.share_memory_``): processes forked afterwards train the same weights
        (Hogwild), and the module can be sent to others through ``tapegrad.multiprocessing``."""
        for module in self.modules():
            for tensor in (*module._parameters.values(), *module._buffers.values()):
                if tensor is not None:
                    tensor.share_memory_()
                    if tensor._grad is not None:
                        tensor._grad.share_memory_()
        return self

    def cuda(self, device=None):
        """Refused as in a PyTorch built without CUDA (tapegrad runs on the CPU), once there is
        a tensor to move: a module without any is returned as it is."""
        return self._apply(lambda t: _refuse_cuda(device))

    def xpu(self, device=None):
        return self._apply(lambda t: _refuse_backend("xpu"))

    def ipu(self, device=None):
        return self._apply(lambda t: _refuse_backend("ipu"))

    def mtia(self, device=None):
        return self._apply(lambda t: _refuse_backend("mtia"))

    def type(self, dst_type):
        """Converts every parameter and buffer, floating or not, to ``dst_type`` (a dtype or a
        legacy type such as ``torch.DoubleTensor``)."""
        dtype = dtypes.as_dtype(type_argument_dtype(dst_type))
        if not dtype.is_floating_point and any(p.requires_grad for p in self.parameters()):
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        return self._apply(lambda t: t.to(dtype))

    # -- state dict -------------------------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """Parameters, persistent buffers and extra state by dotted name; the tensors share the
        model's memory.

        A new state dict carries ``_metadata``: each module's ``_version`` under its dotted name,
        so loading can tell a checkpoint saved by an older layout. Pre-hooks run before a
        module saves its entries, post-hooks after its children saved theirs.
        """
        if args:
            destination, prefix, keep_vars = _positional_state_dict_args(args, destination, prefix,
                                                                         keep_vars)
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in tuple(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        for hook in tuple(self._state_dict_hooks.values()):
            result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False):
                if result is not None:
                    raise RuntimeError("state_dict post-hook must return None")
            elif result is not None:  # the private hook may replace the state dict
                destination = result
        return destination

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """Put this module's own entries (children excluded) in ``destination``; a subclass
        overrides it to save more, as in PyTorch. A lazy module's placeholder is saved as
        itself: there is nothing to detach yet."""
        for name, value in self._own_state().items():
            destination[prefix + name] = value if keep_vars or is_lazy(value) else value.detach()
        if self._has_extra_state():
            destination[prefix + _EXTRA_STATE_KEY] = self.get_extra_state()

    def _has_extra_state(self):
        return type(self).get_extra_state is not Module.get_extra_state

    def get_extra_state(self):
        """Whatever else a subclass saves in its state dict (under ``_extra_state``); a module
        that overrides it also overrides ``set_extra_state``."""
        raise RuntimeError(_NEVER_CALLED.format("get_extra_state"))

    def set_extra_state(self, state):
        """Restore what ``get_extra_state`` returned."""
        raise RuntimeError(_NEVER_CALLED.format("set_extra_state"))

    def _own_state(self):
        """This module's tensors in its state dict, children excluded: parameters, then
        persistent buffers, leaving out those registered as None."""
        persistent_buffers = ((name, buffer) for name, buffer in self._buffers.items()
                              if name not in self._non_persistent_buffers_set)
        return {name: value for name, value in chain(self._parameters.items(), persistent_buffers)
                if value is not None}

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` runs before ``state_dict`` saves this module."""
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` runs once this module and its
        children are saved; it may change ``state_dict`` in place (and must return None)."""
        hook._from_public_api = True
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def _register_state_dict_hook(self, hook):
        """The older, private post-hook: like the public one, but what it returns (if not None)
        replaces the state dict."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook "
                               "that was previously registered via "
                               "register_state_dict_post_hook")
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` runs before this module checks its entries; it may
        change ``state_dict`` in place (rename old keys)."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """As ``register_load_state_dict_pre_hook``; without ``with_module`` the hook is called
        without the module argument."""
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = \
            functools.partial(hook, self) if with_module else hook
        return handle

    def register_load_state_dict_post_hook(self, hook):
        """``hook(module, incompatible_keys)`` runs once this module and its children are
        checked; it may change the missing and unexpected key lists in place (before ``strict``
        judges them). tapegrad copies only once every check passed, so the copy comes after."""
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy ``state_dict`` into the model, module by module, as PyTorch does: every entry
        that fits is copied, and the problems found are raised together at the end."""
        if not isinstance(state_dict, Mapping):
            raise TypeError("Expected state_dict to be dict-like, got "
                            f"{_class_repr(type(state_dict))}.")
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)  # a module may add what an older version did not save
        if metadata is not None:
            state_dict._metadata = metadata
        missing, unexpected, errors = [], [], []

        def load(module, local_state_dict, prefix):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing,
                                         unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items()
                                 if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in tuple(module._load_state_dict_post_hooks.values()):
                if hook(module, keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace.")

        load(self, state_dict, "")
        if strict:
            errors[:0] = _key_errors("Missing", missing) + _key_errors("Unexpected", unexpected)
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Copy this module's own entries of ``state_dict`` (its children load theirs).

        As in PyTorch, a subclass overrides it to bring a checkpoint of an older ``_version``
        (``local_metadata.get("version")``, None for a plain dict) up to date in ``state_dict``
        before calling it, or to refresh what it derives from its parameters after.
        """
        for hook in tuple(self._load_state_dict_pre_hooks.values()):
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        own = self._own_state()
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, target in own.items():
            key = prefix + name
            if key in state_dict:
                self._load_entry(name, key, target, state_dict[key], assign, error_msgs)
            elif strict:
                missing_keys.append(key)
        extra_key = prefix + _EXTRA_STATE_KEY
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            unexpected_keys.extend(key for key in state_dict if key.startswith(prefix)
                                   and key != extra_key
                                   and not self._expects(key[len(prefix):], own))

    def _load_entry(self, name, key, target, source, assign, error_msgs):
        """Copy (or with ``assign`` put) the checkpoint's ``source`` in place of ``target``;
        what goes wrong is added to ``error_msgs``."""
        if is_lazy(target) and is_lazy(source):
            return  # a lazy model's checkpoint into a lazy model: both still placeholders
        if isinstance(source, Tensor) and target.dim() == 0 and source.shape == (1,):
            source = source[0]  # a scalar saved as a 1-element vector (PyTorch 0.3 layout)
        error = _load_error(key, source, target)
        if error:
            error_msgs.append(error)
            return
        if target.is_meta and not source.is_meta and not assign:
            warn_at_caller(f"for {key}: copying from a non-meta parameter in the checkpoint to a "
                           "meta parameter in the current model, which is a no-op. (Did you mean "
                           "to pass `assign=True` to assign items in the state dictionary to their "
                           "corresponding key in the module instead of copying them in place?)")
        try:
            with grad_mode.no_grad():
                if not assign:
                    target.copy_(source)
                elif isinstance(target, Parameter):
                    setattr(self, name, _assigned_parameter(source, target.requires_grad))
                else:
                    setattr(self, name, source)
        except Exception as ex:  # reported with the other problems, as PyTorch does
            error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in '
                              f"the model are {target.size()} and whose dimensions in the "
                              f"checkpoint are {source.size()}, an exception occurred : "
                              f"{ex.args}.")

    def _expects(self, key, own):
        """Whether ``key`` (relative to this module) is this module's or a child's to load."""
        child, dot, _ = key.partition(".")
        return child in self._modules if dot else key in own

    def compile(self, *args, **kwargs):
        """Compile this module's ``forward`` in place (``tapegrad.compile`` with these arguments):
        unlike ``tapegrad.compile(module)`` the module keeps its type and state dict keys."""
        object.__setattr__(self, "forward",
                           compile_function(type(self).forward.__get__(self), *args, **kwargs))

    def _compiled(self, forward):
        """``tapegrad.compile(self)`` given the compiled ``forward``: an OptimizedModule."""
        return OptimizedModule(self, forward)

    # -- printing ---------------------------------------------------------------------------------
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The text between the parentheses of this module's repr; subclasses override it."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _indent(repr(module), 2)
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        body = ""
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                body = extra_lines[0]
            else:
                body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{self._get_name()}({body})"


_HOOK_TABLES = ("_forward_pre_hooks", "_forward_hooks", "_backward_hooks", "_backward_pre_hooks",
                "_forward_pre_hooks_with_kwargs", "_forward_hooks_with_kwargs",
                "_forward_hooks_always_called",
                "_state_dict_pre_hooks", "_state_dict_hooks", "_load_state_dict_pre_hooks",
                "_load_state_dict_post_hooks")
_EXTRA_STATE_KEY = "_extra_state"
_NEVER_CALLED = ("Reached a code path in Module.{}() that should never be called. Please file an "
                 "issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                 "to report this bug.")


def _refuse_cuda(device):
    _check_device("cuda" if device is None else device)
    raise RuntimeError("Invalid device, must be cuda device")  # (a CPU or meta device)


_MISSING_BACKENDS = {
    "xpu": (AssertionError, "Torch not compiled with XPU enabled"),
    "ipu": (RuntimeError, "PyTorch is not linked with support for ipu devices"),
    "mtia": (AssertionError, "Torch not compiled with MTIA enabled. Ensure you have `import "
             "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
             "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!"),
}


def _refuse_backend(kind):
    """The error of a PyTorch built without the ``kind`` backend."""
    error, message = _MISSING_BACKENDS[kind]
    raise error(message)


def _floating_to(dtype):
    """The conversion of ``Module.float()`` and kin: floating tensors to ``dtype``, the rest
    (integer counters, boolean masks) as they are."""
    return lambda t: t.to(dtype) if t.is_floating_point() else t


_REQUIRED = object()
_MEMORY_FORMAT_PARAMETER = ("memory_format", "torch.memory_format", None)  # keyword-only
# ``Module.to``'s overloads as PyTorch's parser has them: (name, type, default) per parameter.
_TO_OVERLOADS = (
    (("device", "torch.device", None), ("dtype", "torch.dtype", None),
     ("non_blocking", "bool", False), ("copy", "bool", False)),
    (("dtype", "torch.dtype", _REQUIRED), ("non_blocking", "bool", False),
     ("copy", "bool", False)),
    (("tensor", "Tensor", _REQUIRED), ("non_blocking", "bool", False), ("copy", "bool", False)),
)
_TO_TYPE_CHECKS = {
    "torch.device": lambda v: isinstance(v, (device, str))
    or isinstance(v, Integral) and not isinstance(v, bool),  # an int: a device index
    "torch.dtype": lambda v: isinstance(v, dtypes.dtype) or any(v is t for t in
                                                                 (bool, int, float, complex)),
    "bool": lambda v: isinstance(v, bool),
    "Tensor": lambda v: isinstance(v, (Tensor, Number)),  # a number stands for its tensor
    "torch.memory_format": lambda v: isinstance(v, _memory_format),
}


def _parse_to(args, kwargs):
    """``(device, dtype, memory_format)`` from ``Module.to``'s arguments, matched against its
    overloads in order and refused with the errors of PyTorch's argument parser."""
    for overload in _TO_OVERLOADS:
        bound = _bind_to(overload, args, kwargs, raise_errors=False)
        if bound is not None:
            break
    else:
        given = len(args) + len(kwargs)
        plausible = [o for o in _TO_OVERLOADS
                     if sum(p[2] is _REQUIRED for p in o) <= given <= len(o) + 1]
        if len(plausible) == 1:  # PyTorch then tells what is wrong with that one
            _bind_to(plausible[0], args, kwargs, raise_errors=True)
        raise _invalid_to_arguments(args, kwargs)
    if bound["copy"]:
        raise RuntimeError(".to() does not accept copy argument")
    if "tensor" in bound:
        tensor = bound["tensor"]
        if not isinstance(tensor, Tensor):  # a Python number's tensor: bool, complex or double
            return "cpu", (dtypes.bool if isinstance(tensor, bool) else dtypes.complex128
                           if isinstance(tensor, complex) else dtypes.float64), \
                bound["memory_format"]
        return tensor.device, tensor.dtype, bound["memory_format"]
    target = bound.get("device")  # a device string or index is checked now, as in PyTorch
    return None if target is None else device(target), bound["dtype"], bound["memory_format"]


def _bind_to(overload, args, kwargs, raise_errors):
    """The arguments by parameter name if they fit ``overload``; else None, or with
    ``raise_errors`` PyTorch's error saying why not."""
    if len(args) > len(overload):
        if raise_errors:
            raise TypeError(f"to() takes from {sum(p[2] is _REQUIRED for p in overload)} to "
                            f"{len(overload)} positional arguments but {len(args)} were given")
        return None
    bound, used = {}, 0
    for position, (name, kind, default) in enumerate((*overload, _MEMORY_FORMAT_PARAMETER)):
        if position < len(args):
            value, where = args[position], f" (position {position + 1})"
        elif name in kwargs:
            value, where = kwargs[name], ""
            used += 1
        elif default is _REQUIRED:
            return None
        else:
            value, where = default, ""
        if not (value is default or _TO_TYPE_CHECKS[kind](value)):
            if raise_errors:
                raise TypeError(f"to(): argument '{name}'{where} must be {kind}, not "
                                f"{_type_name(value)}")
            return None
        bound[name] = value
    if used < len(kwargs):
        if raise_errors:
            _refuse_keywords(overload, args, kwargs)
        return None
    return bound


def _refuse_keywords(overload, args, kwargs):
    names = [name for name, _, _ in (*overload, _MEMORY_FORMAT_PARAMETER)]
    for key in kwargs:
        if key not in names:
            raise TypeError(f"to() got an unexpected keyword argument '{key}'")
        if names.index(key) < len(args):
            raise TypeError(f"to() got multiple values for argument '{key}'")


def _invalid_to_arguments(args, kwargs):
    """PyTorch's listing of ``to``'s overloads (its keywords come out in reverse order)."""
    keywords = [f"{key}={_type_name(value)}" for key, value in reversed(kwargs.items())]
    got = ", ".join([_type_name(a) for a in args] + keywords) + \
        (", " if keywords and not args else "")
    lines = [f"to() received an invalid combination of arguments - got ({got}), but expected "
             "one of:"]
    for overload in _TO_OVERLOADS:
        parameters = [f"{kind} {name}" + ("" if default is _REQUIRED else f" = {default}")
                      for name, kind, default in overload]
        lines.append(f" * ({', '.join(parameters)}, *, torch.memory_format memory_format = None)")
        if len(args) + len(kwargs) == len(overload) + 2:  # as many as its parameters and "*"
            lines.append("      didn't match because " + _to_mismatch(overload, args, kwargs))
    return TypeError("\n".join(lines) + "\n")


def _to_mismatch(overload, args, kwargs):
    """PyTorch's explanation: keywords naming no required parameter are incorrect, and a
    parameter with a default matches no argument."""
    required = {name for name, _, default in overload if default is _REQUIRED}
    wrong = [key for key in reversed(kwargs) if key not in required]
    if wrong:
        return "some of the keywords were incorrect: " + ", ".join(wrong)
    marked = [f"!{_type_name(a)}!" for a in args]  # (only the first overload gets here)
    keywords = [f"{key}={_type_name(value)}" for key, value in reversed(kwargs.items())]
    return "some of the arguments have invalid types: (" + ", ".join(marked + keywords) + ")"


def _type_name(value):
    """A value's type as PyTorch's parser names it (``torch.dtype``, ``Tensor``, ``str``)."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, dtypes.dtype):
        return "torch.dtype"
    if isinstance(value, (device, _memory_format, layout)):
        return f"torch.{type(value).__name__}"
    return type_name(type(value))


def _positional_state_dict_args(args, destination, prefix, keep_vars):
    """``state_dict(destination, prefix, keep_vars)`` given positionally: still honoured (a
    keyword given too wins), with PyTorch's deprecation warning."""
    warn_at_caller("Positional args are being deprecated, use kwargs instead. Refer to "
                   "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                   "#torch.nn.Module.state_dict for details.", FutureWarning)
    if destination is None:
        destination = args[0]
    if len(args) > 1 and prefix == "":
        prefix = args[1]
    if len(args) > 2 and keep_vars is False:
        keep_vars = args[2]
    return destination, prefix, keep_vars


def _warn_legacy_backward_hook(inputs, output, node):
    """PyTorch's FutureWarning where a deprecated backward hook sees only part of the
    gradients: the module's inputs or outputs are no tuple of tensors, or its forward ran
    more than the one operation the hook sits on."""
    outputs = (output,) if isinstance(output, Tensor) else output
    if not (isinstance(outputs, tuple) and all(isinstance(o, Tensor) for o in outputs)):
        message = ("Using non-full backward hooks on a Module that does not return a single "
                   "Tensor or a tuple of Tensors is deprecated and will be removed in future "
                   "versions. This hook will be missing some of the grad_output. Please use "
                   "register_full_backward_hook to get the documented behavior.")
    elif not all(isinstance(i, Tensor) for i in inputs):
        message = ("Using non-full backward hooks on a Module that does not take as input a "
                   "single Tensor or a tuple of Tensors is deprecated and will be removed in "
                   "future versions. This hook will be missing some of the grad_input. Please "
                   "use register_full_backward_hook to get the documented behavior.")
    else:
        message = _legacy_hook_graph_warning(inputs, outputs, node)
    if message is not None:
        warn_at_caller(message, FutureWarning)


def _legacy_hook_graph_warning(inputs, outputs, node):
    output_nodes = {o.grad_fn for o in outputs if o.grad_fn is not None}
    if not output_nodes or len(output_nodes) == 1 and node not in output_nodes:
        return ("Using a non-full backward hook when outputs are nested in python data "
                "structure is deprecated and will be removed in future versions. This hook "
                "will be missing some grad_output.")
    if len(output_nodes) > 1:
        return ("Using a non-full backward hook when outputs are generated by different "
                "autograd Nodes is deprecated and will be removed in future versions. This hook "
                "will be missing some grad_output. Please use register_full_backward_hook to "
                "get the documented behavior.")
    input_nodes = {i.grad_fn for i in inputs if i.grad_fn is not None}
    if input_nodes != {n for n, _ in node.next_functions}:
        return ("Using a non-full backward hook when the forward contains multiple autograd "
                "Nodes is deprecated and will be removed in future versions. This hook will be "
                "missing some grad_input. Please use register_full_backward_hook to get the "
                "documented behavior.")
    return None


class _Call:
    """One hooked call's arguments and result as its hooks change them, and the ``always_call``
    hooks it ran."""

    __slots__ = ("args", "kwargs", "result", "always_called")

    def __init__(self, args, kwargs):
        self.args, self.kwargs, self.result, self.always_called = args, kwargs, None, set()


class _GlobalHooks:
    """The hooks every module runs (``register_module_forward_hook`` and kin); ``any`` keeps
    calls of modules without hooks on their fast path."""

    def __init__(self):
        self.forward_pre, self.forward, self.backward = OrderedDict(), OrderedDict(), OrderedDict()
        self.backward_pre = OrderedDict()
        self.forward_with_kwargs, self.forward_always_called = OrderedDict(), OrderedDict()
        self.is_full_backward = None  # as ``Module._is_full_backward_hook``, for all modules

    @property
    def any(self):
        return bool(self.forward_pre or self.forward or self.backward or self.backward_pre)

    def add_backward(self, hook, full):
        if self.is_full_backward is (not full):
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "as a global Module hook. Please use only one of them.")
        self.is_full_backward = full
        handle = RemovableHandle(self.backward)
        self.backward[handle.id] = hook
        return handle


_GLOBAL_HOOKS = _GlobalHooks()


def register_module_forward_pre_hook(hook):
    """``hook(module, args)`` before every module's forward (and its own pre-hooks)."""
    handle = RemovableHandle(_GLOBAL_HOOKS.forward_pre)
    _GLOBAL_HOOKS.forward_pre[handle.id] = hook
    return handle


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """``hook(module, args, output)`` after every module's forward (before its own hooks)."""
    handle = RemovableHandle(_GLOBAL_HOOKS.forward, extra_dict=[
        _GLOBAL_HOOKS.forward_with_kwargs, _GLOBAL_HOOKS.forward_always_called])
    _GLOBAL_HOOKS.forward[handle.id] = hook
    if with_kwargs:
        _GLOBAL_HOOKS.forward_with_kwargs[handle.id] = True
    if always_call:
        _GLOBAL_HOOKS.forward_always_called[handle.id] = True
    return handle


def register_module_full_backward_hook(hook):
    """``hook(module, grad_input, grad_output)`` for every module, as a full backward hook."""
    return _GLOBAL_HOOKS.add_backward(hook, full=True)


def register_module_backward_hook(hook):
    """The deprecated kind of ``register_module_full_backward_hook`` (see
    ``Module.register_backward_hook``)."""
    return _GLOBAL_HOOKS.add_backward(hook, full=False)


def register_module_full_backward_pre_hook(hook):
    """``hook(module, grad_output)`` for every module, before its own backward pre-hooks."""
    handle = RemovableHandle(_GLOBAL_HOOKS.backward_pre)
    _GLOBAL_HOOKS.backward_pre[handle.id] = hook
    return handle


_PARAMETER_REGISTRATION_HOOKS = OrderedDict()
_BUFFER_REGISTRATION_HOOKS = OrderedDict()
_MODULE_REGISTRATION_HOOKS = OrderedDict()


def register_module_parameter_registration_hook(hook):
    """``hook(module, name, param)`` whenever any module registers a parameter; it may return
    the parameter to register instead."""
    return _add_global_hook(_PARAMETER_REGISTRATION_HOOKS, hook)


def register_module_buffer_registration_hook(hook):
    """``hook(module, name, buffer)`` whenever any module registers a buffer; it may return
    the tensor to register instead."""
    return _add_global_hook(_BUFFER_REGISTRATION_HOOKS, hook)


def register_module_module_registration_hook(hook):
    """``hook(module, name, submodule)`` whenever any module registers a submodule; it may
    return the module to register instead."""
    return _add_global_hook(_MODULE_REGISTRATION_HOOKS, hook)


def _add_global_hook(hooks, hook):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def _registered(hooks, module, name, value):
    """``value`` as the registration hooks leave it."""
    for hook in tuple(hooks.values()):
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value


def _insert(hooks, hook_id, hook, prepend):
    """Register a module's hook: a change of the module, as its removal is."""
    hooks[hook_id] = hook
    if prepend:
        hooks.move_to_end(hook_id, last=False)
    _count_change()


def _count_change():
    """Count a change of a module for ``Module._changes`` (a compiled call's guards)."""
    Module._changes += 1


class OptimizedModule(Module):
    """What ``tapegrad.compile(model)`` returns, as ``torch.compile`` does: a Module holding the
    model as ``_orig_mod`` — so its parameters, train/eval mode and state dict (keys
    ``_orig_mod.…``) are the model's — whose ``forward`` is the model's compiled forward. A call
    runs this wrapper's hooks, then the model's (in Python), around it. Attributes it does not
    have are looked up on the model, and attributes set on it land on the model."""

    def __init__(self, mod, compiled_forward):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "forward", compiled_forward)

    def __call__(self, *args, **kwargs):
        return self._call_around(self._model_call, args, kwargs)

    def _model_call(self, *args, **kwargs):
        return self._orig_mod._call_around(self.forward, args, kwargs)

    @property
    def training(self):
        """The model's mode, mirrored (``model.eval()`` shows through ``compiled.training``)."""
        return self._orig_mod.training

    @training.setter
    def training(self, mode):
        modules = self.__dict__.get("_modules")
        if modules and "_orig_mod" in modules:  # Module.__init__'s default is the model's own
            modules["_orig_mod"].training = mode

    def __len__(self):
        """The model's length (``len(torch.compile(nn.Sequential(...)))``), as PyTorch proxies it."""
        if isinstance(self._orig_mod, Sized):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __setattr__(self, name, value):
        modules = self.__dict__.get("_modules")
        if name == "_orig_mod" or not modules or "_orig_mod" not in modules \
                or hasattr(type(self), name):
            super().__setattr__(name, value)
        else:
            setattr(modules["_orig_mod"], name, value)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            modules = self.__dict__.get("_modules")
            if not modules or "_orig_mod" not in modules:
                raise
            return getattr(modules["_orig_mod"], name)

    def __dir__(self):
        """The model's names, then this wrapper's own, as PyTorch lists them."""
        model_names = self._orig_mod.__dir__()
        return model_names + [name for name in super().__dir__() if name not in model_names]

    def explain(self):
        """What compiling the model did (tapegrad's addition, as ``fn.explain()`` of a compiled
        function): each specialization's guards, IR, fused groups and kernel source."""
        return self.forward.explain()


def _class_repr(cls):
    """``<class 'torch.nn.modules.container.Sequential'>``: a class as PyTorch's messages show
    it, tapegrad's classes under their PyTorch names."""
    return f"<class '{typename(cls)}'>"


def _indent(text, spaces):
    """Indent every line but the first (a child's repr inside its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


_MISSING = object()


def _attribute(module, name):
    """``getattr`` for the ``get_*`` lookups, failing with PyTorch's message."""
    value = getattr(module, name, _MISSING)
    if value is _MISSING:
        raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
    return value


def _key_errors(kind, keys):
    """PyTorch's line listing the missing or unexpected keys, if there are any."""
    return [f"{kind} key(s) in state_dict: " + ", ".join(f'"{k}"' for k in keys) + ". "] \
        if keys else []


def _load_error(key, source, target):
    """Why the checkpoint's ``source`` cannot go into ``target`` (None when it can)."""
    if not isinstance(source, Tensor):
        return (f'While copying the parameter named "{key}", expected torch.Tensor or '
                f"Tensor-like object from checkpoint but received {_class_repr(type(source))}")
    if source.shape != target.shape:  # a lazy placeholder's shape raises, as in PyTorch
        return (f"size mismatch for {key}: copying a param with shape {source.shape} from "
                f"checkpoint, the shape in current model is {target.shape}.")
    return None


def _assigned_parameter(source, requires_grad):
    """The checkpoint's tensor as the Parameter ``assign=True`` puts in the model; the model's
    ``requires_grad`` wins, as in PyTorch."""
    if isinstance(source, Parameter):
        return source.requires_grad_(requires_grad)
    return Parameter(source, requires_grad)


_COMPLEX_MODULES_WARNING = (
    "Complex modules are a new feature under active development whose design may change, and "
    "some modules might not work as expected when using complex tensors as parameters or "
    "buffers. Please file an issue at "
    "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml if a complex module "
    "does not work as expected.")
