"""RAdam: Adam whose adaptive step is switched on, and rectified, once the variance of the
second-moment estimate is tractable (SGD with momentum before that)."""
from .. import ops
from .optimizer import Optimizer, check_hyperparameters, in_lr_dtype

__all__ = ["RAdam"]


class RAdam(Optimizer):
    _legacy_group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                              ("decoupled_weight_decay", False), ("capturable", False))
    _legacy_number_state = ("step",)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        check_hyperparameters(lr, eps, weight_decay, betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      decoupled_weight_decay=decoupled_weight_decay,
                                      differentiable=differentiable))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["exp_avg"] = ops.zeros_like(param)
            state["exp_avg_sq"] = ops.zeros_like(param)
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        state["step"].add_(1)
        step = state["step"].double()  # no .item(): a compiled step keeps the count (see Adam)
        grad = self._apply_weight_decay(group, param, grad)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / (1 - beta2 ** step)
        # Both updates, then a select on rho_t > 5 rather than a Python branch on the step count,
        # which a compiled step could not trace. The unused rectification must stay finite (its
        # zero gradient would turn a nan into a nan gradient in a differentiable step): the clamp
        # keeps it from the square root of a negative number, and with rho_inf <= 5 (rho_t stays
        # below it, never rectified) the formula, whose factors may vanish, is not used at all.
        rho = rho_t.clamp(min=5.0)
        if rho_inf > 5:
            rectification = ((rho - 4) * (rho - 2) * rho_inf
                             / ((rho_inf - 4) * (rho_inf - 2) * rho)) ** 0.5
        else:
            rectification = ops.zeros_like(rho)
        rectified = rho_t > 5.0
        if group["foreach"]:
            self._multi_tensor_rule(param, exp_avg, exp_avg_sq, lr, group["eps"], rectified,
                                    ops.where(rectified, rectification, 0.0),
                                    bias_correction1, bias_correction2_sqrt)
            return
        dtype = param.dtype
        corrected_exp_avg = exp_avg / bias_correction1.to(dtype)
        adaptive_lr = bias_correction2_sqrt.to(dtype) / (exp_avg_sq.sqrt() + group["eps"])
        momentum_update = corrected_exp_avg * lr
        rectified_update = momentum_update * adaptive_lr * rectification.to(dtype)
        param.sub_(ops.where(rectified, rectified_update, momentum_update))

    @staticmethod
    def _multi_tensor_rule(param, exp_avg, exp_avg_sq, lr, eps, rectified, rectification,
                           bias_correction1, bias_correction2_sqrt):
        """PyTorch's ``_multi_tensor_radam`` (``foreach=True``), which rounds differently from
        the single-tensor rule: one multiplier per element, ``1 / ((√v + eps) / c)`` plus the
        unrectified step size, applied with one ``addcmul_``. Before rectification PyTorch's
        ``c`` is -0.0 and the reciprocal term -0.0; here it is selected away, not divided by
        zero."""
        dtype = param.dtype
        bias_correction1 = in_lr_dtype(lr, bias_correction1)
        unrectified_step = ops.where(rectified, 0.0, -(lr / bias_correction1))
        scale = -(in_lr_dtype(lr, bias_correction2_sqrt)
                  * (lr * in_lr_dtype(lr, rectification) / bias_correction1))
        scale = ops.where(rectified, scale, -1.0).to(dtype)
        multiplier = ops.where(rectified, ((exp_avg_sq.sqrt() + eps) / scale).reciprocal(), 0.0)
        param.addcmul_(exp_avg, multiplier + unrectified_step.to(dtype))
