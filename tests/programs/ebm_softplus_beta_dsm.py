# Noise-conditional denoising score matching with a Softplus(beta, threshold) energy network:
# per-sigma weighting lambda(sigma)=sigma**2, target -(x_noisy - x)/sigma**2, score = -dE/dx.
import torch
import torch.nn as nn
import torch.nn.functional as F


class NCEnergy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 16)
        self.act = nn.Softplus(beta=2.0, threshold=4.0)
        self.fc2 = nn.Linear(16, 16)
        self.out = nn.Linear(16, 1)

    def forward(self, x, sigma):
        h = self.act(self.fc1(torch.cat([x, sigma.log().expand(x.shape[0], 1)], 1)))
        h = F.softplus(self.fc2(h), beta=0.5, threshold=10.0)
        return self.out(h).squeeze(-1) / sigma.squeeze()


model = NCEnergy()
print(model)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + 0.5 * i).view_as(p) * 0.8)

t = torch.linspace(0, 3.0, 10)
data = torch.stack([torch.sin(2 * t), torch.cos(3 * t)], 1)
sigmas = torch.tensor([1.0, 0.5, 0.25, 0.1])
noise_bank = torch.sin(torch.arange(4 * 10 * 2, dtype=torch.float32) * 0.37).view(4, 10, 2)


def score(model, x, sigma):
    x = x.requires_grad_(True)
    e = model(x, sigma)
    return -torch.autograd.grad(e.sum(), x, create_graph=True)[0]


opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(15):
    total = 0.0
    per_sigma = []
    for k, s in enumerate(sigmas):
        sigma = s.view(1, 1)
        x_noisy = data + s * noise_bank[k]
        target = -(x_noisy - data) / s ** 2
        pred = score(model, x_noisy.detach(), sigma)
        l = 0.5 * ((pred - target) ** 2).sum(1).mean() * s ** 2
        per_sigma.append(l.item())
        total = total + l
    loss = total / len(sigmas)
    opt.zero_grad()
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", [f"{v:.3f}" for v in per_sigma], f"gnorm={gnorm.item():.3f}")

# softplus with threshold: large inputs take the linear branch, gradient exactly 1
z = torch.tensor([-5.0, 0.0, 1.9, 2.0, 2.1, 10.0], requires_grad=True)
y = F.softplus(z, beta=2.0, threshold=4.0)
(g,) = torch.autograd.grad(y.sum(), z, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), z)
print(y.detach(), g.detach(), h, sep="\n")
print(nn.Softplus(beta=0.5), nn.Softplus())
