"""Adamax: Adam with the second moment replaced by an exponentially weighted infinity norm."""
from .. import ops
from .optimizer import Optimizer, addcdiv_, check_hyperparameters, in_lr_dtype, rule_lr

__all__ = ["Adamax"]


class Adamax(Optimizer):
    _foreach_refuses_autograd = "always"
    _legacy_group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                              ("capturable", False))
    _legacy_number_state = ("step",)

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        check_hyperparameters(lr, eps, weight_decay, betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, capturable=capturable))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["exp_avg"] = ops.zeros_like(param)
            state["exp_inf"] = ops.zeros_like(param)
        beta1, beta2 = group["betas"]
        state["step"].add_(1)
        step = state["step"].double()  # no .item(): a compiled step keeps the count (see Adam)
        grad = self._apply_weight_decay(group, param, grad)
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.lerp_(grad, 1 - beta1)
        # (out of place before the copy: a differentiable step saves maximum's inputs)
        exp_inf.copy_(ops.maximum(exp_inf * beta2, grad.abs() + group["eps"]))
        lr = rule_lr(group)
        addcdiv_(param, exp_avg, exp_inf, -(lr / in_lr_dtype(lr, 1 - beta1 ** step)))
