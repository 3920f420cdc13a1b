"""SparseAdam: Adam for dense parameters with sparse COO gradients (``nn.Embedding(sparse=True)``).

Only the rows a gradient stores are touched: their two moments move towards the gradient and
their parameter entries take Adam's bias-corrected step; every other row, and its moments, stay
as they were (a masked Adam, not Adam with zero gradients).
"""
import math

from .. import ops
from .optimizer import Optimizer, check_lr

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        check_lr(lr)
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for index in (0, 1):  # (indexed as PyTorch: a 1-tuple raises its IndexError)
            beta = betas[index]
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        self._refuse("is_sparse", "SparseAdam requires dense parameter tensors", "Sparse")
        self._refuse("is_complex", "SparseAdam does not support complex parameters", "Complex")

    def _refuse(self, test, reason, kind):
        """PyTorch's ValueError naming every [group, index] of a parameter it cannot take."""
        found = [[g, i] for g, group in enumerate(self.param_groups)
                 for i, param in enumerate(group["params"])
                 if (param.is_sparse if test == "is_sparse" else param.is_complex())]
        if found:
            raise ValueError(f"{kind} params at indices {found}: {reason}")

    _complex_as_real = False  # (complex parameters are refused)
    _accepts_sparse_grads = True

    def _update(self, group, param, grad, state):
        beta1, beta2 = group["betas"]  # (first, as PyTorch: three betas are refused here)
        if not grad.is_sparse:
            raise RuntimeError("SparseAdam does not support dense gradients, please consider "
                               "Adam instead")
        if not state:
            state["step"] = 0
            state["exp_avg"] = ops.zeros_like(param)
            state["exp_avg_sq"] = ops.zeros_like(param)
        state["step"] += 1
        grad = grad.coalesce()  # the update is not linear: one value per stored position
        values = grad._values()
        if values.numel() == 0:
            return
        rows = tuple(grad._indices())
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        old_avg, old_avg_sq = exp_avg[rows], exp_avg_sq[rows]
        avg_update = (values - old_avg) * (1 - beta1)
        avg_sq_update = (values * values - old_avg_sq) * (1 - beta2)
        exp_avg.index_put_(rows, avg_update, accumulate=True)
        exp_avg_sq.index_put_(rows, avg_sq_update, accumulate=True)
        numerator = avg_update + old_avg
        denominator = (avg_sq_update + old_avg_sq).sqrt() + group["eps"]
        step = state["step"]
        step_size = group["lr"] * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
        param.index_put_(rows, -step_size * (numerator / denominator), accumulate=True)
