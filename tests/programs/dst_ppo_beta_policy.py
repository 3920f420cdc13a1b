# PPO with a Beta policy for bounded continuous actions (Chou et al. 2017 style): softplus+1
# concentrations, actions rescaled to [low, high], clipped surrogate, entropy bonus, approx-KL early stop.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Beta, Independent, kl_divergence

torch.set_printoptions(precision=4)
obs_dim, act_dim, T = 4, 2, 16
low, high = torch.tensor([-1.0, 0.0]), torch.tensor([1.0, 2.0])


class BetaActor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 2 * act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).reshape(p.shape))

    def dist(self, obs):
        a, b = self.net(obs).chunk(2, dim=-1)
        return Independent(Beta(F.softplus(a) + 1.0, F.softplus(b) + 1.0), 1)

    def value(self, obs):
        return self.v(obs).squeeze(-1)


model = BetaActor()
obs = torch.stack([torch.cos(torch.arange(obs_dim) * 0.5 + 0.3 * t) for t in range(T)])
x01 = (torch.sin(torch.arange(T * act_dim, dtype=torch.float32)) * 0.45 + 0.5).reshape(T, act_dim)
actions = low + (high - low) * x01
rewards = torch.cos(torch.arange(T, dtype=torch.float32) * 0.4)
gamma, lam, clip, ent_coef, vf_coef = 0.99, 0.95, 0.2, 0.01, 0.5

with torch.no_grad():
    old_dist = model.dist(obs)
    old_logp = old_dist.log_prob((actions - low) / (high - low))
    values = model.value(obs)
    adv = torch.zeros(T)
    last = 0.0
    for t in reversed(range(T)):
        nv = values[t + 1] if t + 1 < T else 0.0
        delta = rewards[t] + gamma * nv - values[t]
        last = delta + gamma * lam * last
        adv[t] = last
    returns = adv + values
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
print(old_dist)
print("old_logp", old_logp[:4])
print("entropy", old_dist.entropy()[:4])
print("mean action", (low + (high - low) * old_dist.mean)[:2])

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(12):
    d = model.dist(obs)
    logp = d.log_prob(x01)
    ratio = (logp - old_logp).exp()
    s1, s2 = ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv
    pg_loss = -torch.min(s1, s2).mean()
    v_loss = F.mse_loss(model.value(obs), returns)
    ent = d.entropy().mean()
    loss = pg_loss + vf_coef * v_loss - ent_coef * ent
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - (logp - old_logp)).mean()
        kl = kl_divergence(old_dist, model.dist(obs)).mean()
        clipfrac = ((ratio - 1).abs() > clip).float().mean()
    print(f"{epoch:2d} loss {loss.item():.4f} pg {pg_loss.item():.4f} v {v_loss.item():.4f} "
          f"ent {ent.item():.4f} akl {approx_kl.item():.5f} kl {kl.item():.5f} cf {clipfrac.item():.3f} gn {gn.item():.3f}")
    if approx_kl > 0.02:
        print("early stop")
        break
print(model.net[2].bias.grad)
