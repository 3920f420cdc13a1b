"""``Optimizer``: parameter groups, per-parameter state, ``zero_grad`` and state dicts.

Subclasses write only ``_update(group, param, grad, state)``, the rule for one parameter; the base
class walks the groups under ``no_grad`` so that no update is recorded on the tape, unless the
optimizer is ``differentiable`` (meta-learning through the step, as in PyTorch): then the rule's
operations are recorded, in place on the (non-leaf) parameters and state.
"""
import copy
import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import MutableMapping
from itertools import chain

from .. import _profiling, dtypes, ops
from .._runtime import typename
from ..autograd import grad_mode
from ..nn.modules.hooks import RemovableHandle
from ..nn.parameter import reset_grad
from ..tensor import Tensor

__all__ = ["Optimizer", "required", "check_lr", "check_hyperparameters", "in_lr_dtype",
           "rule_lr", "divide", "register_optimizer_step_pre_hook",
           "register_optimizer_step_post_hook"]


class _Required:
    """Marks a hyper-parameter that has no default and must be given per group."""

    def __repr__(self):
        return "<required parameter>"


required = _Required()

# Options that select an implementation strategy in PyTorch; they change no numbers, so they are
# kept in the groups (and the repr, and state dicts) for compatibility and otherwise ignored.
IMPLEMENTATION_OPTIONS = ("foreach", "fused", "capturable")

# PyTorch's refusal, at the step, of a parameter its fused kernels cannot update (complex).
_FUSED_DTYPE_ERROR = ("`fused=True` requires all the params to be floating point Tensors of "
                      "supported devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', "
                      "'privateuseone'] but {} and cpu")

# The hooks of every optimizer's step (``register_optimizer_step_pre_hook`` and kin).
_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()

# Each optimizer's own hook tables (ordered dicts: handles refer to them weakly).
_HOOK_TABLES = ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                "_optimizer_load_state_dict_pre_hooks", "_optimizer_load_state_dict_post_hooks")


def register_optimizer_step_pre_hook(hook):
    """``hook(optimizer, args, kwargs)`` before every optimizer's step (before its own
    pre-hooks); it may return new ``(args, kwargs)``."""
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook):
    """``hook(optimizer, args, kwargs)`` after every optimizer's step (after its own
    post-hooks)."""
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


def _with_step_hooks(step):
    """``step`` running the step pre- and post-hooks around it, as PyTorch's optimizers do."""
    @functools.wraps(step)
    def hooked_step(*args, **kwargs):
        if _profiling.active is None:
            return run_with_hooks(args, kwargs)
        with _profiling.Range(f"Optimizer.step#{type(args[0]).__name__}.step"):  # as PyTorch's
            return run_with_hooks(args, kwargs)

    def run_with_hooks(args, kwargs):
        self = args[0]
        for hook in chain(tuple(_global_optimizer_pre_hooks.values()),
                          tuple(self._optimizer_step_pre_hooks.values())):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{step} must return None or a tuple of (new_args, "
                                       f"new_kwargs), but got {result}.")
                args, kwargs = result
        out = step(*args, **kwargs)
        for hook in chain(tuple(self._optimizer_step_post_hooks.values()),
                          tuple(_global_optimizer_post_hooks.values())):
            hook(self, args, kwargs)
        return out
    hooked_step._hooked = True
    return hooked_step


def _patch_step_hooks(optimizer):
    """PyTorch's ``_patch_step_function``: the ``step`` the optimizer's class resolves to gets
    wrapped in the hooks, once, on that class, when an instance runs ``Optimizer.__init__``,
    ``zero_grad`` or ``__setstate__``. So a wrapper that skips ``__init__`` (timm's
    ``Lookahead``) steps bare, and a subclass's ``step`` calling ``super().step()`` runs the
    hooks a second time once the parent class has been patched too, as in PyTorch."""
    cls = type(optimizer)
    if not getattr(cls.step, "_hooked", False):
        cls.step = _with_step_hooks(cls.step)


def _own_step(cls):
    """``Optimizer._step_by_rule`` as ``cls.step``, a function of that name (PyTorch's hook
    errors name it: ``<function SGD.step at ...>``)."""
    def step(self, closure=None):
        return Optimizer._step_by_rule(self, closure)
    step.__qualname__ = f"{cls.__qualname__}.step"
    step.__module__ = cls.__module__
    step.__doc__ = Optimizer._step_by_rule.__doc__
    return step


class Optimizer:
    """Base class: ``params`` is an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts
    (parameter groups, each with its own options)."""

    def __init__(self, params, defaults):
        for table in _HOOK_TABLES:
            setattr(self, table, OrderedDict())
        _patch_step_hooks(self)
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {params.type()}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        if defaults.get("fused"):  # PyTorch checks these once the groups are in
            if defaults.get("differentiable"):
                raise RuntimeError("`fused` does not support `differentiable`")
            if defaults.get("foreach"):
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def add_param_group(self, param_group):
        """Add a group; as in PyTorch, the dict given becomes the group (its ``params`` turned
        into a list of tensors, its missing options filled from the defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        _extract_params(param_group)
        params = param_group["params"]
        differentiable = self.defaults.get("differentiable")
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{typename(param)}")
            if not (differentiable or param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for other in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in other):
                raise ValueError("all optimizer param groups should be with/without names. "
                                 "cannot add param group "
                                 f"{'with' if 'param_names' in param_group else 'without'} names "
                                 "to the optimizer")
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if existing & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        _patch_step_hooks(self)
        if _profiling.active is None:
            return self._reset_grads(set_to_none)
        with _profiling.Range(f"Optimizer.zero_grad#{type(self).__name__}.zero_grad"):
            self._reset_grads(set_to_none)

    def _reset_grads(self, set_to_none):
        for group in self.param_groups:
            for param in group["params"]:
                reset_grad(param, set_to_none)

    def __init_subclass__(cls, **kwargs):
        """A built-in optimizer (a class with an update rule) gets its own ``step``, as each of
        PyTorch's defines one, so that hooks are patched onto it class by class as there."""
        super().__init_subclass__(**kwargs)
        if "_update" in cls.__dict__ and "step" not in cls.__dict__:
            cls.step = _own_step(cls)

    def step(self, closure=None):
        raise NotImplementedError

    def _step_by_rule(self, closure=None):
        """One update of every parameter that has a gradient; ``closure`` re-evaluates the loss."""
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.set_grad_enabled(bool(self.defaults.get("differentiable"))):  # see top
            for group in self.param_groups:
                self._check_sparse_grads(group)
                if group.get("foreach") and group.get("differentiable"):
                    self._refuse_foreach_autograd(group)
                for param in group["params"]:
                    if param._grad is None:
                        continue
                    grad = param._grad
                    if group.get("maximize"):
                        grad = -grad
                    if group.get("capturable") and not group.get("fused"):
                        raise AssertionError(self._capturable_error(group))
                    if group.get("fused") and not param.is_floating_point():
                        raise RuntimeError(_FUSED_DTYPE_ERROR.format(param.dtype))
                    state = self.state[param]
                    if param._array.dtype.kind == "c" and self._complex_as_real:
                        self._update(group, ops.view_as_real(param), ops.view_as_real(grad),
                                     _RealPairs(state, param))
                    else:
                        self._update(group, param, grad, state)
                    if not state:  # a rule that keeps nothing (SGD without momentum): no entry
                        del self.state[param]
        return loss

    def _update(self, group, param, grad, state):
        """The rule for one parameter, which each built-in optimizer defines."""
        raise NotImplementedError

    # Whether PyTorch's foreach implementation of the rule refuses ``differentiable=True``:
    # "always" (it checks before it looks for gradients), "with_grads" (only for a group with
    # some gradient) or None (SGD's runs it).
    _foreach_refuses_autograd = "with_grads"

    def _refuse_foreach_autograd(self, group):
        if self._foreach_refuses_autograd == "always" or (
                self._foreach_refuses_autograd and
                any(p._grad is not None for p in group["params"])):
            raise AssertionError("_foreach ops don't support autograd")

    # Whether the rule takes sparse COO gradients (``nn.Embedding(sparse=True)``), as PyTorch's
    # SGD, Adagrad and SparseAdam do; the others refuse them, Adam with some advice.
    _accepts_sparse_grads = False
    _sparse_grads_advice = ""

    def _check_sparse_grads(self, group):
        """PyTorch's refusal of sparse gradients, for the whole group before any update, naming
        the built-in optimizer whose rule this is (Adam for AdamW, as there)."""
        if self._accepts_sparse_grads:
            return
        if any(p._grad is not None and p._grad.is_sparse for p in group["params"]):
            rule_owner = next(c for c in type(self).__mro__ if "_update" in c.__dict__)
            raise RuntimeError(f"{rule_owner.__name__} does not support sparse gradients"
                               f"{self._sparse_grads_advice}")

    # Whether a complex parameter is updated as pairs of real numbers (PyTorch's view_as_real in
    # its optimizers: Adam's second moment is then |re|^2 and |im|^2, not a complex square);
    # an optimizer that refuses complex parameters sees them as they are.
    _complex_as_real = True

    # What PyTorch's capturable (CUDA-graph) implementations name in their device check, and
    # whether they accept XLA: (single-tensor, foreach).
    _capturable_tensors = ("params and state_steps", "params and state_steps")
    _capturable_xla = (True, False)

    def _capturable_error(self, group):
        """PyTorch's message for ``capturable=True`` with parameters on the CPU."""
        implementation = 1 if group.get("foreach") else 0
        devices = ["cuda", "xpu", "hpu", "privateuseone"]
        if self._capturable_xla[implementation]:
            devices.append("xla")
        return (f"If capturable=True, {self._capturable_tensors[implementation]} must be on "
                f"supported devices: {devices}.")

    @staticmethod
    def _add_sparse_(param, grad, alpha):
        """``param.add_(grad, alpha=alpha)`` for a sparse COO ``grad``: only its stored
        positions move (duplicates summed)."""
        grad = grad.coalesce()
        param.index_put_(tuple(grad._indices()), grad._values() * alpha, accumulate=True)

    @staticmethod
    def _apply_weight_decay(group, param, grad, lr=None):
        """L2 decay: added to the gradient, or (``decoupled_weight_decay``) applied to the weights
        directly, as AdamW, with ``lr`` (the group's by default); returns the gradient the update
        rule should use."""
        weight_decay = group["weight_decay"]
        if weight_decay == 0:
            return grad
        if group.get("decoupled_weight_decay"):
            param.mul_(1 - (group["lr"] if lr is None else lr) * weight_decay)
            return grad
        return grad.add(param, alpha=weight_decay)

    # -- hooks ----------------------------------------------------------------------------------
    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` before each ``step``; it may return new
        ``(args, kwargs)``."""
        return self._register_hook("_optimizer_step_pre_hooks", hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` after each ``step``."""
        return self._register_hook("_optimizer_step_post_hooks", hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer)`` before ``state_dict`` builds the dict."""
        return self._register_hook("_optimizer_state_dict_pre_hooks", hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict)`` after ``state_dict``; what it returns (if not None)
        replaces the state dict."""
        return self._register_hook("_optimizer_state_dict_post_hooks", hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict)`` before ``load_state_dict``; what it returns (if not
        None) is loaded instead."""
        return self._register_hook("_optimizer_load_state_dict_pre_hooks", hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer)`` after ``load_state_dict``."""
        return self._register_hook("_optimizer_load_state_dict_post_hooks", hook, prepend)

    def _register_hook(self, table_name, hook, prepend=False):
        table = getattr(self, table_name)
        handle = RemovableHandle(table)
        table[handle.id] = hook
        if prepend:
            table.move_to_end(handle.id, last=False)
        return handle

    # -- state dicts ------------------------------------------------------------------------------
    def state_dict(self):
        """``{"state": {index: state}, "param_groups": [...]}`` with parameters as indices."""
        for hook in tuple(self._optimizer_state_dict_pre_hooks.values()):
            hook(self)
        index_of = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for param in group["params"]:
                index_of.setdefault(id(param), len(index_of))
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            groups.append(packed)
        # keys that are no tensor (state loaded for no parameter) stay as they are, as PyTorch
        state = {index_of[id(key)] if isinstance(key, Tensor) else key: value
                 for key, value in self.state.items()}
        state_dict = {"state": state, "param_groups": groups}
        for hook in tuple(self._optimizer_state_dict_post_hooks.values()):
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict):
        """Restore hyper-parameters and state; the groups must match in number and size."""
        state_dict = state_dict.copy()
        for hook in tuple(self._optimizer_load_state_dict_pre_hooks.values()):
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        saved_groups = copy.deepcopy(state_dict["param_groups"])  # they become the groups
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(saved["params"]) != len(own["params"])
               for saved, own in zip(saved_groups, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the "
                             "size of optimizer's group")
        param_of = {index: param for saved, own in zip(saved_groups, self.param_groups)
                    for index, param in zip(saved["params"], own["params"])}
        group_of = {index: saved for saved in saved_groups for index in saved["params"]}
        state = defaultdict(dict)
        for index, value in state_dict["state"].items():
            if index in param_of:
                state[param_of[index]] = _cast_like(param_of[index], None, value,
                                                    group_of[index])
            else:  # the state of no parameter is kept as it is, as PyTorch keeps it
                state[index] = value
        for saved, own in zip(saved_groups, self.param_groups):
            saved["params"] = own["params"]
            if "param_names" in own and "param_names" not in saved:
                saved["param_names"] = own["param_names"]
        # Through __setstate__, as PyTorch: it (or a subclass's override) upgrades old state.
        self.__setstate__({"state": state, "param_groups": saved_groups})
        for hook in tuple(self._optimizer_load_state_dict_post_hooks.values()):
            hook(self)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for table in _HOOK_TABLES:  # hooks are not saved
            self.__dict__.setdefault(table, OrderedDict())
        _patch_step_hooks(self)
        self.defaults.setdefault("differentiable", False)
        self._upgrade_legacy_state()

    # What PyTorch's optimizers fill in, in ``__setstate__``, for the state dicts of its older
    # versions: options a group lacks, (name, value) in PyTorch's order, and the state kept as
    # Python numbers then, which become 0-d tensors.
    _legacy_group_defaults = ()
    _legacy_number_state = ()

    def _upgrade_legacy_state(self):
        for group in self.param_groups:
            for key, value in self._legacy_group_defaults:
                group.setdefault(key, value)
            for param in group["params"]:
                param_state = self.state.get(param)
                if not param_state:
                    continue
                for key in self._legacy_number_state:
                    if not isinstance(param_state[key], Tensor):
                        dtype = dtypes.float32 if group.get("fused") else None
                        param_state[key] = ops.tensor(float(param_state[key]), dtype=dtype)

    def __repr__(self):
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _extract_params(param_group):
    """Turn the group's ``params`` into a list of tensors, moving the names of ``(name, tensor)``
    pairs to ``param_names``. A set is refused: its order, hence the order of the optimizer's
    state, would change from run to run."""
    params = param_group["params"]
    if isinstance(params, set):
        raise TypeError("optimizer parameters need to be organized in ordered collections, but "
                        "the ordering of tensors in sets will change between runs. Please use a "
                        "list instead.")
    params = [params] if isinstance(params, Tensor) else list(params)
    names = [param[0] for param in params if isinstance(param, tuple)]
    param_group["params"] = [param[1] if isinstance(param, tuple) else param for param in params]
    if names:
        if len(names) != len(params):
            raise ValueError("all optimizer params should be with/without names. Some param "
                             "names are missing")
        param_group["param_names"] = names


def addcdiv_(param, tensor1, tensor2, value):
    """PyTorch's ``param.addcdiv_(tensor1, tensor2, value=value)``, rounding as its CPU kernel:
    ``param + (value · tensor1) / tensor2`` with ``value`` in the parameter's dtype. ``value`` may
    be a 0-d tensor (a coefficient computed from the step tensor, or a tensor lr), which the
    ``addcdiv_`` op does not take."""
    if isinstance(value, Tensor):
        return param.add_(value.to(param.dtype) * tensor1 / tensor2)
    return param.addcdiv_(tensor1, tensor2, value=value)


def rule_lr(group, foreach_reads_number=True):
    """The group's lr as PyTorch's update rules compute with it: the fused rules, and the foreach
    ones (but Adagrad's), read a tensor lr as a Python number (float64); the single-tensor ones
    keep the tensor."""
    lr = group["lr"]
    if isinstance(lr, Tensor) and (group.get("fused")
                                   or (foreach_reads_number and group.get("foreach"))):
        return lr.double()
    return lr


def in_lr_dtype(lr, number):
    """A float64 0-d tensor standing for one of PyTorch's Python numbers (a bias correction from
    the step count), as arithmetic with ``lr`` takes it: a tensor lr computes in its own dtype
    (float32 steps for float64 parameters, as in PyTorch), a Python lr in float64."""
    return number.to(lr.dtype) if isinstance(lr, Tensor) else number


def divide(numerator, tensor, as_number=None):
    """``numerator / tensor`` as PyTorch computes it: a Python number over a tensor is
    ``tensor.reciprocal() * number`` there (``Tensor.__rtruediv__``), rounded twice.
    ``as_number``: whether ``numerator`` stands for a Python number of PyTorch's rule (by
    default, whether it is not a tensor; a 0-d tensor computed from the step count may)."""
    if as_number is None:
        as_number = not isinstance(numerator, Tensor)
    return tensor.reciprocal() * numerator if as_number else numerator / tensor


def check_lr(lr):
    """PyTorch's first check in every optimizer: a tensor learning rate holds one number."""
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def check_hyperparameters(lr=0.0, eps=0.0, weight_decay=0.0, betas=(0.0, 0.0)):
    """Raise PyTorch's ``ValueError`` for a tensor lr of more than one element, a negative lr,
    eps or weight decay, or a beta outside [0, 1)."""
    check_lr(lr)
    if not 0.0 <= lr:  # (written as PyTorch: a str lr raises its TypeError)
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for index in (0, 1):  # (indexed as PyTorch: a 1-tuple raises its IndexError)
        beta = betas[index]
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _cast_like(param, key, value, group):
    """A loaded state value as PyTorch takes it: tensors moved to a floating parameter's dtype
    with ``.to`` — the same tensor when it already is one, so that an optimizer loaded from
    another's live ``state_dict()`` shares its state, as in PyTorch — except a ``step``, kept
    as it is (float32 for fused or capturable groups); dicts, lists and tuples are rebuilt with
    their items cast alike (list items have no key)."""
    if isinstance(value, Tensor):
        if key == "step":
            fused_or_capturable = group.get("fused") or group.get("capturable")
            return value.to(dtypes.float32) if fused_or_capturable else value
        return value.to(param.dtype) if param.is_floating_point() else value
    if isinstance(value, dict):
        return {k: _cast_like(param, k, v, group) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_like(param, None, v, group) for v in value)
    return value


class _RealPairs(MutableMapping):
    """The state of a complex parameter as its rule sees it: each tensor of the parameter's
    shape as real pairs (a view, so in-place updates reach it), stored complex, as PyTorch
    stores it (``state_dict`` shows complex moments)."""

    def __init__(self, state, param):
        self._state, self._shape = state, tuple(param.shape) + (2,)

    def __getitem__(self, key):
        value = self._state[key]
        return ops.view_as_real(value) if isinstance(value, Tensor) and value.is_complex() \
            else value

    def __setitem__(self, key, value):
        if isinstance(value, Tensor) and value.is_floating_point() and \
                tuple(value.shape) == self._shape:
            value = ops.view_as_complex(value)
        self._state[key] = value

    def __delitem__(self, key):
        del self._state[key]

    def __iter__(self):
        return iter(self._state)

    def __len__(self):
        return len(self._state)
