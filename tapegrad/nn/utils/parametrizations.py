"""Ready-made parametrizations (see ``parametrize``): ``orthogonal``, ``weight_norm`` and
``spectral_norm``."""
import functools
from enum import Enum, auto

import numpy as np

from ... import linalg, ops
from ...autograd import grad_mode
from ...tensor import Tensor
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d
from ..modules.module import Module
from . import parametrize
from .weight_norm import _weight_norm

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


# ---------------------------------------------------------------------------------- orthogonal

def _is_orthogonal(Q):
    n, k = Q.shape[-2], Q.shape[-1]
    eye = ops.eye(k, dtype=Q.dtype)
    eps = 10.0 * n * float(np.finfo(Q.dtype.numpy).eps)
    return ops.allclose(Q.mT @ Q, eye, atol=eps)


def _make_orthogonal(A):
    """The Q of A's QR decomposition (geqrf's reflectors multiplied out), its columns signed
    so that R has a positive diagonal."""
    reflectors, tau = ops.geqrf(A)
    Q = linalg.householder_product(reflectors, tau)
    return Q * reflectors.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """A matrix with orthonormal columns (or rows, if wider than tall) from an unconstrained
    one, through ``orthogonal_map``; with ``use_trivialization`` it is ``base @ map(X)``,
    ``base`` the buffer an assignment sets (then ``original`` restarts from the identity)."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                X = ops.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mT
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = ops.matrix_exp(A)
            else:  # the Cayley retraction (I + A/2)(I - A/2)^-1
                eye = ops.eye(n, dtype=A.dtype)
                Q = linalg.solve(ops.add(eye, A, alpha=-0.5), ops.add(eye, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def right_inverse(self, Q):
        with grad_mode.no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.shape[-2], Q.shape[-1]
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential or the Cayley "
                    "parametrizations when use_trivialization=False.")
            A = _householder_reflectors(Q)
            return A.mT if transpose else A
        if n == k:
            Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else Q.clone()
        else:
            N = ops.randn(*Q.shape[:-2], n, n - k, dtype=Q.dtype)
            Q = _make_orthogonal(ops.cat([Q, N], dim=-1))
        self.base = Q
        neg_eye = ops.zeros_like(Q_init)
        neg_eye.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_eye


def _householder_reflectors(Q):
    """What the householder map needs to give back ``Q``: geqrf's reflectors below the
    diagonal, and on it the signs of R's diagonal (flipped where a reflector is trivial)."""
    reflectors, tau = ops.geqrf(Q)
    diagonal = reflectors.diagonal(dim1=-2, dim2=-1)
    diagonal.sign_()
    diagonal[tau == 0.0] *= -1
    return reflectors


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Keep ``module.<name>`` (a matrix, or a batch of them) orthogonal. ``orthogonal_map``:
    "matrix_exp" (default for square matrices), "cayley" or "householder" (default
    otherwise)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(f'orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


# -------------------------------------------------------------------------------- weight norm


class _WeightNorm(Module):
    """``weight = g * v / ||v||`` from ``original0`` (g) and ``original1`` (v)."""

    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return ops.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """Split ``module.<name>`` into a magnitude ``parametrizations.<name>.original0`` and a
    direction ``parametrizations.<name>.original1``; the norm is over every dimension but
    ``dim`` (over all for ``dim=None``). A checkpoint of the older ``nn.utils.weight_norm``
    (``<name>_g``, ``<name>_v``) loads into it."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    module._register_load_state_dict_pre_hook(functools.partial(_rename_old_weight_norm_keys,
                                                                name))
    return module


def _rename_old_weight_norm_keys(name, state_dict, prefix, local_metadata, strict, missing_keys,
                                 unexpected_keys, error_msgs):
    """The load pre-hook of ``weight_norm``: ``<name>_g`` and ``<name>_v`` become
    ``parametrizations.<name>.original0`` and ``original1``."""
    g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
    if g_key in state_dict and v_key in state_dict:
        state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
        state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)


# ------------------------------------------------------------------------------ spectral norm

class _SpectralNorm(Module):
    """``weight / sigma``, ``sigma`` the largest singular value of the weight as a matrix
    (``dim`` first, the rest flattened), estimated by power iteration; its vectors ``_u`` and
    ``_v`` are buffers, advanced ``n_power_iterations`` steps at each use in training mode."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, "
                             f"{ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        """Advance ``_u`` and ``_v`` in place (off the tape)."""
        with grad_mode.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(ops.mv(weight_mat, self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(ops.mv(weight_mat.mT, self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        sigma = ops.dot(self._u.clone(), ops.mv(weight_mat, self._v.clone()))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide ``module.<name>`` by its spectral norm; ``dim`` (default 0, 1 for transposed
    convolutions) is the output dimension."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d)) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
