# Categorical-latent VAE code that imports distributions from their submodules, as many GitHub
# Gumbel-softmax / discrete-VAE repos do (torch.distributions.relaxed_categorical, ...one_hot_categorical,
# ...log_normal, ...utils), with a KL to a uniform categorical prior and fixed Gumbel noise.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions.relaxed_categorical import RelaxedOneHotCategorical, ExpRelaxedCategorical
from torch.distributions.relaxed_bernoulli import RelaxedBernoulli, LogitRelaxedBernoulli
from torch.distributions.one_hot_categorical import OneHotCategorical
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.beta import Beta
from torch.distributions.dirichlet import Dirichlet
from torch.distributions.log_normal import LogNormal
from torch.distributions.half_normal import HalfNormal
from torch.distributions.laplace import Laplace
from torch.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from torch.distributions.kl import kl_divergence
from torch.distributions.utils import probs_to_logits, logits_to_probs
import torch.distributions.relaxed_categorical as rc


class CatVAE(nn.Module):
    def __init__(self, d=10, n_latent=3, k=4):
        super().__init__()
        self.n_latent, self.k = n_latent, k
        self.enc = nn.Linear(d, n_latent * k)
        self.dec = nn.Linear(n_latent * k, d)

    def forward(self, x, gumbel, tau):
        logits = self.enc(x).view(-1, self.n_latent, self.k)
        y = F.softmax((logits + gumbel) / tau, dim=-1)
        return self.dec(y.view(x.size(0), -1)), logits


model = CatVAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view(p.shape))
x = (torch.cos(torch.arange(6 * 10, dtype=torch.float32).view(6, 10) * 1.3) > 0.2).float()
u = 0.05 + 0.9 * (torch.sin(torch.arange(6 * 12, dtype=torch.float32) * 2.3) * 0.5 + 0.5).view(6, 3, 4)
gumbel = -torch.log(-torch.log(u))

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tau = 1.0
for step in range(30):
    recon, logits = model(x, gumbel, tau)
    q = OneHotCategorical(logits=logits)
    prior = OneHotCategorical(probs=torch.full_like(q.probs, 1.0 / 4))
    kl = kl_divergence(q, prior).sum(-1).mean()
    rec = Bernoulli(logits=recon).log_prob(x).sum(-1).mean()
    loss = kl - rec
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        tau = max(0.5, tau * 0.9)
        print(f"step {step:2d} loss {loss.item():.4f} kl {kl.item():.4f} tau {tau:.3f}")

q = RelaxedOneHotCategorical(torch.tensor(0.5), logits=logits.detach())
print(q.batch_shape, q.event_shape, rc.RelaxedOneHotCategorical is RelaxedOneHotCategorical)
print(ExpRelaxedCategorical(torch.tensor(0.5), logits=torch.zeros(3)).log_prob(torch.log(torch.tensor([0.2, 0.3, 0.5]))))
print(LogitRelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3])).log_prob(torch.tensor([0.4])))
print(RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3])).log_prob(torch.tensor([0.4])))
print(Beta(torch.tensor(2.0), torch.tensor(2.0)).log_prob(torch.tensor(0.3)))
print(Dirichlet(torch.ones(4)).log_prob(torch.full((4,), 0.25)))
print(LogNormal(0.0, 1.0).log_prob(torch.tensor(2.0)), HalfNormal(1.0).log_prob(torch.tensor(0.5)))
print(Laplace(0.0, 1.0).log_prob(torch.tensor(0.5)))
print(LowRankMultivariateNormal(torch.zeros(2), torch.tensor([[1.0], [0.0]]), torch.ones(2)).log_prob(torch.zeros(2)))
print(probs_to_logits(torch.tensor([0.1, 0.9])), logits_to_probs(torch.tensor([0.0, 2.0])))
import torch.distributions.one_hot_categorical as ohc
print(ohc.__all__, rc.__all__)
