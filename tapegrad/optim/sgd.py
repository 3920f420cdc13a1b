"""Stochastic gradient descent with momentum, dampening, Nesterov momentum and weight decay."""
from ..tensor import Tensor
from .optimizer import Optimizer, check_lr

__all__ = ["SGD"]


class SGD(Optimizer):
    _foreach_refuses_autograd = None
    _legacy_group_defaults = (("nesterov", False), ("maximize", False), ("foreach", None),
                              ("differentiable", False), ("fused", False))

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        check_lr(lr)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    _accepts_sparse_grads = True

    def _update(self, group, param, grad, state):
        grad = self._apply_weight_decay(group, param, grad)
        momentum = group["momentum"]
        if momentum != 0:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = grad.clone().detach()
            elif buffer.is_sparse:  # (a sparse gradient's buffer stays sparse, as in PyTorch)
                buffer = state["momentum_buffer"] = buffer.mul(momentum).add(
                    grad, alpha=1 - group["dampening"])
            else:
                buffer.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buffer, alpha=momentum) if group["nesterov"] else buffer
        lr = group["lr"]
        if grad.is_sparse:
            self._add_sparse_(param, grad, -lr)
        elif isinstance(lr, Tensor) and lr.requires_grad:  # a learned lr (differentiable=True)
            param.addcmul_(grad, lr, value=-1)
        else:
            param.add_(grad, alpha=-lr)
