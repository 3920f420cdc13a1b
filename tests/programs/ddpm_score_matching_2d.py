# Denoising score matching on 2-D toy data (a ring of points from cos/sin), a noise-conditional
# MLP score network s(x, sigma) trained with sigma^2-weighted loss over geometric sigmas, then
# annealed Langevin dynamics with deterministic "noise"; also an exact-score sanity check.
import math
import torch
import torch.nn as nn


theta = torch.linspace(0, 2 * math.pi, 65)[:-1]
data = torch.stack([torch.cos(theta), torch.sin(theta)], dim=1) * 2.0
print(data.shape, data[:2])

sigmas = torch.exp(torch.linspace(math.log(1.0), math.log(0.05), 6))
print(sigmas)


class ScoreNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(3, hidden), nn.Softplus(), nn.Linear(hidden, hidden), nn.Softplus(), nn.Linear(hidden, 2)
        )

    def forward(self, x, sigma):
        h = torch.cat([x, sigma.log().unsqueeze(-1)], dim=-1)
        return self.net(h) / sigma.unsqueeze(-1)


net = ScoreNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + 0.3 * i).reshape(p.shape) * 0.4)
opt = torch.optim.Adam(net.parameters(), lr=5e-3)

for step in range(25):
    idx = (torch.arange(64) + step) % len(sigmas)
    sig = sigmas[idx]
    z = torch.stack([torch.sin(torch.arange(64.0) * 2.3 + step), torch.cos(torch.arange(64.0) * 1.7 - step)], 1)
    x_noisy = data + sig[:, None] * z
    target = -z / sig[:, None]
    score = net(x_noisy, sig)
    loss = 0.5 * ((score - target) ** 2).sum(dim=-1).mul(sig ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")

# exact score of an isotropic Gaussian through autograd.grad on log-density
x = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
logp = -0.5 * (x ** 2).sum() / 0.25
(score_exact,) = torch.autograd.grad(logp, x)
print(score_exact, torch.allclose(score_exact, -x / 0.25))


@torch.no_grad()
def annealed_langevin(x, n_steps=5, eps=2e-3):
    for i, sigma in enumerate(sigmas):
        alpha = eps * (sigma / sigmas[-1]) ** 2
        for k in range(n_steps):
            z = torch.cos(x * 5.0 + k + i)
            x = x + 0.5 * alpha * net(x, sigma.expand(x.shape[0])) + alpha.sqrt() * z
    return x


x0 = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(1, -1, 8)], 1)
samples = annealed_langevin(x0)
print(samples.shape, samples.norm(dim=1).round(decimals=2))
