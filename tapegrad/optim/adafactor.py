"""Adafactor: Adam-like steps whose second moments of a matrix are kept factored, one row and
one column average, so the optimizer's memory grows with rows + columns, not rows × columns.

PyTorch's variant (``torch.optim.Adafactor``): no first moment, a decay ``1 - t**beta2_decay``
for the second moments, a relative step size ``min(lr, 1/sqrt(t))`` scaled by the parameter's
RMS, and updates clipped to RMS ``d``.
"""
import numpy as np

from .. import dtypes, ops
from .optimizer import Optimizer, check_lr

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    _legacy_group_defaults = (("foreach", None),)
    _legacy_number_state = ("step",)
    _complex_as_real = False  # refuses complex parameters in _update

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        check_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize))

    def _update(self, group, param, grad, state):
        if param.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        factored = grad.dim() > 1
        if not state:
            state["step"] = ops.tensor(0.0)
            if factored:
                state["row_var"] = grad.new_zeros((*grad.shape[:-1], 1))
                state["col_var"] = grad.new_zeros((*grad.shape[:-2], 1, grad.shape[-1]))
            else:
                state["variance"] = ops.zeros_like(grad)
        lr, d, weight_decay = group["lr"], group["d"], group["weight_decay"]
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = float(np.finfo(dtypes.as_dtype(param.dtype).numpy).eps)
        state["step"].add_(1)
        step = state["step"].item()
        one_minus_beta2 = step ** group["beta2_decay"]
        rho = min(lr, 1 / step ** 0.5)
        alpha = max(eps2, param.norm(2).item() / param.numel() ** 0.5) * rho
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if factored:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(ops.norm(grad, dim=-1, keepdim=True).square() / grad.size(-1),
                          one_minus_beta2)
            col_var.lerp_(ops.norm(grad, dim=-2, keepdim=True).square() / grad.size(-2),
                          one_minus_beta2)
            var_estimate = (row_var @ col_var) / row_var.mean(dim=-2, keepdim=True).clamp(
                min=eps1)
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2)
            var_estimate = state["variance"]
        update = var_estimate.clamp(min=eps1 * eps1).rsqrt() * grad
        denominator = max(1.0, update.norm(2).item() / (update.numel() ** 0.5 * d))
        param.add_(update, alpha=-alpha / denominator)
