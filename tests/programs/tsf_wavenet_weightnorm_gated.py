# WaveNet-style forecaster (as in Kaggle web-traffic notebooks): dilated causal Conv1d with
# F.pad left padding, gated tanh*sigmoid activations, residual and skip 1x1 convs, all convs
# wrapped in torch.nn.utils.parametrizations.weight_norm; inspects original0/original1, then
# removes the parametrization for export and also tries the legacy weight_norm(dim=None).
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm

torch.set_printoptions(precision=4, sci_mode=False)


class GatedBlock(nn.Module):
    def __init__(self, ch, skip_ch, dilation, k=2):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.filt = weight_norm(nn.Conv1d(ch, ch, k, dilation=dilation))
        self.gate = weight_norm(nn.Conv1d(ch, ch, k, dilation=dilation))
        self.res = weight_norm(nn.Conv1d(ch, ch, 1))
        self.skip = weight_norm(nn.Conv1d(ch, skip_ch, 1))

    def forward(self, x):
        xp = F.pad(x, (self.pad, 0))
        z = torch.tanh(self.filt(xp)) * torch.sigmoid(self.gate(xp))
        return x + self.res(z), self.skip(z)


class WaveNet(nn.Module):
    def __init__(self, ch=8, skip_ch=8, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = nn.Conv1d(1, ch, 1)
        self.blocks = nn.ModuleList([GatedBlock(ch, skip_ch, d) for d in dilations])
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip_ch, skip_ch, 1), nn.ReLU(), nn.Conv1d(skip_ch, 1, 1))

    def forward(self, x):
        h, skips = self.inp(x), 0
        for b in self.blocks:
            h, s = b(h)
            skips = skips + s
        return self.out(skips)


model = WaveNet()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).reshape(p.shape) * 0.4 + (0.6 if n.endswith("original0") else 0.0))
names = [n for n, _ in model.named_parameters()]
print(len(names), names[2:7])
g = model.blocks[1].filt.parametrizations.weight.original0
print("g shape", tuple(g.shape), "is_parametrized", parametrize.is_parametrized(model.blocks[1].filt, "weight"))
w = model.blocks[1].filt.weight
print("row norms == g", torch.allclose(w.norm(dim=(1, 2), keepdim=True), g.abs(), atol=1e-5))
print("receptive field", 1 + sum(b.pad for b in model.blocks))

t = torch.arange(160, dtype=torch.float32)
y = torch.sin(t / 5) + 0.5 * torch.sin(t / 13)
x_in, x_tg = y[:-1].view(1, 1, -1), y[1:].view(1, 1, -1)

opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(25):
    opt.zero_grad()
    loss = F.mse_loss(model(x_in)[..., 16:], x_tg[..., 16:])
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 24:
        print(f"step {step:2d} loss {loss.item():.4f} g_grad {model.blocks[0].filt.parametrizations.weight.original0.grad.norm().item():.4f}")

causal = model(x_in)
x2 = x_in.clone()
x2[..., 100:] = 0.0
print("causal ok", torch.allclose(causal[..., :100], model(x2)[..., :100], atol=1e-6))

with torch.no_grad():
    before = model(x_in[..., :40])
for b in model.blocks:
    for name in ["filt", "gate", "res", "skip"]:
        parametrize.remove_parametrizations(getattr(b, name), "weight")
with torch.no_grad():
    after = model(x_in[..., :40])
print("after remove", len(list(model.parameters())), torch.allclose(before, after, atol=1e-5))
print(list(model.blocks[0].state_dict().keys()))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    legacy = nn.utils.weight_norm(nn.Conv1d(2, 3, 2), dim=None)
print("legacy", sorted(n for n, _ in legacy.named_parameters()), tuple(legacy.weight_g.shape), legacy.weight_g.dim())
legacy2 = nn.utils.weight_norm(nn.Linear(4, 3), name="weight", dim=1)
print("dim=1 g", tuple(legacy2.weight_g.shape))
nn.utils.remove_weight_norm(legacy2)
print(sorted(n for n, _ in legacy2.named_parameters()))
try:
    nn.utils.remove_weight_norm(legacy2)
except ValueError as e:
    print(type(e).__name__, e)
