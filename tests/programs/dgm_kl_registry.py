# kl_divergence between distribution pairs and custom register_kl rules (as in VAE / Bayesian NN
# code): Normal/Normal, Independent, MVN, Bernoulli, Beta, Gamma, Laplace, missing pairs.
import torch
from torch.distributions import (Normal, Independent, MultivariateNormal, Bernoulli, Beta, Gamma,
                                 Laplace, Uniform, Categorical, Exponential, Dirichlet, Poisson,
                                 LowRankMultivariateNormal, Distribution, kl_divergence, register_kl)

mu = torch.tensor([[0.5, -0.2], [1.0, 0.0]])
sd = torch.tensor([[0.8, 1.2], [0.5, 2.0]])
q, p = Normal(mu, sd), Normal(torch.zeros(2), torch.ones(2))
print(kl_divergence(q, p))
print(kl_divergence(Independent(q, 1), Independent(p.expand((2, 2)), 1)))
print(kl_divergence(p, q))
m1 = MultivariateNormal(torch.tensor([0.0, 1.0]), torch.tensor([[2.0, 0.3], [0.3, 1.0]]))
m2 = MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.2, 0.5]]))
print(kl_divergence(m1, m2), kl_divergence(m2, m1))
lr = LowRankMultivariateNormal(torch.zeros(2), torch.tensor([[1.0], [0.5]]), torch.tensor([0.5, 0.5]))
print(kl_divergence(lr, m2))
print(kl_divergence(Bernoulli(torch.tensor([0.2, 0.5])), Bernoulli(torch.tensor([0.5, 0.9]))))
print(kl_divergence(Beta(torch.tensor(2.0), torch.tensor(3.0)), Beta(torch.tensor(1.0), torch.tensor(1.0))))
print(kl_divergence(Gamma(torch.tensor(2.0), torch.tensor(1.0)), Gamma(torch.tensor(3.0), torch.tensor(2.0))))
print(kl_divergence(Laplace(0.0, 1.0), Laplace(1.0, 2.0)))
print(kl_divergence(Uniform(0.0, 1.0), Uniform(-1.0, 2.0)))
print(kl_divergence(Uniform(-1.0, 2.0), Uniform(0.0, 1.0)))
print(kl_divergence(Exponential(torch.tensor(2.0)), Gamma(torch.tensor(1.0), torch.tensor(1.0))))
print(kl_divergence(Dirichlet(torch.tensor([1.0, 2.0, 3.0])), Dirichlet(torch.ones(3))))
print(kl_divergence(Poisson(torch.tensor(2.0)), Poisson(torch.tensor(3.0))))
print(kl_divergence(Uniform(0.0, 1.0), Normal(0.0, 1.0)))
print(kl_divergence(Categorical(probs=torch.tensor([0.0, 0.5, 0.5])), Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))))
print(kl_divergence(Categorical(probs=torch.tensor([0.2, 0.3, 0.5])), Categorical(probs=torch.tensor([0.0, 0.5, 0.5]))))

try:
    kl_divergence(Normal(0.0, 1.0), Beta(torch.tensor(1.0), torch.tensor(1.0)))
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    kl_divergence(Independent(q, 1), p)
except NotImplementedError as e:
    print("NotImplementedError", e)


class SpikeSlab(Distribution):
    arg_constraints = {}

    def __init__(self, w, validate_args=None):
        self.w = w
        super().__init__(batch_shape=w.shape, validate_args=validate_args)


@register_kl(SpikeSlab, Normal)
def _kl_spike_normal(p, q):
    return p.w * (q.scale.log() + 0.5)


print(kl_divergence(SpikeSlab(torch.tensor([0.1, 0.9])), Normal(0.0, 2.0)))
print(SpikeSlab(torch.tensor([0.1])).batch_shape, SpikeSlab(torch.tensor([0.1])).event_shape)
x = torch.tensor([0.3, 0.4], requires_grad=True)
k = kl_divergence(Normal(x, torch.ones(2)), Normal(0.0, 1.0)).sum()
k.backward()
print(k, x.grad)
