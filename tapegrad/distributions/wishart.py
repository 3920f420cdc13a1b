"""The Wishart distribution over positive definite matrices: the law of ``Σᵢ xᵢ xᵢᵀ`` for ``df``
normal vectors ``xᵢ ~ N(0, Σ)`` (continued to real ``df``), the conjugate prior of a normal's
precision. Everything is computed from the lower Cholesky factor ``L`` of ``Σ``."""
import math
import numbers
import warnings

from .. import ops
from ..ops.matrix import cholesky
from ..ops.matrix_functions import linalg_slogdet as slogdet
from ..tensor import Size
from . import constraints
from .exp_family import ExponentialFamily
from .gamma import Chi2
from .utils import finfo, lazy_property, precision_to_scale_tril, the_one_matrix

__all__ = ["Wishart"]

_LOG_2 = math.log(2)


def _mvdigamma(x, p):
    """The multivariate digamma function: Σⱼ ψ(x − j/2) for j < p."""
    if not bool((x > (p - 1) / 2).all()):
        raise AssertionError("Wrong domain for multivariate digamma function.")
    halves = ops.arange(p, dtype=x.dtype) / 2
    return ops.digamma(x.unsqueeze(-1) - halves).sum(-1)


class Wishart(ExponentialFamily):
    """Wishart(df, Σ) given one of ``covariance_matrix`` Σ, ``precision_matrix`` Σ⁻¹ or
    ``scale_tril`` L; sampled by the Bartlett decomposition ``L A (L A)ᵀ``, where A is lower
    triangular with √χ²(df − i) on its diagonal and standard normal entries below."""
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {"covariance_matrix": constraints.positive_definite,
                "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky,
                "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        name, matrix = the_one_matrix(AssertionError, scale_tril, covariance_matrix, precision_matrix)
        if matrix.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading "
                             "batch dimensions")
        if isinstance(df, numbers.Number):
            batch_shape = Size(matrix.shape[:-2])
            self.df = ops.tensor(df, dtype=matrix.dtype)
        else:
            batch_shape = ops.broadcast_shapes(matrix.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = Size(matrix.shape[-2:])
        p = event_shape[-1]
        if bool((self.df <= p - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        setattr(self, name, matrix.expand(tuple(batch_shape) + (-1, -1)))
        if bool((self.df < p).any()):
            warnings.warn("Low df values detected. Singular samples are highly likely to occur "
                          "for ndim - 1 < df < ndim.", stacklevel=2)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = precision_to_scale_tril(matrix)
        self._dist_chi2 = self._bartlett_chi2()

    def _bartlett_chi2(self):
        """χ²(df − i) for the i-th diagonal entry of the Bartlett factor."""
        p = self._event_shape[-1]
        steps = ops.arange(p, dtype=self._unbroadcasted_scale_tril.dtype)
        return Chi2(self.df.unsqueeze(-1) - steps.expand(tuple(self._batch_shape) + (p,)))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = Size(batch_shape)
        matrix_shape = tuple(batch_shape) + tuple(self._event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(matrix_shape)
        new.df = self.df.expand(batch_shape)
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(matrix_shape))
        ExponentialFamily.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._dist_chi2 = new._bartlett_chi2()
        new._validate_args = self._validate_args
        return new

    def _matrix_shape(self):
        return tuple(self._batch_shape) + tuple(self._event_shape)

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        factor = self._unbroadcasted_scale_tril
        return (factor @ factor.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        identity = ops.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        return ops.cholesky_solve(identity, self._unbroadcasted_scale_tril) \
            .expand(self._matrix_shape())

    def _per_matrix(self, value):
        """A batch-shaped tensor viewed to broadcast against the batch of matrices."""
        return value.view(tuple(self._batch_shape) + (1, 1))

    @property
    def mean(self):
        return self._per_matrix(self.df) * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor = ops.where(factor <= 0, ops.full_like(factor, math.nan), factor)
        return self._per_matrix(factor) * self.covariance_matrix

    @property
    def variance(self):
        covariance = self.covariance_matrix
        diagonal = covariance.diagonal(dim1=-2, dim2=-1)
        return self._per_matrix(self.df) * (
            covariance.pow(2) + diagonal.unsqueeze(-1) * diagonal.unsqueeze(-2))

    def _bartlett_sample(self, sample_shape):
        p = self._event_shape[-1]
        eps = float(finfo(self._unbroadcasted_scale_tril.dtype).eps)
        bartlett = self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=eps).diag_embed()
        rows, cols = ops.tril_indices(p, p, offset=-1)
        bartlett[..., rows, cols] = ops.randn(
            *(tuple(sample_shape) + tuple(self._batch_shape) + (p * (p - 1) // 2,)),
            dtype=bartlett.dtype)
        factor = self._unbroadcasted_scale_tril @ bartlett
        return factor @ factor.mT

    def _singular(self, sample, flag_valid=False):
        """Which samples (one flag per sample, over the whole batch) are not positive definite;
        which are, if ``flag_valid``."""
        singular = self.support.check(sample) if flag_valid else ~self.support.check(sample)
        batch_dims = tuple(range(-len(self._batch_shape), 0))
        return singular.amax(batch_dims) if batch_dims else singular

    def rsample(self, sample_shape=(), max_try_correction=None):
        """A Bartlett sample; samples that come out singular (likely when df < ndim) are drawn
        again, up to ``max_try_correction`` (10) times, and may stay singular after that.
        As PyTorch (whose first check lacks its negation), the first draw's positive-definite
        samples are the ones flagged, warned about and drawn again."""
        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample_shape = Size(sample_shape)
        sample = self._bartlett_sample(sample_shape)
        singular = self._singular(sample, flag_valid=True)
        if bool(singular.any()):
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                redraw = self._bartlett_sample(Size((int(singular.sum()),)))
                sample[singular] = redraw
                singular[singular.clone()] = self._singular(redraw)
                if not bool(singular.any()):
                    break
        return sample

    def _log_det_scale(self):
        """p/2 · log 2 + log det L, the part of the normalizer that depends on Σ."""
        p = self._event_shape[-1]
        diagonal = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1)
        return p * _LOG_2 / 2 + diagonal.log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        trace = ops.cholesky_solve(value, self._unbroadcasted_scale_tril) \
            .diagonal(dim1=-2, dim2=-1).sum(-1)
        return (-nu * self._log_det_scale() - ops.mvlgamma(nu / 2, p=p)
                + (nu - p - 1) / 2 * slogdet(value).logabsdet - trace / 2)

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        return ((p + 1) * self._log_det_scale() + ops.mvlgamma(nu / 2, p=p)
                - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p) + nu * p / 2)

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        shape = y + (p + 1) / 2
        return (shape * (-slogdet(-2 * x).logabsdet + _LOG_2 * p)
                + ops.mvlgamma(shape, p=p))
