"""Adadelta: steps scaled by the ratio of running RMS of past updates to that of gradients."""
from .. import ops
from .optimizer import Optimizer, check_hyperparameters

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    _foreach_refuses_autograd = "always"
    _legacy_group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                              ("capturable", False))
    _legacy_number_state = ("step",)
    _capturable_xla = (False, False)

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        check_hyperparameters(lr, eps, weight_decay)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, capturable=capturable, foreach=foreach,
                                      differentiable=differentiable))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["square_avg"] = ops.zeros_like(param)
            state["acc_delta"] = ops.zeros_like(param)
        rho, eps = group["rho"], group["eps"]
        state["step"].add_(1)
        grad = self._apply_weight_decay(group, param, grad)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        delta = (acc_delta + eps).sqrt() / (square_avg + eps).sqrt() * grad
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-group["lr"])
