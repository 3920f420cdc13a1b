"""NAdam: Adam with Nesterov momentum, whose momentum coefficient warms up over the steps."""
from .. import ops
from ..tensor import Tensor
from .optimizer import (Optimizer, addcdiv_, check_hyperparameters, divide, in_lr_dtype,
                        rule_lr)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    _legacy_group_defaults = (("maximize", False), ("foreach", None), ("capturable", False),
                              ("differentiable", False), ("decoupled_weight_decay", False))
    _legacy_number_state = ("step", "mu_product")
    _capturable_tensors = ("params, mu_products and state_steps",
                           "params, mu_products, and state_steps")

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        check_hyperparameters(lr, eps, weight_decay, betas)
        if momentum_decay < 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay,
                                      decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable))

    def _momentum_at(self, group, step):
        """The warmed-up momentum coefficient μ_t."""
        return group["betas"][0] * (1.0 - 0.5 * 0.96 ** (step * group["momentum_decay"]))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["mu_product"] = ops.tensor(1.0)  # float32, as PyTorch, so rounding matches
            state["exp_avg"] = ops.zeros_like(param)
            state["exp_avg_sq"] = ops.zeros_like(param)
        beta1, beta2 = group["betas"]
        lr = rule_lr(group)
        state["step"].add_(1)
        step = state["step"].double()  # no .item(): a compiled step keeps the count (see Adam)
        grad = self._apply_weight_decay(group, param, grad)
        mu, mu_next = self._momentum_at(group, step), self._momentum_at(group, step + 1)
        state["mu_product"].mul_(mu)  # in float32
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        if group["foreach"]:  # (PyTorch's _multi_tensor_nadam divides after the square root)
            denominator = exp_avg_sq.sqrt() / ((1 - beta2 ** step) ** 0.5).to(param.dtype)
        else:
            denominator = (exp_avg_sq / (1 - beta2 ** step).to(param.dtype)).sqrt()
        denominator = denominator + group["eps"]
        if group["differentiable"]:
            return self._differentiable_step(param, grad, exp_avg, denominator, lr, mu, mu_next,
                                             state["mu_product"])
        mu_product = state["mu_product"].double()  # as PyTorch's .item() of it
        addcdiv_(param, grad, denominator,
                 -lr * in_lr_dtype(lr, 1.0 - mu) / in_lr_dtype(lr, 1.0 - mu_product))
        addcdiv_(param, exp_avg, denominator,
                 -lr * in_lr_dtype(lr, mu_next) / in_lr_dtype(lr, 1.0 - mu_product * mu_next))

    @staticmethod
    def _differentiable_step(param, grad, exp_avg, denominator, lr, mu, mu_next, mu_product):
        """PyTorch's differentiable rule: the coefficients are float32 operations on the
        ``mu_product`` tensor (its Python numbers taken in float32), and scale the gradient and
        the moment before they are divided (recorded)."""
        dtype, python_lr = mu_product.dtype, not isinstance(lr, Tensor)
        grad_scale = divide((-lr * in_lr_dtype(lr, 1.0 - mu)).to(dtype), 1.0 - mu_product,
                            as_number=python_lr)
        mu_product_next = mu_product * mu_next.to(dtype)
        moment_scale = divide((-lr * in_lr_dtype(lr, mu_next)).to(dtype),
                              1.0 - mu_product_next, as_number=python_lr)
        param.addcdiv_(grad * grad_scale, denominator)
        param.addcdiv_(exp_avg * moment_scale, denominator)
