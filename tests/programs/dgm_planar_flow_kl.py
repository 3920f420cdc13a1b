# Planar flows (Rezende & Mohamed 2015) fitting a 2-D target density by reverse KL: invertibility
# fix of u, log|det| = log|1 + u^T psi(z)|, a fixed base-sample tensor, and per-step losses.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import MultivariateNormal, Normal, Independent


class PlanarFlow(nn.Module):
    def __init__(self, dim, k):
        super().__init__()
        self.u = nn.Parameter(0.1 * torch.sin(torch.arange(dim, dtype=torch.float32) + k))
        self.w = nn.Parameter(0.1 * torch.cos(torch.arange(dim, dtype=torch.float32) * 2 + k))
        self.b = nn.Parameter(torch.tensor(0.05 * k))

    def u_hat(self):
        wu = self.w @ self.u
        m = -1 + F.softplus(wu)
        return self.u + (m - wu) * self.w / (self.w.norm() ** 2)

    def forward(self, z):
        u = self.u_hat()
        lin = z @ self.w + self.b
        f = z + u * torch.tanh(lin).unsqueeze(-1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(-1) * self.w
        log_det = torch.log(torch.abs(1 + psi @ u) + 1e-8)
        return f, log_det


def target_energy(z):
    z1, z2 = z[:, 0], z[:, 1]
    norm = torch.sqrt(z1 ** 2 + z2 ** 2)
    e1 = 0.5 * ((norm - 2) / 0.4) ** 2
    e2 = torch.log(torch.exp(-0.5 * ((z1 - 2) / 0.6) ** 2) + torch.exp(-0.5 * ((z1 + 2) / 0.6) ** 2))
    return e1 - e2


flows = nn.ModuleList([PlanarFlow(2, k) for k in range(4)])
base = MultivariateNormal(torch.zeros(2), torch.eye(2))
print(base, base.event_shape)
n = 64
ang = torch.linspace(0, 2 * math.pi, n)
z0 = torch.stack([torch.cos(ang) * (1 + 0.5 * torch.sin(3 * ang)), torch.sin(ang) * (1 + 0.5 * torch.cos(5 * ang))], 1)
print(z0.shape, base.log_prob(z0)[:3])
print(Independent(Normal(torch.zeros(2), torch.ones(2)), 1).log_prob(z0)[:3])

opt = torch.optim.RMSprop(flows.parameters(), lr=1e-2, momentum=0.9)
for it in range(30):
    z = z0
    sum_log_det = torch.zeros(n)
    for f in flows:
        z, ld = f(z)
        sum_log_det = sum_log_det + ld
    loss = (base.log_prob(z0) - sum_log_det + target_energy(z)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 6 == 0 or it == 29:
        print(f"iter {it:2d} loss {loss.item():.4f} logdet {sum_log_det.mean().item():.4f}")
for i, f in enumerate(flows):
    print(i, f"w.u_hat={(f.w @ f.u_hat()).item():.4f}", (f.w @ f.u_hat()).item() >= -1)
print([name for name, _ in flows.named_parameters()][:6])
print(flows[0].u.grad.shape, flows[0].b.grad.shape)
