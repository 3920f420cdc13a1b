# Energy-based model + score matching (Song & Ermon / "Your classifier is secretly an EBM" style):
# score via autograd.grad(create_graph=True), exact Hutchinson-free score matching on 2-D data,
# denoising score matching with a fixed noise tensor, Langevin steps with fixed noise, CD loss.
import torch
import torch.nn as nn


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Softplus(), nn.Linear(16, 16), nn.Softplus(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view(p.shape))


def score(model, x):
    x = x.requires_grad_(True)
    e = model(x)
    return -torch.autograd.grad(e.sum(), x, create_graph=True)[0]


def exact_score_matching(model, x):
    x = x.clone().requires_grad_(True)
    s = score(model, x)
    trace = 0.0
    for i in range(x.shape[1]):
        trace = trace + torch.autograd.grad(s[:, i].sum(), x, create_graph=True)[0][:, i]
    return (0.5 * (s ** 2).sum(1) + trace).mean()


t = torch.linspace(0, 6.28, 32)
data = torch.stack([torch.cos(t) * 2, torch.sin(2 * t)], 1)
noise = 0.3 * torch.stack([torch.sin(5 * t), torch.cos(7 * t)], 1)

model = Energy()
init(model)
s = score(model, data.clone())
print(s.shape, s.requires_grad, s.grad_fn.name())
print(f"{exact_score_matching(model, data).item():.5f}")

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(25):
    loss = exact_score_matching(model, data)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0:
        print(f"ssm step {step} loss {loss.item():.5f}")

init(model)
sigma = 0.3
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(25):
    x_noisy = data + noise
    target = -noise / sigma ** 2
    s = score(model, x_noisy)
    loss = 0.5 * ((s - target) ** 2).sum(1).mean() * sigma ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0:
        print(f"dsm step {step} loss {loss.item():.5f}")

# Langevin dynamics with a fixed noise sequence
x = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(1, -1, 8)], 1)
step_size = 0.01
for k in range(10):
    z = 0.1 * torch.cos(torch.arange(16, dtype=torch.float32) * (k + 1)).view(8, 2)
    x = x.detach().requires_grad_(True)
    e = model(x).sum()
    g, = torch.autograd.grad(e, x)
    x = x - step_size / 2 * g + (step_size ** 0.5) * z
print(x.shape, x.requires_grad, f"{x.abs().mean().item():.4f}")

# contrastive divergence loss
pos, neg = model(data), model(x.detach())
cd = pos.mean() - neg.mean() + 0.1 * ((pos ** 2).mean() + (neg ** 2).mean())
cd.backward()
print(f"cd {cd.item():.4f}", model.net[0].weight.grad.shape)
try:
    torch.autograd.grad(model(data).sum(), data)
except RuntimeError as e:
    print("RuntimeError", e)
