# Weight normalization on conv stacks (WaveNet / HiFi-GAN style "apply weight_norm to every conv,
# remove it for inference"): parametrizations.weight_norm with dim=0, dim=1 and dim=None, shapes of
# original0 (g) and original1 (v), training a few steps, then remove_parametrizations for export.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import weight_norm


class ResBlock(nn.Module):
    def __init__(self, ch, dilation):
        super().__init__()
        self.conv1 = nn.Conv1d(ch, ch, 3, padding=dilation, dilation=dilation)
        self.conv2 = nn.Conv1d(ch, ch, 1)

    def forward(self, x):
        return x + self.conv2(F.leaky_relu(self.conv1(F.leaky_relu(x, 0.1)), 0.1))


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Conv1d(2, 4, 5, padding=2)
        self.up = nn.ConvTranspose1d(4, 3, 4, stride=2, padding=1)
        self.blocks = nn.ModuleList([ResBlock(3, 1), ResBlock(3, 3)])
        self.post = nn.Conv1d(3, 1, 3, padding=1)

    def forward(self, x):
        x = self.up(F.leaky_relu(self.pre(x), 0.1))
        for b in self.blocks:
            x = b(x)
        return torch.tanh(self.post(x))


g = Generator()
with torch.no_grad():
    for i, p in enumerate(g.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view_as(p) * 0.4)
x = torch.cos(torch.arange(2 * 2 * 8, dtype=torch.float32) * 0.35).view(2, 2, 8)
ref = g(x)

dims = {"pre": 0, "up": 1, "post": None}
for name, m in g.named_modules():
    if isinstance(m, (nn.Conv1d, nn.ConvTranspose1d)):
        weight_norm(m, dim=dims.get(name, 0))
for name in ["pre", "up", "blocks.1.conv1", "post"]:
    pl = g.get_submodule(name).parametrizations.weight
    print(name, tuple(pl.original0.shape), tuple(pl.original1.shape), type(pl[0]).__name__)
print(torch.allclose(g(x), ref, atol=1e-6))
print(g.post.parametrizations.weight.original0)
print(len([k for k in g.state_dict() if "original" in k]))

target = torch.sin(torch.linspace(0, 6.28, 16)).expand(2, 1, 16) * 0.5
opt = torch.optim.Adam(g.parameters(), lr=0.01)
for step in range(12):
    opt.zero_grad()
    loss = F.l1_loss(g(x), target)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.4f}")
print(g.up.parametrizations.weight.original0.grad.flatten()[:3])
with torch.no_grad():
    trained = g(x)

for m in g.modules():
    if P.is_parametrized(m, "weight"):
        P.remove_parametrizations(m, "weight")
print(sorted({k.split(".")[-1] for k in g.state_dict()}), type(g.pre).__name__)
with torch.no_grad():
    print("same after removal:", torch.allclose(g(x), trained, atol=1e-6))
print(f"{F.l1_loss(g(x), target).item():.4f}")
