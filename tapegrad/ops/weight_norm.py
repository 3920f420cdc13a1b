"""Weight normalization's fused primitive, ``g * v / ||v||`` along the first or last dimension
(WeightNormInterfaceBackward0); ``nn.utils.weight_norm`` and the parametrization use it."""
import numpy as np

from .registry import OTHER, primitive


def _other_axes(ndim, dim):
    """The axes the norm runs over: all but ``dim``; all of them for -1."""
    return tuple(range(ndim)) if dim == -1 else tuple(a for a in range(ndim) if a != dim % ndim)


@primitive("_weight_norm_interface", node="WeightNormInterfaceBackward0", group=OTHER,
           saves=("v", "g"))
def _weight_norm_interface(v, g, *, dim):
    norm = np.sqrt(np.add.reduce(v * v, axis=_other_axes(v.ndim, dim), keepdims=True))
    return (v * (g / norm)).astype(v.dtype)


@_weight_norm_interface.vjp
def _(ctx, grad, dim):
    v, g = ctx.saved
    axes = _other_axes(v.dim(), dim)
    norm = (v * v).sum(axes, keepdim=True).sqrt()
    grad_dot_v = (grad * v).sum(axes, keepdim=True)
    grad_g = (grad_dot_v / norm).reshape(g.shape)
    grad_v = (g / norm) * (grad - v * (grad_dot_v / (norm * norm)))
    return grad_v, grad_g
