# SAC squashed-Gaussian actor built from TransformedDistribution(Independent(Normal),
# ComposeTransform([TanhTransform(cache_size=1), AffineTransform(bias, scale)])) with a fixed
# noise table instead of rsample, automatic entropy tuning (log_alpha) and transform caching checks.
import torch
import torch.nn as nn
from torch.distributions import Normal, Independent, TransformedDistribution
from torch.distributions.transforms import TanhTransform, AffineTransform, ComposeTransform

torch.set_printoptions(precision=4)
obs_dim, act_dim = 3, 2
low, high = torch.tensor([-2.0, 0.0]), torch.tensor([2.0, 1.0])
scale, bias = (high - low) / 2, (high + low) / 2


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 8), nn.Tanh())
        self.mu = nn.Linear(8, act_dim)
        self.log_std = nn.Linear(8, act_dim)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape))

    def forward(self, obs):
        h = self.body(obs)
        log_std = self.log_std(h).clamp(-5, 2)
        base = Independent(Normal(self.mu(h), log_std.exp()), 1)
        squash = ComposeTransform([TanhTransform(cache_size=1), AffineTransform(bias, scale, event_dim=1)])
        return TransformedDistribution(base, squash)


actor = Actor()
obs = torch.stack([torch.sin(torch.arange(obs_dim) * 0.7 + k) for k in range(5)])
eps = torch.cos(torch.arange(5 * act_dim, dtype=torch.float32) * 1.3).reshape(5, act_dim)
log_alpha = torch.zeros(1, requires_grad=True)
target_entropy = -float(act_dim)
opt = torch.optim.Adam(actor.parameters(), lr=1e-2)
a_opt = torch.optim.Adam([log_alpha], lr=1e-2)
q_w = torch.tensor([0.5, -1.0])

d = actor(obs)
print(d.batch_shape, d.event_shape, d.support)
print(d.transforms if hasattr(d, "transforms") else None)
for step in range(30):
    d = actor(obs)
    base = d.base_dist
    u = base.base_dist.loc + base.base_dist.scale * eps          # reparameterized pre-tanh sample
    action = d.transforms[0](u)
    logp = d.log_prob(action)
    q = (action * q_w).sum(-1)
    alpha = log_alpha.exp().detach()
    loss = (alpha * logp - q).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    a_loss = -(log_alpha * (logp.detach() + target_entropy)).mean()
    a_opt.zero_grad()
    a_loss.backward()
    a_opt.step()
    if step % 6 == 0:
        print(step, f"{loss.item():.4f}", f"{a_loss.item():.4f}", f"{log_alpha.item():.4f}",
              [round(v, 3) for v in action[0].tolist()])

t = TanhTransform(cache_size=1)
x = torch.tensor([0.3, -1.2, 4.0])
y = t(x)
print(t.inv(y) is x, t.inv(y.clone()) is x, torch.allclose(t.inv(y.clone()), x, atol=1e-3))
print(TanhTransform()(x), TanhTransform().inv(torch.tensor([0.5, -0.999])))
print(t.log_abs_det_jacobian(x, y))
comp = ComposeTransform([TanhTransform(), AffineTransform(bias, scale)])
print(comp(torch.zeros(2)), comp.inv(torch.tensor([1.0, 0.75])))
print(comp.log_abs_det_jacobian(torch.tensor([0.2, -0.4]), comp(torch.tensor([0.2, -0.4]))))
print(comp.domain, comp.codomain, comp.event_dim, comp.inv.inv is comp)
d = actor(obs[:1])
print(d.log_prob(torch.tensor([[1.999, 0.5]])), d.log_prob(torch.tensor([[0.0, 0.001]])))
print(d.mean if False else "mean n/a")
try:
    print(d.entropy())
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    print(d.mean)
except NotImplementedError as e:
    print("NotImplementedError", e)
