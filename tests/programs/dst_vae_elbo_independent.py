# VAE ELBO with an Independent(Normal) posterior and Independent(Bernoulli(logits)) decoder:
# reparameterized z from a fixed noise table, analytic KL to the prior via kl_divergence, KL annealing,
# plus the rsample-vs-sample gradient contract (d rsample/d loc == 1, sample is detached).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent, Bernoulli, kl_divergence

torch.set_printoptions(precision=4)
D_in, H, Z, B = 8, 12, 2, 6


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(D_in, H)
        self.mu = nn.Linear(H, Z)
        self.logvar = nn.Linear(H, Z)
        self.dec = nn.Sequential(nn.Linear(Z, H), nn.ReLU(), nn.Linear(H, D_in))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).reshape(p.shape))

    def posterior(self, x):
        h = torch.relu(self.enc(x))
        return Independent(Normal(self.mu(h), torch.exp(0.5 * self.logvar(h))), 1)

    def likelihood(self, z):
        return Independent(Bernoulli(logits=self.dec(z)), 1)


x = (torch.sin(torch.arange(B * D_in, dtype=torch.float32).reshape(B, D_in) * 0.9) > 0).float()
eps = torch.sin(torch.arange(B * Z, dtype=torch.float32) * 2.3).reshape(B, Z)
model = VAE()
prior = Independent(Normal(torch.zeros(Z), torch.ones(Z)), 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
q = model.posterior(x)
print(q, q.batch_shape, q.event_shape, prior.batch_shape)
for step in range(40):
    q = model.posterior(x)
    z = q.mean + q.stddev * eps
    rec = model.likelihood(z).log_prob(x)
    kl = kl_divergence(q, prior)
    beta = min(1.0, step / 20)
    elbo = rec - beta * kl
    loss = -elbo.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 39:
        print(f"{step:2d} loss {loss.item():.4f} rec {rec.mean().item():.4f} kl {kl.mean().item():.4f} beta {beta:.2f}")

# analytic KL agrees with the closed form
q = model.posterior(x)
mu, var = q.mean, q.variance
closed = 0.5 * (var + mu ** 2 - 1 - var.log()).sum(-1)
print(torch.allclose(closed, kl_divergence(q, prior), atol=1e-6), kl_divergence(q, prior))
print(kl_divergence(q.base_dist, prior.base_dist).shape)
# importance-weighted bound with the fixed noise: log p(x,z) - log q(z)
z = q.mean + q.stddev * eps
logw = model.likelihood(z).log_prob(x) + prior.log_prob(z) - q.log_prob(z)
print("log w", logw)

# gradient contract of rsample vs sample
loc = torch.zeros(3, requires_grad=True)
scale = torch.ones(3, requires_grad=True)
n = Normal(loc, scale)
torch.manual_seed(0)
r = n.rsample((5,))
s = n.sample((5,))
print(r.requires_grad, r.grad_fn is not None, s.requires_grad, s.grad_fn)
r.sum().backward()
print(loc.grad, scale.grad.shape)
loc.grad = None
Independent(n, 1).rsample((4,)).sum().backward()
print(loc.grad)
print(F.binary_cross_entropy_with_logits(model.dec(z), x, reduction="none").sum(-1) + model.likelihood(z).log_prob(x))
