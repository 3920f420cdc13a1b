"""Adam and AdamW: moment estimates with bias correction; AdamW decays weights directly."""
import numpy as np

from .. import dtypes, ops
from ..tensor import Tensor
from .optimizer import Optimizer, check_hyperparameters, divide, in_lr_dtype, rule_lr

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    _legacy_group_defaults = (("amsgrad", False), ("maximize", False), ("foreach", None),
                              ("capturable", False), ("differentiable", False),
                              ("decoupled_weight_decay", False), ("fused", None))
    _legacy_number_state = ("step",)
    _sparse_grads_advice = ", please consider SparseAdam instead"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError("lr as a Tensor is not supported for capturable=False and "
                             "foreach=True")
        check_hyperparameters(lr, eps, weight_decay, betas)
        betas = _checked_betas(betas, foreach=foreach, capturable=capturable)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                                      capturable=capturable, differentiable=differentiable,
                                      fused=fused, decoupled_weight_decay=decoupled_weight_decay))

    def _update(self, group, param, grad, state):
        """PyTorch's ``_single_tensor_adam`` (its CPU path), operation for operation, so float32
        trajectories round alike; its Python-number bias corrections are float64 tensor
        operations on the step tensor here (no .item(): a compiled training step keeps the step
        count in its kernel instead of falling back to eager mode)."""
        if not state:
            state["step"] = ops.tensor(0.0)
            state["exp_avg"] = ops.zeros_like(param)
            state["exp_avg_sq"] = ops.zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = ops.zeros_like(param)
        beta1, beta2 = group["betas"]
        lr = rule_lr(group)
        weight_decay = group["weight_decay"]
        state["step"].add_(1)
        step = state["step"].double()
        if weight_decay != 0 and not group.get("decoupled_weight_decay"):
            grad = _fused_multiply_add(param, weight_decay, grad)  # grad.add(param, alpha=wd)
        else:
            grad = self._apply_weight_decay(group, param, grad, lr)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.copy_(_lerp(exp_avg, grad, 1 - beta1))
        exp_avg_sq.mul_(beta2)
        exp_avg_sq.copy_(_fused_multiply_add(grad * (1 - beta2), grad, exp_avg_sq))  # addcmul_
        second_moment = exp_avg_sq
        if group["amsgrad"]:
            second_moment = state["max_exp_avg_sq"]
            # (a clone: a differentiable step saves maximum's inputs for its backward)
            second_moment.copy_(ops.maximum(second_moment.clone(), exp_avg_sq))
        if group["differentiable"]:
            return self._differentiable_step(param, exp_avg, second_moment, state["step"], group)
        dtype = param.dtype  # the kernels take Python numbers in the tensor's precision
        bias_correction2_sqrt = (1 - beta2 ** step).sqrt().to(dtype)
        denominator = second_moment.sqrt() / bias_correction2_sqrt + group["eps"]
        step_size = (lr / in_lr_dtype(lr, 1 - beta1 ** step)).to(dtype)
        param.add_(-step_size * exp_avg / denominator)  # addcdiv_(exp_avg, denom, -step_size)

    @staticmethod
    def _differentiable_step(param, exp_avg, second_moment, step, group):
        """PyTorch's differentiable rule: the bias corrections are operations on the float32 step
        tensor (recorded, like the lr and betas they use), the step size folded into the
        denominator."""
        beta1, beta2 = group["betas"]
        negative_step_size = -divide(group["lr"], 1 - beta1 ** step)
        denominator = (second_moment.sqrt() / ((1 - beta2 ** step).sqrt() * negative_step_size)
                       + divide(group["eps"], negative_step_size))
        # (the division saves its inputs: a clone, as PyTorch's, not the moment updated next step)
        param.add_(exp_avg.clone() / denominator)


def _checked_betas(betas, *, foreach, capturable):
    """Adam's betas as PyTorch takes them: both Python floats (an int is refused) or both
    1-element tensors, kept as 0-d tensors; tensor betas need ``capturable`` under ``foreach``."""
    pair = betas[0], betas[1]
    if not (all(isinstance(beta, float) for beta in pair)
            or all(isinstance(beta, Tensor) for beta in pair)):
        raise ValueError("betas must be either both floats or both Tensors")
    for index, beta in enumerate(pair):
        if isinstance(beta, Tensor):
            if foreach and not capturable:
                raise ValueError(f"betas[{index}] as a Tensor is not supported for "
                                 f"capturable=False and foreach=True")
            if beta.numel() != 1:
                raise ValueError(f"Tensor betas[{index}] must be 1-element")
    return tuple(beta.reshape(()) if isinstance(beta, Tensor) else beta for beta in betas)


def _fused_multiply_add(a, b, c):
    """``a * b + c`` rounded once, as the vectorized CPU kernels of PyTorch's lerp, addcmul and
    add(alpha=) compute it (an FMA instruction): a product of float32 numbers is exact in
    float64, so its sum with ``c`` is rounded only on the way back."""
    if a.dtype != dtypes.float32:
        return a * b + c
    b = b.double() if isinstance(b, Tensor) else float(np.float32(b))
    return (a.double() * b + c.double()).float()


def _lerp(start, end, weight):
    """PyTorch's vectorized lerp: from the nearer end, with one fused multiply-add."""
    if start.dtype == dtypes.float32:
        weight = float(np.float32(weight))
    if abs(weight) < 0.5:
        return _fused_multiply_add(end - start, weight, start)
    return _fused_multiply_add(end - start, weight - 1, end)


class AdamW(Adam):
    """Adam with weight decay applied to the weights, not added to the gradient."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True)

    def _upgrade_legacy_state(self):
        """Loaded groups always decay decoupled, whatever they say, as PyTorch's AdamW has it."""
        super()._upgrade_legacy_state()
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
