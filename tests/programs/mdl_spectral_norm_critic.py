# WGAN-style critic with parametrizations.spectral_norm on every Linear/Conv layer: inspect the
# registered parametrizations and _u/_v buffers, train a few steps, check each layer's largest
# singular value stays ~1, compare eval vs train (no power iteration in eval), then strip them.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import spectral_norm

critic = nn.Sequential(
    nn.Conv1d(1, 4, 3, padding=1), nn.LeakyReLU(0.2),
    nn.Conv1d(4, 4, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
    nn.Flatten(), nn.Linear(16, 1),
)
with torch.no_grad():
    for i, p in enumerate(critic.parameters()):
        base = torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.3
        if p.dim() > 1:  # give each weight a clearly dominant direction
            flat = base.view(p.shape[0], -1)
            flat[0] += 1.5
        p.copy_(base)

for name, m in critic.named_modules():
    if isinstance(m, (nn.Conv1d, nn.Linear)):
        spectral_norm(m, n_power_iterations=1)
print([n for n, m in critic.named_modules() if P.is_parametrized(m)])
print(sorted(k for k in critic.state_dict() if k.startswith("2.")))
print(critic[2].parametrizations.weight[0]._u.shape, critic[2].parametrizations.weight[0]._v.shape)


def top_sv(m):
    return torch.linalg.matrix_norm(m.weight.detach().flatten(1), ord=2).item()


print([f"{top_sv(critic[i]):.3f}" for i in (0, 2, 5)])

real = torch.sin(torch.linspace(0, 6.28, 8)).repeat(4, 1).unsqueeze(1) * torch.linspace(0.5, 1.0, 4).view(4, 1, 1)
fake = torch.cos(torch.linspace(0, 3.14, 8)).repeat(4, 1).unsqueeze(1) * 0.3
opt = torch.optim.Adam(critic.parameters(), lr=0.01, betas=(0.5, 0.9))
for step in range(12):
    opt.zero_grad()
    loss = critic(fake).mean() - critic(real).mean()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.3f}")
print([f"{top_sv(critic[i]):.2f}" for i in (0, 2, 5)])
print(critic[5].parametrizations.weight.original.grad is not None)

critic.eval()
with torch.no_grad():
    a = critic(real)
    b = critic(real)
print("eval deterministic:", torch.equal(a, b), a.shape)

for m in critic.modules():
    if P.is_parametrized(m, "weight"):
        P.remove_parametrizations(m, "weight")
print(sorted(critic.state_dict().keys()))
print(type(critic[0]).__name__, f"{top_sv(critic[5]):.2f}")
