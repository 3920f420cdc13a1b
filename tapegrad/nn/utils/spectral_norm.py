"""The older, hook-based spectral norm (prefer ``nn.utils.parametrizations.spectral_norm``):
``name`` is recomputed before every forward as ``name_orig / sigma``, ``sigma`` estimated by
power iteration on the buffers ``name_u`` and ``name_v``.

As PyTorch, it records its format version in the state dict's metadata (``{"spectral_norm":
{"weight.version": 1}}``), and loads checkpoints of the version-0 layout, which saved ``name``
and ``name_u`` but not ``name_v``."""
from ... import linalg, ops
from ...autograd import grad_mode
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d
from ..parameter import Parameter
from .weight_norm import remove_recomputing_hook

__all__ = ["SpectralNorm", "SpectralNormLoadStateDictPreHook", "SpectralNormStateDictHook",
           "spectral_norm", "remove_spectral_norm"]


class SpectralNorm:
    """The forward pre-hook: recomputes ``name``, advancing ``u`` and ``v`` (in place) in
    training mode."""

    _version = 1

    def __repr__(self):  # as printing ``module._forward_pre_hooks`` shows it in PyTorch
        return f"<torch.nn.utils.spectral_norm.SpectralNorm object at {id(self):#x}>"

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *[d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with grad_mode.no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(ops.mv(weight_mat.t(), u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(ops.mv(weight_mat, v), dim=0, eps=self.eps))
            u, v = u.clone(), v.clone()
        return weight / ops.dot(u, ops.mv(weight_mat, v))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        """The ``v`` for which ``u @ weight_mat @ v`` is ``target_sigma``, ``weight_mat @ v``
        pointing along ``u`` (least squares)."""
        v = linalg.multi_dot([weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(),
                                  u.unsqueeze(1)]).squeeze(1)
        return v.mul_(target_sigma / ops.dot(u, ops.mv(weight_mat, v)))

    def remove(self, module):
        with grad_mode.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module,
                                                       do_power_iteration=module.training))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with grad_mode.no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).shape
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormStateDictHook:
    """Writes the format version into the module's state dict metadata."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        versions = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in versions:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        versions[key] = self.fn._version


class SpectralNormLoadStateDictPreHook:
    """Upgrades a version-0 checkpoint (``name``, ``name_orig``, ``name_u``): ``name_v`` is
    solved from ``name_orig @ v = sigma * u``, ``sigma`` being ``name_orig / name``."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys,
                 unexpected_keys, error_msgs):
        version = local_metadata.get("spectral_norm", {}).get(self.fn.name + ".version")
        if version is not None and version >= 1:
            return
        key = prefix + self.fn.name
        if version is None and key not in state_dict and \
                all(key + suffix in state_dict for suffix in ("_orig", "_u", "_v")):
            return  # a current layout whose metadata was lost: taken as current
        absent = [key + suffix for suffix in ("_orig", "", "_u") if key + suffix not in state_dict]
        if absent:
            if strict:
                missing_keys.extend(absent)
            return
        with grad_mode.no_grad():
            weight_orig = state_dict[key + "_orig"]
            sigma = (weight_orig / state_dict.pop(key)).mean()
            weight_mat = self.fn.reshape_weight_to_matrix(weight_orig)
            state_dict[key + "_v"] = self.fn._solve_v_and_rescale(weight_mat,
                                                                  state_dict[key + "_u"], sigma)


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide ``module.<name>`` by its spectral norm before every forward; ``dim`` (default
    0, 1 for transposed convolutions) is the output dimension."""
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    """Undo ``spectral_norm``: ``name`` becomes a parameter again, with its last value."""
    remove_recomputing_hook(module, SpectralNorm, name, "spectral_norm")
    for table, kind in ((module._state_dict_hooks, SpectralNormStateDictHook),
                        (module._load_state_dict_pre_hooks, SpectralNormLoadStateDictPreHook)):
        for key, hook in list(table.items()):
            if isinstance(hook, kind) and hook.fn.name == name:
                del table[key]
                break
    return module
