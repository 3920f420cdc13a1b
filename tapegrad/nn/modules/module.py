"""``nn.Module``: the base class that registers parameters, buffers and submodules by assignment.

Everything a training loop asks of a model — its parameters, its state dict, train/eval mode —
is answered by walking the tree of modules that attribute assignment builds.
"""
import functools
from collections import OrderedDict, namedtuple
from collections.abc import Mapping, Sized
from itertools import chain

import numpy as np

from ... import dtypes
from ...autograd import grad_mode
from ...compile import compile as compile_function
from ...tensor import Tensor, _check_device, type_argument_dtype
from ..parameter import Buffer, Parameter, reset_grad
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
    # Counts changes to any module's attributes, parameters, buffers, submodules or modes: a
    # compiled function's guards compare a module's settings only after it moved.
    _changes = 0

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + len(kwargs) + 1} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        for table in _HOOK_TABLES:  # ordered dicts: handles refer to them weakly
            object.__setattr__(self, table, OrderedDict())

    def forward(self, *input):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or self._legacy_backward_hooks or _GLOBAL_HOOKS.any):
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    # -- hooks ------------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` (or ``(module, args, kwargs)``) runs before ``forward``; it
        may return new args (a tuple, or one value), or with kwargs an ``(args, kwargs)`` pair."""
        handle = RemovableHandle(self._forward_pre_hooks,
                                 extra_dict=self._forward_pre_hooks_with_kwargs)
        _insert(self._forward_pre_hooks, handle.id, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """``hook(module, args, output)`` (or ``(module, args, kwargs, output)``) runs after
        ``forward``; it may return a new output. ``always_call``: also when forward raised."""
        handle = RemovableHandle(self._forward_hooks, extra_dict=[
            self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        _insert(self._forward_hooks, handle.id, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs once the gradients with respect to the
        module's inputs are computed; it may return a new ``grad_input``."""
        self._check_backward_hook_kind(full=True)
        handle = RemovableHandle(self._backward_hooks)
        _insert(self._backward_hooks, handle.id, hook, prepend)
        return handle

    def register_backward_hook(self, hook):
        """The deprecated hook: ``hook(module, grad_input, grad_output)`` on the node that made
        the module's output, so ``grad_input`` are that last operation's input gradients
        (``nn.Linear``: bias, input, weight.t()). Prefer ``register_full_backward_hook``."""
        self._check_backward_hook_kind(full=False)
        handle = RemovableHandle(self._legacy_backward_hooks)
        self._legacy_backward_hooks[handle.id] = hook
        return handle

    def _check_backward_hook_kind(self, full):
        if (self._legacy_backward_hooks if full else self._backward_hooks):
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks "
                               "on a single Module. Please use only one of them.")

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the gradients with respect to the module's
        outputs are computed, before the module's own backward; it may return new ones."""
        handle = RemovableHandle(self._backward_pre_hooks)
        _insert(self._backward_pre_hooks, handle.id, hook, prepend)
        return handle

    def _call_with_hooks(self, args, kwargs):
        """A call with hooks: the global ones (``register_module_*``) run before the module's."""
        forward_hooks = (*_GLOBAL_HOOKS.forward.items(), *self._forward_hooks.items())
        try:
            for hook_id, hook in (*_GLOBAL_HOOKS.forward_pre.items(),
                                  *self._forward_pre_hooks.items()):
                args, kwargs = self._run_forward_pre_hook(hook_id, hook, args, kwargs)
            backward_hooks = {**_GLOBAL_HOOKS.backward, **self._backward_hooks}
            backward_hook = None
            if (backward_hooks or self._backward_pre_hooks) and grad_mode.is_grad_enabled():
                backward_hook = BackwardHook(self, backward_hooks, self._backward_pre_hooks)
                args = backward_hook.setup_input_hook(args)
            output = self.forward(*args, **kwargs)
        except Exception:
            for hook_id, hook in forward_hooks:
                if hook_id in self._forward_hooks_always_called or \
                        hook_id in _GLOBAL_HOOKS.forward_always_called:
                    self._run_forward_hook(hook_id, hook, args, kwargs, None)
            raise
        for hook_id, hook in forward_hooks:
            result = self._run_forward_hook(hook_id, hook, args, kwargs, output)
            if result is not None:
                output = result
        if self._legacy_backward_hooks and isinstance(output, Tensor) and \
                output.grad_fn is not None:
            module, hooks = self, self._legacy_backward_hooks
            output.grad_fn.register_hook(
                lambda grad_input, grad_output: _run_legacy_hooks(module, hooks, grad_input,
                                                                  grad_output))
        if backward_hook is not None:
            output = backward_hook.setup_output_hook(output)
        return output

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
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and param._grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method.")
        self._parameters[name] = _registered(_PARAMETER_REGISTRATION_HOOKS, self, name, param)
        Module._changes += 1

    def register_buffer(self, name, tensor, persistent=True):
        self._check_registrable(name, "buffer", "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = _registered(_BUFFER_REGISTRATION_HOOKS, self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)
        Module._changes += 1

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._check_registrable(name, "module", "_modules")
        self._modules[name] = _registered(_MODULE_REGISTRATION_HOOKS, self, name, module)
        Module._changes += 1

    register_module = add_module

    def _check_registrable(self, name, kind, own_dict):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
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
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = _registered(_MODULE_REGISTRATION_HOOKS, self, name, value)
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = None
        elif isinstance(value, Buffer):
            if params is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self._forget(name, keep=self._buffers)
            self.register_buffer(name, value, value.persistent)
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
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
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers)
                      | set(self._modules))

    # -- traversal --------------------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """``(name, module)`` for this module and every descendant, depth first, parents first."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
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
        for name in target.split(".") if target else ():
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
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
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
        object.__setattr__(self, "training", mode)
        Module._changes += 1
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

    def to(self, *args, **kwargs):
        """Converts floating-point parameters and buffers in place (the CPU is the only device)."""
        target = kwargs.get("dtype")
        _check_device(kwargs.get("device"))
        for arg in args:
            if isinstance(arg, Tensor):
                target = arg.dtype
            elif isinstance(arg, dtypes.dtype):
                target = arg
            else:
                _check_device(arg)
        if target is not None and not dtypes.as_dtype(target).is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={target}")
        if kwargs.get("memory_format") is not None:
            self._relayout(kwargs["memory_format"])
        return self if target is None else self._cast_floating(target)

    def _relayout(self, memory_format):
        """``to(memory_format=...)``: 4-d and 5-d parameters, buffers and grads take the layout
        (in place, keeping the Parameter objects), as PyTorch converts only those."""
        for module in self.modules():
            for tensor in (*module._parameters.values(), *module._buffers.values()):
                for t in () if tensor is None else (tensor, tensor._grad):
                    if t is not None and t._array.ndim in (4, 5):
                        t._array = t.to(memory_format=memory_format)._array

    def float(self):
        return self._cast_floating(dtypes.float32)

    def double(self):
        return self._cast_floating(dtypes.float64)

    def half(self):
        return self._cast_floating(dtypes.float16)

    def cpu(self):
        return self

    def to_empty(self, *, device=None, recurse=True):
        """Give every parameter and buffer new, uninitialized memory of its shape and dtype
        (on the CPU, the only device), as after building a model on the meta device."""
        _check_device("cpu" if device is None else device)
        for module in self.modules() if recurse else (self,):
            for tensor in (*module._parameters.values(), *module._buffers.values()):
                if tensor is not None:
                    tensor._array = np.empty_like(tensor._array)
        return self

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
        """Refused as in a PyTorch built without CUDA (tapegrad runs on the CPU)."""
        _check_device("cuda" if device is None else device)

    def type(self, dst_type):
        """Converts every parameter and buffer, floating or not, to ``dst_type`` (a dtype or a
        legacy type such as ``torch.DoubleTensor``)."""
        dtype = dtypes.as_dtype(type_argument_dtype(dst_type))
        if not dtype.is_floating_point and any(p.requires_grad for p in self.parameters()):
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        return self._cast_floating(dtype, floating_only=False)

    def _cast_floating(self, dtype, floating_only=True):
        """Swaps the data of every floating tensor of the tree (of every tensor unless
        ``floating_only``), keeping the Parameter objects."""
        numpy_dtype = dtypes.as_dtype(dtype).numpy
        for module in self.modules():
            for tensor in (*module._parameters.values(), *module._buffers.values()):
                if tensor is None or floating_only and tensor._array.dtype.kind != "f":
                    continue
                tensor._array = tensor._array.astype(numpy_dtype)
                if tensor._grad is not None:
                    tensor._grad._array = tensor._grad._array.astype(numpy_dtype)
        return self

    # -- state dict -------------------------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """Parameters, persistent buffers and extra state by dotted name; the tensors share the
        model's memory.

        A new state dict carries ``_metadata``: each module's ``_version`` under its dotted name,
        so loading can tell a checkpoint saved by an older layout. Pre-hooks run before a
        module saves its entries, post-hooks after its children saved theirs.
        """
        if args:
            destination = args[0]
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
        overrides it to save more, as in PyTorch."""
        for name, value in self._own_state().items():
            destination[prefix + name] = value if keep_vars else value.detach()
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
        """Copy ``state_dict`` into the model; every problem is found before anything is copied."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)  # a module may add what an older version did not save
        if metadata is not None:
            state_dict._metadata = metadata
        missing, unexpected, errors = [], [], []
        modules = []

        def check(module, prefix):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(state_dict, prefix, local_metadata, True, missing,
                                         unexpected, errors)
            modules.append((prefix, module))
            for name, child in module._modules.items():
                if child is not None:
                    check(child, prefix + name + ".")
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in tuple(module._load_state_dict_post_hooks.values()):
                if hook(module, keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be "
                        "modified, it should be done inplace.")

        check(self, "")
        if strict:
            errors[:0] = _key_errors("Missing", missing) + _key_errors("Unexpected", unexpected)
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self._get_name()}:\n\t"
                               + "\n\t".join(errors))
        with grad_mode.no_grad():
            for prefix, module in modules:
                module._copy_from_state_dict(state_dict, prefix, assign)
        return _IncompatibleKeys(missing, unexpected)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Check this module's own entries of ``state_dict`` (its children check theirs).

        As in PyTorch, a subclass overrides it to bring a checkpoint of an older ``_version``
        (``local_metadata.get("version")``, None for a plain dict) up to date in ``state_dict``
        before calling it. Nothing is copied here: ``load_state_dict`` copies once all passed.
        """
        for hook in tuple(self._load_state_dict_pre_hooks.values()):
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        own = self._own_state()
        for name, target in own.items():
            key = prefix + name
            if key in state_dict:
                error = _load_error(key, state_dict[key], target)
                if error:
                    error_msgs.append(error)
            elif strict:
                missing_keys.append(key)
        extra_key = prefix + _EXTRA_STATE_KEY
        if self._has_extra_state() and extra_key not in state_dict and strict:
            missing_keys.append(extra_key)
        if strict:
            unexpected_keys.extend(key for key in state_dict if key.startswith(prefix)
                                   and key != extra_key
                                   and not self._expects(key[len(prefix):], own))

    def _expects(self, key, own):
        """Whether ``key`` (relative to this module) is this module's or a child's to load."""
        child, dot, _ = key.partition(".")
        return child in self._modules if dot else key in own

    def _copy_from_state_dict(self, state_dict, prefix, assign):
        """Copy this module's entries of a checked ``state_dict``; ``assign`` takes the tensors
        themselves, as Parameters where the module has Parameters."""
        for name, target in self._own_state().items():
            key = prefix + name
            if key not in state_dict:
                continue
            source = state_dict[key]
            if not assign:
                target.copy_(source)
            elif isinstance(target, Parameter):
                setattr(self, name, _assigned_parameter(source, target.requires_grad))
            else:
                setattr(self, name, source)
        if self._has_extra_state() and prefix + _EXTRA_STATE_KEY in state_dict:
            self.set_extra_state(state_dict[prefix + _EXTRA_STATE_KEY])

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
                "_forward_hooks_always_called", "_legacy_backward_hooks",
                "_state_dict_pre_hooks", "_state_dict_hooks", "_load_state_dict_pre_hooks",
                "_load_state_dict_post_hooks")
_EXTRA_STATE_KEY = "_extra_state"
_NEVER_CALLED = ("Reached a code path in Module.{}() that should never be called. Please file an "
                 "issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                 "to report this bug.")


def _run_legacy_hooks(module, hooks, grad_input, grad_output):
    for hook in tuple(hooks.values()):
        replaced = hook(module, grad_input, grad_output)
        if replaced is not None:
            grad_input = replaced
    return grad_input


class _GlobalHooks:
    """The hooks every module runs (``register_module_forward_hook`` and kin); ``any`` keeps
    calls of modules without hooks on their fast path."""

    def __init__(self):
        self.forward_pre, self.forward, self.backward = OrderedDict(), OrderedDict(), OrderedDict()
        self.forward_with_kwargs, self.forward_always_called = OrderedDict(), OrderedDict()

    @property
    def any(self):
        return bool(self.forward_pre or self.forward or self.backward)


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
    handle = RemovableHandle(_GLOBAL_HOOKS.backward)
    _GLOBAL_HOOKS.backward[handle.id] = hook
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
    hooks[hook_id] = hook
    if prepend:
        hooks.move_to_end(hook_id, last=False)


class OptimizedModule(Module):
    """What ``tapegrad.compile(model)`` returns, as ``torch.compile`` does: a Module holding the
    model as ``_orig_mod`` — so its parameters, train/eval mode and state dict (keys
    ``_orig_mod.…``) are the model's — whose ``forward`` is the compiled one. Attributes it does
    not have are looked up on the model, and attributes set on it land on the model."""

    def __init__(self, mod, compiled_forward):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "forward", compiled_forward)

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

    def explain(self):
        """What compiling the model did (tapegrad's addition, as ``fn.explain()`` of a compiled
        function): each specialization's guards, IR, fused groups and kernel source."""
        return self.forward.explain()


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
                f"Tensor-like object from checkpoint but received {type(source)}")
    if source._array.shape != target._array.shape:
        return (f"size mismatch for {key}: copying a param with shape {source.shape} from "
                f"checkpoint, the shape in current model is {target.shape}.")
    return None


def _assigned_parameter(source, requires_grad):
    """The checkpoint's tensor as the Parameter ``assign=True`` puts in the model; the model's
    ``requires_grad`` wins, as in PyTorch."""
    if isinstance(source, Parameter):
        return source.requires_grad_(requires_grad)
    return Parameter(source, requires_grad)


def _type_name(value):
    return value.type() if isinstance(value, Tensor) else type(value).__name__
