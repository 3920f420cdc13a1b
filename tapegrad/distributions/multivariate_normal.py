"""The multivariate normal distribution, parameterized through the lower Cholesky factor L of
its covariance (given directly, or computed from a covariance or precision matrix):
samples are ``loc + L ε``; and its low-rank-plus-diagonal form ``Σ = W Wᵀ + D``, whose
densities need only an m × m Cholesky factor (Woodbury)."""
import math

from .. import ops
from ..ops.matrix import cholesky
from . import constraints
from .distribution import Distribution
from .utils import lazy_property, precision_to_scale_tril, solve_lower, the_one_matrix

__all__ = ["MultivariateNormal", "LowRankMultivariateNormal"]


class MultivariateNormal(Distribution):
    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        name, matrix = the_one_matrix(ValueError, scale_tril, covariance_matrix, precision_matrix)
        if matrix.dim() < 2:
            raise ValueError(f"{name} matrix must be at least two-dimensional, with optional "
                             "leading batch dimensions" if name == "scale_tril" else
                             f"{name} must be at least two-dimensional, with optional leading "
                             "batch dimensions")
        batch_shape = ops.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand(tuple(batch_shape) + (-1, -1)))
        self.loc = loc.expand(tuple(batch_shape) + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(matrix)

    def _matrix_shape(self):
        return tuple(self._batch_shape) + tuple(self._event_shape) * 2

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        factor = self._unbroadcasted_scale_tril
        return (factor @ factor.transpose(-2, -1)).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        return ops.cholesky_inverse(self._unbroadcasted_scale_tril).expand(self._matrix_shape())

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return (self._unbroadcasted_scale_tril.pow(2).sum(-1)
                .expand(tuple(self._batch_shape) + tuple(self._event_shape)))

    def rsample(self, sample_shape=()):
        noise = ops.randn(self._extended_shape(sample_shape), dtype=self.loc.dtype)
        return self.loc + (self._unbroadcasted_scale_tril @ noise.unsqueeze(-1)).squeeze(-1)

    def half_log_det(self):
        """log √det Σ = Σᵢ log Lᵢᵢ."""
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def mahalanobis(self, diff):
        """|L⁻¹ diff|², the squared Mahalanobis length of ``diff`` (batched)."""
        n = self._event_shape[0]
        factor = self._unbroadcasted_scale_tril.expand(tuple(diff.shape[:-1]) + (n, n))
        return solve_lower(factor, diff.unsqueeze(-1)).squeeze(-1).pow(2).sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        mahalanobis = self.mahalanobis(value - self.loc)
        n = self._event_shape[0]
        return -0.5 * (n * math.log(2 * math.pi) + mahalanobis) - self.half_log_det()

    def entropy(self):
        entropy = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self.half_log_det()
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)


def _with_unit_diagonal_added(matrix):
    return matrix + ops.eye(matrix.shape[-1], dtype=matrix.dtype)


def _capacitance_tril(W, D):
    """Cholesky factor of the capacitance matrix I + Wᵀ D⁻¹ W."""
    return cholesky(_with_unit_diagonal_added((W.mT / D.unsqueeze(-2)) @ W))


def _lowrank_logdet(D, capacitance_tril):
    """log det(W Wᵀ + D) = log det(capacitance) + log det D (matrix determinant lemma)."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _lowrank_mahalanobis(W, D, x, capacitance_tril):
    """xᵀ (W Wᵀ + D)⁻¹ x by the Woodbury identity."""
    Wt_Dinv_x = ((W.mT / D.unsqueeze(-2)) @ x.unsqueeze(-1)).squeeze(-1)
    factor = capacitance_tril.expand(tuple(Wt_Dinv_x.shape[:-1])
                                     + tuple(capacitance_tril.shape[-2:]))
    whitened = solve_lower(factor, Wt_Dinv_x.unsqueeze(-1)).squeeze(-1)
    return (x.pow(2) / D).sum(-1) - whitened.pow(2).sum(-1)


class LowRankMultivariateNormal(Distribution):
    """Covariance ``cov_factor @ cov_factor.mT + diag(cov_diag)``."""
    arg_constraints = {"loc": constraints.real_vector,
                       "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional leading "
                             "batch dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError("cov_factor must be a batch of matrices with shape "
                             f"{event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = ops.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1))
        except RuntimeError as error:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor "
                             f"{cov_factor.shape}, cov_diag {cov_diag.shape}") from error
        self.loc = loc_[..., 0]
        self.cov_diag = cov_diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def _matrix_shape(self):
        return tuple(self._batch_shape) + tuple(self._event_shape) * 2

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        return (self._unbroadcasted_cov_factor.pow(2).sum(-1) + self._unbroadcasted_cov_diag
                ).expand(tuple(self._batch_shape) + tuple(self._event_shape))

    @lazy_property
    def scale_tril(self):
        diag_sqrt = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled_factor = self._unbroadcasted_cov_factor / diag_sqrt
        inner = _with_unit_diagonal_added(scaled_factor @ scaled_factor.mT)
        return (diag_sqrt * cholesky(inner)).expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        factor = self._unbroadcasted_cov_factor
        return (factor @ factor.mT + self._unbroadcasted_cov_diag.diag_embed()
                ).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        Wt_Dinv = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        factor = self._capacitance_tril.expand(tuple(Wt_Dinv.shape[:-2])
                                               + tuple(self._capacitance_tril.shape[-2:]))
        A = solve_lower(factor, Wt_Dinv)
        return (self._unbroadcasted_cov_diag.reciprocal().diag_embed() - A.mT @ A
                ).expand(self._matrix_shape())

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps_W = ops.randn(tuple(shape[:-1]) + tuple(self.cov_factor.shape[-1:]),
                          dtype=self.loc.dtype)
        eps_D = ops.randn(shape, dtype=self.loc.dtype)
        return (self.loc + (self._unbroadcasted_cov_factor @ eps_W.unsqueeze(-1)).squeeze(-1)
                + self._unbroadcasted_cov_diag.sqrt() * eps_D)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        mahalanobis = _lowrank_mahalanobis(self._unbroadcasted_cov_factor,
                                           self._unbroadcasted_cov_diag, value - self.loc,
                                           self._capacitance_tril)
        log_det = _lowrank_logdet(self._unbroadcasted_cov_diag, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + log_det + mahalanobis)

    def entropy(self):
        log_det = _lowrank_logdet(self._unbroadcasted_cov_diag, self._capacitance_tril)
        entropy = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + log_det)
        return entropy if len(self._batch_shape) == 0 else entropy.expand(self._batch_shape)
