"""``Optimizer``: parameter groups, per-parameter state, ``zero_grad`` and state dicts.

Subclasses write only ``_update(group, param, grad, state)``, the rule for one parameter; the base
class walks the groups under ``no_grad`` so that no update is ever recorded on the tape.
"""
import copy
import warnings
from collections import defaultdict

from ..autograd import grad_mode
from ..nn.parameter import reset_grad
from ..tensor import Tensor

__all__ = ["Optimizer", "required", "check_hyperparameters"]


class _Required:
    """Marks a hyper-parameter that has no default and must be given per group."""

    def __repr__(self):
        return "<required parameter>"


required = _Required()

# Options that select an implementation strategy in PyTorch; they change no numbers, so they are
# kept in the groups (and the repr, and state dicts) for compatibility and otherwise ignored.
IMPLEMENTATION_OPTIONS = ("foreach", "fused", "capturable")


class Optimizer:
    """Base class: ``params`` is an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts
    (parameter groups, each with its own options)."""

    def __init__(self, params, defaults):
        if defaults.get("differentiable"):
            raise NotImplementedError("differentiable=True is not supported: optimizer steps are "
                                      "never recorded on the tape")
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

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        if params and isinstance(params[0], tuple):
            group["param_names"] = [name for name, _ in params]
            params = [param for _, param in params]
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{type(param).__name__}")
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for other in self.param_groups:
            if ("param_names" in group) != ("param_names" in other):
                raise ValueError("all optimizer param groups should be with/without names. "
                                 "cannot add param group "
                                 f"{'with' if 'param_names' in group else 'without'} names to "
                                 "the optimizer")
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if existing & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        group["params"] = params
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for param in group["params"]:
                reset_grad(param, set_to_none)

    def step(self, closure=None):
        """One update of every parameter that has a gradient; ``closure`` re-evaluates the loss."""
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.no_grad():
            for group in self.param_groups:
                for param in group["params"]:
                    if param._grad is None:
                        continue
                    grad = param._grad
                    if group.get("maximize"):
                        grad = -grad
                    state = self.state[param]
                    self._update(group, param, grad, state)
                    if not state:  # a rule that keeps nothing (SGD without momentum): no entry
                        del self.state[param]
        return loss

    def _update(self, group, param, grad, state):
        raise NotImplementedError

    @staticmethod
    def _apply_weight_decay(group, param, grad):
        """L2 decay: added to the gradient, or (``decoupled_weight_decay``) applied to the weights
        directly, as AdamW; returns the gradient the update rule should use."""
        weight_decay = group["weight_decay"]
        if weight_decay == 0:
            return grad
        if group.get("decoupled_weight_decay"):
            param.mul_(1 - group["lr"] * weight_decay)
            return grad
        return grad.add(param, alpha=weight_decay)

    # -- state dicts ------------------------------------------------------------------------------
    def state_dict(self):
        """``{"state": {index: state}, "param_groups": [...]}`` with parameters as indices."""
        index_of = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for param in group["params"]:
                index_of.setdefault(id(param), len(index_of))
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index_of[id(param)]: value for param, value in self.state.items()
                 if id(param) in index_of}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore hyper-parameters and state; the groups must match in number and size."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(saved["params"]) != len(own["params"])
               for saved, own in zip(saved_groups, self.param_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the "
                             "size of optimizer's group")
        param_of = {index: param for saved, own in zip(saved_groups, self.param_groups)
                    for index, param in zip(saved["params"], own["params"])}
        state = defaultdict(dict)
        for index, value in state_dict["state"].items():
            if index in param_of:
                param = param_of[index]
                state[param] = {key: _cast_like(param, key, v) for key, v in value.items()}
        groups = []
        for saved, own in zip(saved_groups, self.param_groups):
            group = copy.deepcopy({key: value for key, value in saved.items() if key != "params"})
            group["params"] = own["params"]
            groups.append(group)
        self.state = state
        self.param_groups = groups

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __repr__(self):
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def check_hyperparameters(lr=0.0, eps=0.0, weight_decay=0.0, betas=(0.0, 0.0)):
    """Raise PyTorch's ``ValueError`` for a negative lr, eps or weight decay, or a beta outside
    [0, 1)."""
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for index, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _cast_like(param, key, value):
    """A loaded state value as PyTorch takes it: a tensor moved to a floating parameter's dtype
    with ``.to`` — the same tensor when it already is one, so that an optimizer loaded from
    another's live ``state_dict()`` shares its state, as in PyTorch — ``step`` and everything
    else as it is."""
    if isinstance(value, Tensor) and key != "step" and param.is_floating_point():
        return value.to(param.dtype)
    return value
