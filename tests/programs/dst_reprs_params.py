# Logging a model's output distributions: print() of many torch.distributions objects (scalar,
# batched, python-number parameters), their supports and arg_constraints, and transform reprs.
import torch
import torch.distributions as D
from torch.distributions import transforms as T, constraints

items = [
    D.Normal(0.0, 1.0), D.Normal(torch.zeros(3), 1.0), D.Normal(torch.zeros(2, 3), torch.ones(3)),
    D.Bernoulli(logits=torch.zeros(4)), D.Bernoulli(0.3), D.Categorical(logits=torch.zeros(2, 5)),
    D.Categorical(probs=torch.tensor([0.2, 0.8])), D.Beta(2.0, 3.0), D.Dirichlet(torch.ones(4)),
    D.Gamma(torch.ones(2), 2.0), D.Poisson(3.0), D.Binomial(10, probs=torch.tensor([0.1, 0.9])),
    D.Binomial(torch.tensor([5., 6.]), logits=torch.tensor([0.1, 0.9])),
    D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
    D.MultivariateNormal(torch.zeros(4, 2), scale_tril=torch.eye(2)),
    D.MultivariateNormal(torch.zeros(2), precision_matrix=2 * torch.eye(2)),
    D.LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(3)),
    D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 1),
    D.Independent(D.Bernoulli(probs=torch.full((2, 3), 0.5)), 2),
    D.OneHotCategorical(probs=torch.ones(3) / 3), D.RelaxedOneHotCategorical(0.5, logits=torch.zeros(3)),
    D.RelaxedBernoulli(torch.tensor(0.1), logits=torch.zeros(2)),
    D.Laplace(0.0, 2.0), D.LogNormal(0.0, 1.0), D.Uniform(-1.0, 1.0), D.Exponential(torch.tensor([1.0, 2.0])),
    D.StudentT(3.0), D.Geometric(probs=0.2), D.HalfNormal(1.0), D.Chi2(3.0), D.VonMises(0.0, 2.0),
    D.MixtureSameFamily(D.Categorical(logits=torch.zeros(2)), D.Normal(torch.zeros(2), torch.ones(2))),
    D.TransformedDistribution(D.Normal(0.0, 1.0), [T.TanhTransform()]),
    D.Multinomial(5, probs=torch.tensor([0.5, 0.5])),
]
for d in items:
    print(d)
    print("   support:", d.support, "| batch", tuple(d.batch_shape), "| event", tuple(d.event_shape))

print(D.Normal.arg_constraints)
print(D.Beta.arg_constraints)
print(D.Categorical.arg_constraints)
print(D.MultivariateNormal.arg_constraints)
print(D.Binomial.arg_constraints)
print(D.Uniform(0.0, 1.0).arg_constraints)
for t in [T.ExpTransform(), T.TanhTransform(), T.SigmoidTransform(), T.AffineTransform(1.0, 2.0),
          T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)]), T.ExpTransform().inv,
          T.PowerTransform(2.0), T.SoftmaxTransform(), T.StickBreakingTransform(), T.LowerCholeskyTransform(),
          T.IndependentTransform(T.ExpTransform(), 1), T.ReshapeTransform((4,), (2, 2)), T.AbsTransform(),
          T.SoftplusTransform(), T.identity_transform]:
    print(t, "|", t.domain, "->", t.codomain, "| bijective", t.bijective, "| sign",
          getattr(t, "sign", None) if t.bijective and t.domain.event_dim == 0 else "-")
for c in [constraints.real, constraints.positive, constraints.unit_interval, constraints.simplex,
          constraints.interval(0.0, 2.0), constraints.half_open_interval(0, 1), constraints.greater_than(1.5),
          constraints.integer_interval(0, 4), constraints.nonnegative_integer, constraints.boolean,
          constraints.independent(constraints.real, 1), constraints.lower_cholesky, constraints.positive_definite,
          constraints.real_vector, constraints.corr_cholesky, constraints.less_than(-1.0), constraints.one_hot]:
    print(c, c.is_discrete, c.event_dim)
