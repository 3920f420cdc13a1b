# SAC-style squashed Gaussian policy (spinningup / CleanRL idioms): log-prob correction
# 2*(log2 - a - softplus(-2a)), TransformedDistribution with TanhTransform(cache_size=1),
# Independent Normal, rescaling to action bounds with AffineTransform, and entropy-temperature loss.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent, TransformedDistribution
from torch.distributions.transforms import TanhTransform, AffineTransform, ComposeTransform

LOG_STD_MIN, LOG_STD_MAX = -5, 2


class Actor(nn.Module):
    def __init__(self, obs_dim=3, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.mu = nn.Linear(32, act_dim)
        self.log_std = nn.Linear(32, act_dim)

    def forward(self, obs, eps):
        h = self.net(obs)
        mu = self.mu(h)
        log_std = torch.tanh(self.log_std(h))
        log_std = LOG_STD_MIN + 0.5 * (LOG_STD_MAX - LOG_STD_MIN) * (log_std + 1)
        std = log_std.exp()
        dist = Normal(mu, std)
        u = mu + std * eps
        a = torch.tanh(u)
        logp = dist.log_prob(u).sum(-1) - (2 * (math.log(2) - u - F.softplus(-2 * u))).sum(-1)
        return a, logp, mu, std


actor = Actor()
with torch.no_grad():
    for i, p in enumerate(actor.parameters()):
        p.copy_(0.25 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape))
obs = torch.stack([torch.sin(torch.arange(3.0) + k) for k in range(6)])
eps = torch.stack([torch.cos(torch.arange(2.0) * 2 + k) for k in range(6)])
a, logp, mu, std = actor(obs, eps)
print(a)
print(logp)

squashed = TransformedDistribution(Independent(Normal(mu, std), 1), [TanhTransform(cache_size=1)])
print(squashed.batch_shape, squashed.event_shape)
u = mu + std * eps
a2 = squashed.transforms[0](u)
print(torch.allclose(squashed.log_prob(a2), logp, atol=1e-5))
print(squashed.log_prob(a2))

low, high = torch.tensor([-2.0, 0.0]), torch.tensor([2.0, 1.0])
bounded = TransformedDistribution(Normal(mu, std), ComposeTransform([TanhTransform(cache_size=1),
                                  AffineTransform((high + low) / 2, (high - low) / 2, cache_size=1)]))
act = bounded.transforms[0](u)
print(act)
print(bounded.log_prob(act).sum(-1))
print(bounded.support if hasattr(bounded, "support") else None)

log_alpha = torch.zeros(1, requires_grad=True)
q_net = nn.Linear(5, 1)
with torch.no_grad():
    q_net.weight.copy_(torch.linspace(-0.5, 0.5, 5).unsqueeze(0))
    q_net.bias.fill_(0.1)
opt = torch.optim.Adam(actor.parameters(), lr=3e-3)
a_opt = torch.optim.Adam([log_alpha], lr=1e-2)
target_entropy = -2.0
for step in range(25):
    a, logp, _, _ = actor(obs, eps)
    q = q_net(torch.cat([obs, a], 1)).squeeze(-1)
    alpha = log_alpha.exp().detach()
    actor_loss = (alpha * logp - q).mean()
    opt.zero_grad()
    actor_loss.backward()
    opt.step()
    alpha_loss = -(log_alpha * (logp.detach() + target_entropy)).mean()
    a_opt.zero_grad()
    alpha_loss.backward()
    a_opt.step()
    if step % 5 == 0 or step == 24:
        print(f"{step:2d} actor {actor_loss.item():.4f} alpha {log_alpha.exp().item():.4f} logp {logp.mean().item():.3f}")
try:
    print(squashed.entropy())
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    print(squashed.mean)
except NotImplementedError as e:
    print("NotImplementedError", e)
print(q_net.weight.grad)
