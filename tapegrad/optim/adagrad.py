"""Adagrad: per-coordinate steps shrink with the running sum of squared gradients."""
from .. import ops
from .optimizer import Optimizer, addcdiv_, check_lr, in_lr_dtype, rule_lr

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    _foreach_refuses_autograd = "always"
    _legacy_group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                              ("fused", None))
    _legacy_number_state = ("step",)

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        check_lr(lr)
        # (PyTorch's order of checks: the first invalid value names the error)
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value),
                            ("epsilon value", eps)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, fused=fused))
        # PyTorch creates Adagrad's state up front, so a fresh state_dict already holds it.
        for group in self.param_groups:
            for param in group["params"]:
                self._initialise(param, self.state[param])

    def _initialise(self, param, state):
        """A zero step and the accumulator filled with the optimizer's (not the group's)
        ``initial_accumulator_value``, as PyTorch: ``v + vj`` for a complex parameter."""
        value = self.defaults["initial_accumulator_value"]
        state["step"] = ops.tensor(0.0)
        state["sum"] = ops.full_like(param, complex(value, value) if param.is_complex() else value)

    _accepts_sparse_grads = True

    def _update(self, group, param, grad, state):
        if not state:
            self._initialise(param, state)
        state["step"].add_(1)
        if grad.is_sparse:
            return self._update_rows(group, param, grad, state)
        grad = self._apply_weight_decay(group, param, grad)
        step_size = rule_lr(group, foreach_reads_number=False)
        if group["lr_decay"] != 0:  # (a hyperparameter: no tensor ops per step without decay)
            # From the step tensor in float64, as PyTorch's Python numbers: no .item(), so a
            # compiled step keeps the count in its kernel.
            decay = 1 + (state["step"].double() - 1) * group["lr_decay"]
            step_size = step_size / in_lr_dtype(step_size, decay)
        state["sum"].addcmul_(grad, grad, value=1)
        addcdiv_(param, grad, state["sum"].sqrt() + group["eps"], -step_size)

    @staticmethod
    def _update_rows(group, param, grad, state):
        """The update for a sparse gradient: only its stored positions accumulate and move."""
        if group["weight_decay"] != 0:
            raise RuntimeError("weight_decay option is not compatible with sparse gradients")
        step_size = group["lr"] / (1 + (state["step"].item() - 1) * group["lr_decay"])
        grad = grad.coalesce()
        positions, values = tuple(grad._indices()), grad._values()
        state["sum"].index_put_(positions, values * values, accumulate=True)
        std = state["sum"][positions].sqrt() + group["eps"]
        param.index_put_(positions, values / std * -step_size, accumulate=True)
