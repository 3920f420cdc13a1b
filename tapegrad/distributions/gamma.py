"""The gamma distribution, and the distributions built on it: chi-squared, inverse gamma, and
the Dirichlet and beta distributions (normalised gamma draws)."""
import math
import numbers

import numpy as np

from .. import ops, random
from ..autograd.function import Function
from ..tensor import Tensor
from ..ops.gamma_functions import digamma, lgamma, standard_gamma
from ..ops.incomplete_gamma import igamma
from . import constraints
from ._dirichlet_grad import dirichlet_grad
from .exp_family import ExponentialFamily
from .transformed_distribution import TransformedDistribution
from .transforms import PowerTransform
from .utils import broadcast_all, finfo

__all__ = ["Gamma", "Chi2", "InverseGamma", "Dirichlet", "Beta"]


class Gamma(ExponentialFamily):
    """Gamma(concentration, rate): density proportional to x^(concentration-1) e^(-rate x)."""
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        both_numbers = isinstance(concentration, numbers.Number) and \
            isinstance(rate, numbers.Number)
        super().__init__(() if both_numbers else self.concentration.size(),
                         validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        """Kept at least the dtype's tiny, as PyTorch clamps it (in place, outside the graph),
        so a sample never underflows to 0."""
        shape = self._extended_shape(sample_shape)
        value = standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=float(finfo(value.dtype).tiny))
        return value

    def log_prob(self, value):
        """In the parameters' dtype: PyTorch casts ``value`` to the rate's first (keeping its
        graph: ToCopyBackward0)."""
        value = (value.to(self.rate.dtype) if isinstance(value, Tensor)
                 else ops.as_tensor(value, dtype=self.rate.dtype))
        if self._validate_args:
            self._validate_sample(value)
        return (ops.xlogy(self.concentration, self.rate)
                + ops.xlogy(self.concentration - 1, value)
                - self.rate * value - lgamma(self.concentration))

    def cdf(self, value):
        """The regularized lower incomplete gamma function, as PyTorch's (differentiable in
        ``value`` only)."""
        if self._validate_args:
            self._validate_sample(value)
        return igamma(self.concentration, self.rate * value)

    def entropy(self):
        return (self.concentration - self.rate.log() + lgamma(self.concentration)
                + (1.0 - self.concentration) * digamma(self.concentration))

    @property
    def _natural_params(self):
        return self.concentration - 1, -self.rate

    def _log_normalizer(self, x, y):
        return lgamma(x + 1) + (x + 1) * (-y).reciprocal().log()


class Chi2(Gamma):
    """Gamma(df / 2, 1 / 2): the sum of ``df`` squared standard normals."""
    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2


class _Dirichlet(Function):
    """PyTorch's ``_sample_dirichlet`` as its ``_Dirichlet`` function: the draws it makes (gamma
    samples in float64, normalised there, then cast and kept inside (0, 1)); differentiated
    as PyTorch does, through ATen's ``_dirichlet_grad`` of the marginal Betas."""

    @staticmethod
    def forward(ctx, concentration):
        alphas = concentration._array
        normalised = random.source().dirichlet(alphas)
        dtype = alphas.dtype
        top = np.nextafter(dtype.type(1), dtype.type(0))
        sample = Tensor._make(np.clip(normalised.astype(dtype), np.finfo(dtype).tiny, top))
        ctx.save_for_backward(sample, concentration)
        return sample

    @staticmethod
    def backward(ctx, grad):
        x, concentration = ctx.saved_tensors
        total = concentration.sum(-1, True).expand_as(concentration)
        slope = Tensor._make(dirichlet_grad(x._array, concentration._array, total._array))
        return slope * (grad - (x * grad).sum(-1, True))


class Dirichlet(ExponentialFamily):
    """A distribution over the probability simplex, given one concentration per category (the
    last dimension)."""
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:],
                         validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        """The normalized ``concentration - 1`` (clamped at 0). Where every concentration is
        below one that is 0 / 0, and the mode is a corner: PyTorch's, the first one (its
        argmax of the nans)."""
        peak = (self.concentration - 1).clamp(min=0.0)
        mode = peak / peak.sum(-1, True)
        below_one = (self.concentration < 1).all(-1)
        corner = ops.zeros_like(mode).scatter(-1, mode.argmax(-1, True), 1.0)
        mode[below_one] = corner[below_one]
        return mode

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (ops.xlogy(self.concentration - 1.0, value).sum(-1)
                + lgamma(self.concentration.sum(-1)) - lgamma(self.concentration).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return lgamma(x).sum(-1) - lgamma(x.sum(-1))

    def entropy(self):
        k = self.concentration.size(-1)
        total = self.concentration.sum(-1)
        return (lgamma(self.concentration).sum(-1) - lgamma(total) - (k - total) * digamma(total)
                - ((self.concentration - 1.0) * digamma(self.concentration)).sum(-1))


class Beta(ExponentialFamily):
    """Beta(concentration1, concentration0) on [0, 1]: a two-category Dirichlet, of which this is
    the first coordinate (as PyTorch builds it)."""
    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        if isinstance(concentration1, numbers.Number) and \
                isinstance(concentration0, numbers.Number):
            pair = ops.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            pair = ops.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(pair, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = ops.stack([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def _natural_params(self):
        return self.concentration1, self.concentration0

    def _log_normalizer(self, x, y):
        return lgamma(x) + lgamma(y) - lgamma(x + y)


class InverseGamma(TransformedDistribution):
    """``1 / X`` for X ~ Gamma(concentration, rate)."""
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(InverseGamma,
                                                                                _instance))

    @property
    def concentration(self):
        return self.base_dist.concentration

    @property
    def rate(self):
        return self.base_dist.rate

    @property
    def mean(self):
        result = self.rate / (self.concentration - 1)
        return ops.where(self.concentration > 1, result, ops.full_like(result, math.inf))

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        result = self.rate.square() / ((self.concentration - 1).square()
                                       * (self.concentration - 2))
        return ops.where(self.concentration > 2, result, ops.full_like(result, math.inf))

    def entropy(self):
        return (self.concentration + self.rate.log() + lgamma(self.concentration)
                - (1 + self.concentration) * digamma(self.concentration))
