"""Muon: SGD momentum (Nesterov by default) whose update for a 2-D weight is orthogonalized by
a few Newton-Schulz iterations, as ``torch.optim.Muon``.

PyTorch runs the iteration in bfloat16; numpy has no bfloat16, so each step of it is computed
in float32 and rounded to bfloat16 (round to nearest even), which is what PyTorch's CPU kernels
do — the same numbers for small matrices, within one bfloat16 unit for large ones.
"""
import math

import numpy as np

from .. import ops
from .optimizer import Optimizer, check_lr

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


class Muon(Optimizer):
    """For 2-D parameters only (pair it with AdamW for biases and norms)."""
    _complex_as_real = False  # refuses complex parameters in _update

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C), eps=EPS,
                 ns_steps=DEFAULT_NS_STEPS, adjust_lr_fn=None):
        check_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay, momentum=momentum,
                                      nesterov=nesterov, ns_coefficients=ns_coefficients,
                                      eps=eps, ns_steps=ns_steps, adjust_lr_fn=adjust_lr_fn))
        for group in self.param_groups:
            for param in group["params"]:
                if param.ndim != 2:
                    raise ValueError("Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {param.size()}")

    def _update(self, group, param, grad, state):
        if param.is_complex():
            raise RuntimeError("Muon does not support complex parameters")
        if grad.ndim != 2:
            raise ValueError("Param gradient must be a 2D matrix")
        if "momentum_buffer" not in state:
            state["momentum_buffer"] = ops.zeros_like(grad)
        buf = state["momentum_buffer"]
        momentum, lr = group["momentum"], group["lr"]
        buf.lerp_(grad, 1 - momentum)
        update = grad.lerp(buf, momentum) if group["nesterov"] else buf
        orthogonal = _zeropower_via_newtonschulz(update._array, group["ns_coefficients"],
                                                 group["ns_steps"], group["eps"])
        param.mul_(1 - lr * group["weight_decay"])
        param.add_(ops.as_tensor(orthogonal.astype(param._array.dtype)),
                   alpha=-_adjust_lr(lr, group["adjust_lr_fn"], param.shape))


def _zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps, eps):
    """An approximate orthogonalization U S' V^T of ``grad`` = U S V^T (S' ~ 1) by a quintic
    Newton-Schulz iteration in bfloat16 precision."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = (np.float32(x) for x in ns_coefficients)
    x = _bfloat16(grad)
    tall = grad.shape[0] > grad.shape[1]
    if tall:
        x = x.T
    norm = _bfloat16(np.sqrt(np.sum(np.square(x), dtype=np.float32)))
    x = _bfloat16(x / max(norm, _bfloat16(np.float32(eps))))
    for _ in range(ns_steps):
        gram = _bfloat16(x @ x.T)
        gram_update = _bfloat16(b * gram + c * (gram @ gram))
        x = _bfloat16(a * x + gram_update @ x)
    return x.T if tall else x


def _bfloat16(x):
    """float32 values rounded to the nearest bfloat16 (ties to even), kept as float32."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return np.where(np.isnan(x), x, rounded.view(np.float32))


def _adjust_lr(lr, adjust_lr_fn, param_shape):
    """The learning rate for a matrix of ``param_shape``: scaled by sqrt(max(1, rows/cols))
    ("original"), or 0.2 sqrt(max(rows, cols)) to match AdamW's update size."""
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        ratio = 1.0
    return lr * ratio  # (one product: a tensor lr rounds once, as in PyTorch)
