"""Adam and AdamW: moment estimates with bias correction; AdamW decays weights directly."""
from .. import ops
from .optimizer import Optimizer, check_hyperparameters

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        check_hyperparameters(lr, eps, weight_decay, betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                                      capturable=capturable, differentiable=differentiable,
                                      fused=fused, decoupled_weight_decay=decoupled_weight_decay))

    def _update(self, group, param, grad, state):
        if not state:
            state["step"] = ops.tensor(0.0)
            state["exp_avg"] = ops.zeros_like(param)
            state["exp_avg_sq"] = ops.zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = ops.zeros_like(param)
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        state["step"].add_(1)
        # The bias corrections from the step tensor with tensor operations, in float64 as the
        # Python-number arithmetic of PyTorch's Adam: no .item(), so a compiled training step
        # keeps the step count in its kernel instead of falling back to eager mode.
        step = state["step"].double()
        grad = self._apply_weight_decay(group, param, grad)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.add_((grad - exp_avg) * (1 - beta1))  # lerp towards grad, as PyTorch
        exp_avg_sq.mul_(beta2).add_(grad * grad * (1 - beta2))
        second_moment = exp_avg_sq
        if group["amsgrad"]:
            second_moment = state["max_exp_avg_sq"]
            second_moment.copy_(ops.maximum(second_moment, exp_avg_sq))
        denominator = second_moment.sqrt() / (1 - beta2 ** step).sqrt() + group["eps"]
        param.sub_(exp_avg / denominator * (lr / (1 - beta1 ** step)))


class AdamW(Adam):
    """Adam with weight decay applied to the weights, not added to the gradient."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)
