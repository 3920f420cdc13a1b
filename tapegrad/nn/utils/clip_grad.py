"""Gradient clipping: rescale or clamp the ``.grad`` of parameters in place, off the tape."""
import math
import types

from ... import ops
from ..._warnings import warn_at_caller
from ...autograd import grad_mode
from ...tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "clip_grads_with_norm_",
           "get_total_norm"]


NO_GRADIENTS_TO_GROUP = ("Expected !nested_tensorlist[0].empty() to be true, but got false.  "
                         "(Could this error message be improved?  If so, please report an "
                         "enhancement request to PyTorch.)")


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def _parameter_list(parameters):
    """``parameters`` as a list; an empty generator warns (nothing will be clipped), as PyTorch."""
    if isinstance(parameters, Tensor):
        return [parameters]
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = list(parameters)
    if is_generator and not parameters:
        warn_at_caller("`parameters` is an empty generator, no gradient clipping will occur.")
    return parameters


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type``-norm of all ``tensors`` taken together, as one vector."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return ops.tensor(0.0)
    with grad_mode.no_grad():
        norms = ops.stack([ops.norm(t, norm_type) for t in tensors])
        total = ops.norm(norms, norm_type)
    if error_if_nonfinite and not math.isfinite(total.item()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale all gradients so that their total norm is at most ``max_norm``; returns that norm
    as it was before clipping."""
    parameters = _parameter_list(parameters)
    total = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale the gradients by ``max_norm / (total_norm + 1e-6)``, at most 1, for a total norm
    computed beforehand (``get_total_norm``)."""
    grads = _grads(parameters)
    max_norm = float(max_norm)  # refused even when there is nothing to clip, as in PyTorch
    if not grads:
        return
    with grad_mode.no_grad():
        coefficient = ops.clamp(max_norm / (total_norm + 1e-6), max=1.0)
        for grad in grads:
            grad.mul_(coefficient.to(grad.dtype))


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The deprecated name of ``clip_grad_norm_``."""
    warn_at_caller("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                   "`torch.nn.utils.clip_grad_norm_`.", FutureWarning)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    grads = _grads(parameters)
    if not grads:  # PyTorch's grouping of the gradients by device refuses an empty list
        raise RuntimeError(NO_GRADIENTS_TO_GROUP)
    with grad_mode.no_grad():
        for grad in grads:
            grad.clamp_(-clip_value, clip_value)
