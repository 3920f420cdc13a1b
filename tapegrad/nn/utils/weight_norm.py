"""Weight normalization: ``w = g * v / ||v||``, the norm taken over every dimension but ``dim``
(over all of them for ``dim=None``/-1). ``_weight_norm`` is what both forms use — the
parametrization (``nn.utils.parametrizations.weight_norm``) and this older, deprecated form, which
replaces ``name`` by the parameters ``name_g`` and ``name_v`` and recomputes ``name`` in a forward
pre-hook."""
import warnings

from ... import ops
from ...ops.weight_norm import _weight_norm_interface
from ..parameter import Parameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def _weight_norm(v, g, dim):
    """``g * v / ||v||``: fused along the first or the last dimension, composed of ops
    otherwise — PyTorch's choice, so the graph shows the same nodes."""
    if dim == 0 or dim == v.dim() - 1:
        return _weight_norm_interface(v, g, dim=dim)
    return v * (g / ops.norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook of the deprecated ``weight_norm``: recomputes ``name`` from
    ``name_g`` and ``name_v``."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def __repr__(self):  # as printing ``module._forward_pre_hooks`` shows it in PyTorch
        return f"<torch.nn.utils.weight_norm.WeightNorm object at {id(self):#x}>"

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter "
                                   f"{name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g",
                                  Parameter(ops.norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Deprecated: prefer ``nn.utils.parametrizations.weight_norm``."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    return remove_recomputing_hook(module, WeightNorm, name, "weight_norm")


def remove_recomputing_hook(module, kind, name, label):
    """Undo the older weight_norm / spectral_norm: drop the forward pre-hook of type ``kind``
    that recomputes ``module.<name>``, leaving its last value as a parameter."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"{label} of '{name}' not found in {module}")
