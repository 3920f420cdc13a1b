# An energy-based model on 2-D points sampled with Langevin dynamics (the "Implicit Generation" /
# JEM recipe): grad of the energy w.r.t. the inputs via torch.autograd.grad, a replay buffer,
# clamping, contrastive divergence loss with an L2 energy regulariser; the "noise" is a fixed sin pattern.
import torch
import torch.nn as nn


class EnergyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.SiLU(), nn.Linear(16, 16), nn.SiLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def fake_noise(shape, step):
    n = torch.arange(torch.Size(shape).numel(), dtype=torch.float32).view(shape)
    return torch.sin(n * 12.9898 + step * 78.233) * 0.5


def langevin(model, x, steps=10, step_size=0.1, noise=0.01):
    is_training = model.training
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    x = x.clone().detach().requires_grad_(True)
    for k in range(steps):
        x.data.add_(noise * fake_noise(x.shape, k))
        x.data.clamp_(-2.0, 2.0)
        energy = model(x)
        grad_x, = torch.autograd.grad(energy.sum(), x)
        x.data.add_(-step_size * grad_x.clamp(-0.1, 0.1))
        x.data.clamp_(-2.0, 2.0)
    for p in model.parameters():
        p.requires_grad_(True)
    model.train(is_training)
    return x.detach()


t = torch.linspace(0, 2 * torch.pi, 12)
data = torch.stack([torch.cos(t), torch.sin(t)], dim=1)  # points on a circle
model = EnergyNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view(p.shape) * 0.4)

print(model(data).shape, model(data)[:3])
x0 = torch.stack([torch.linspace(-1.5, 1.5, 12), torch.linspace(1.0, -1.0, 12)], dim=1)
x_s = langevin(model, x0, steps=5)
print(x_s.requires_grad, x_s.grad_fn, [p.requires_grad for p in model.parameters()][:2])
print(x_s[:4])

buffer = x0.clone()
opt = torch.optim.Adam(model.parameters(), lr=1e-2, betas=(0.0, 0.999))
alpha = 0.1
for it in range(12):
    idx = torch.arange(6) + (it % 2) * 6
    init = buffer[idx]
    fake = langevin(model, init, steps=8)
    buffer[idx] = fake
    real = data[idx]
    real_e, fake_e = model(real), model(fake)
    reg = alpha * (real_e ** 2 + fake_e ** 2).mean()
    cdiv = real_e.mean() - fake_e.mean()
    loss = reg + cdiv
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
    opt.step()
    if it % 3 == 0:
        print(it, f"loss={loss.item():.4f} cdiv={cdiv.item():.4f} reg={reg.item():.4f}")

# score function and second-order: gradient of the gradient norm (used for score matching)
x = data[:3].clone().requires_grad_(True)
e = model(x).sum()
g, = torch.autograd.grad(e, x, create_graph=True)
gn = g.pow(2).sum()
h, = torch.autograd.grad(gn, x)
print(g.shape, g.requires_grad, h.shape, torch.isfinite(h).all())
print(f"{model(data).mean().item():.3f}", f"{model(buffer).mean().item():.3f}")
