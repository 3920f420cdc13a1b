"""The LKJ distribution over Cholesky factors of correlation matrices (Lewandowski, Kurowicka and
Joe, 2009), the usual prior on correlations in hierarchical models."""
import math

from .. import ops
from ..autograd import grad_mode
from ..tensor import Size
from . import constraints
from .distribution import Distribution
from .gamma import Beta
from .utils import broadcast_all, finfo

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """Cholesky factors ``L`` of ``dim``×``dim`` correlation matrices ``L Lᵀ`` with density
    proportional to ``det(L Lᵀ)^(concentration − 1)``; sampled by the onion method (each row's
    squared off-diagonal norm is Beta distributed, its direction uniform on the sphere)."""
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError("Expected dim to be an integer greater than or equal to 2. "
                             f"Found dim={dim}.")
        self.dim = dim
        self.concentration, = broadcast_all(concentration)
        self._beta = self._row_norm_distribution()
        super().__init__(self.concentration.shape, Size((dim, dim)),
                         validate_args=validate_args)

    def _row_norm_distribution(self):
        """Beta laws of the rows' squared off-diagonal norms (the first row has none: its
        law is never used, only its shape)."""
        offset = ops.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = ops.cat([offset.new_zeros((1,)), offset])
        marginal = self.concentration + 0.5 * (self.dim - 2)
        return Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(tuple(batch_shape) + (self.dim,))
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=()):
        with grad_mode.no_grad():
            squared_norms = self._beta.sample(sample_shape).unsqueeze(-1)
            directions = ops.randn(self._extended_shape(sample_shape),
                                   dtype=self.concentration.dtype).tril(-1)
            rows = directions[..., 1:, :]  # the first row stays 0: L's is (1, 0, …, 0)
            directions[..., 1:, :] = rows / rows.norm(dim=-1, keepdim=True)
            off_diagonal = squared_norms.sqrt() * directions
            tiny = float(finfo(off_diagonal.dtype).tiny)
            diagonal = (1 - (off_diagonal ** 2).sum(-1)).clamp(min=tiny).sqrt()
            return off_diagonal + ops.diag_embed(diagonal)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diagonal = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        # Row i (from 2) of L contributes L_ii^(dim − i + 2(concentration − 1)).
        order = ops.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = (order * diagonal.log()).sum(-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        log_normalizer = (0.5 * dm1 * math.log(math.pi) + ops.mvlgamma(alpha - 0.5, dm1)
                          - ops.lgamma(alpha) * dm1)
        return unnormalized - log_normalizer
