"""Rprop: a per-element step size that grows while the gradient keeps its sign and shrinks
when it flips; only the gradient's sign moves the parameter."""
from .. import ops
from .optimizer import Optimizer, check_lr

__all__ = ["Rprop"]


class Rprop(Optimizer):
    _legacy_group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                              ("capturable", False))
    _legacy_number_state = ("step",)
    _capturable_xla = (True, True)

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["prev"] = ops.zeros_like(param)
            state["step_size"] = ops.full_like(grad, group["lr"])
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        prev, step_size = state["prev"], state["step_size"]
        state["step"].add_(1)
        sign = (grad * prev).sign()
        # (filled in the gradient's dtype, as PyTorch: a float64 step size grows by exact etas)
        factor = sign.masked_fill(sign > 0, etaplus).masked_fill(sign < 0, etaminus) \
            .masked_fill(sign == 0, 1)
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        grad = ops.where(sign < 0, 0.0, grad).to(grad.dtype)  # a flipped sign: no step now
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
