# Sliced score matching (Song et al. 2019) and its variance-reduced form, next to denoising
# score matching, on a 2-D mixture: projections v from sign(sin(arange)), the v^T (ds/dx) v term
# via autograd.grad(create_graph=True), then annealed Langevin sampling with a fixed noise bank.
import math
import torch
import torch.nn as nn


class ScoreMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU(), nn.Linear(32, 2))

    def forward(self, x):
        return self.net(x)


def init_(model, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(scale * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.77 + 0.3 * i).reshape(p.shape))


angles = torch.linspace(0, 2 * math.pi, 33)[:-1]
data = torch.stack([2 * torch.cos(angles), torch.sin(angles)], 1)
data = data + 0.1 * torch.stack([torch.sin(7 * angles), torch.cos(5 * angles)], 1)
n_proj = 2
V = torch.sign(torch.sin(torch.arange(n_proj * data.numel(), dtype=torch.float32) * 1.618 + 0.1))
V = V.reshape(n_proj, *data.shape)
print("projections mean:", round(V.mean().item(), 4), "shape:", tuple(V.shape))


def ssm_loss(model, x, V, variance_reduced=False):
    x = x.requires_grad_(True)
    s = model(x)
    total = 0.0
    for v in V:
        sv = (s * v).sum()
        grad_sv = torch.autograd.grad(sv, x, create_graph=True)[0]
        vjv = (grad_sv * v).sum(-1)
        if variance_reduced:
            total = total + vjv + 0.5 * (s ** 2).sum(-1)
        else:
            total = total + vjv + 0.5 * ((s * v).sum(-1)) ** 2
    return (total / len(V)).mean()


def dsm_loss(model, x, sigma, noise):
    x_tilde = x + sigma * noise
    target = -noise / sigma
    return 0.5 * ((model(x_tilde) - target) ** 2).sum(-1).mean() * sigma ** 2


for variant in ["ssm", "ssm_vr", "dsm"]:
    model = ScoreMLP()
    init_(model)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    noise = torch.cos(torch.arange(data.numel(), dtype=torch.float32) * 2.3).reshape(data.shape)
    history = []
    for step in range(25):
        opt.zero_grad()
        if variant == "dsm":
            loss = dsm_loss(model, data, 0.3, noise)
        else:
            loss = ssm_loss(model, data.clone(), V, variance_reduced=(variant == "ssm_vr"))
        loss.backward()
        opt.step()
        history.append(loss.item())
    print(f"{variant:7s} first {history[0]:.4f} last {history[-1]:.4f} decreased {history[-1] < history[0]}")
    if variant == "ssm":
        ssm_model = model

# gradient of the SSM loss reaches every layer (second-order path through ELU)
ssm_model.zero_grad()
loss = ssm_loss(ssm_model, data[:8].clone(), V[:, :8])
loss.backward()
for name, p in ssm_model.named_parameters():
    print(f"{name:14s} grad norm {p.grad.norm().item():.5f}")

# annealed Langevin dynamics with a fixed noise bank
sigmas = torch.tensor([1.0, 0.5, 0.25])
x = torch.stack([torch.linspace(-3, 3, 6), torch.linspace(2, -2, 6)], 1)
bank = torch.sin(torch.arange(3 * 10 * x.numel(), dtype=torch.float32) * 0.91).reshape(3, 10, *x.shape)
eps = 0.01
with torch.no_grad():
    for i, sigma in enumerate(sigmas):
        alpha = eps * (sigma / sigmas[-1]) ** 2
        for t in range(10):
            x = x + 0.5 * alpha * ssm_model(x) + torch.sqrt(alpha) * bank[i, t] * 0.1
        print(f"sigma {sigma.item():.2f} alpha {alpha.item():.4f} mean radius {x.norm(dim=1).mean().item():.4f}")
print(x.requires_grad, tuple(x.shape))
