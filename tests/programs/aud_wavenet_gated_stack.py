# A WaveNet-style stack: causal dilated Conv1d via F.pad left padding, gated tanh*sigmoid units,
# residual and skip 1x1 convs, trained a few steps to predict the next sample of a sine wave.
import torch
import torch.nn as nn
import torch.nn.functional as F

class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation=1):
        super().__init__(cin, cout, k, dilation=dilation)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))

class ResBlock(nn.Module):
    def __init__(self, ch, skip, dilation):
        super().__init__()
        self.filter = CausalConv1d(ch, ch, 2, dilation)
        self.gate = CausalConv1d(ch, ch, 2, dilation)
        self.res = nn.Conv1d(ch, ch, 1)
        self.skip = nn.Conv1d(ch, skip, 1)

    def forward(self, x):
        z = torch.tanh(self.filter(x)) * torch.sigmoid(self.gate(x))
        return x + self.res(z), self.skip(z)

class WaveNet(nn.Module):
    def __init__(self, ch=4, skip=6, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = CausalConv1d(1, ch, 2)
        self.blocks = nn.ModuleList([ResBlock(ch, skip, d) for d in dilations])
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip, skip, 1), nn.ReLU(), nn.Conv1d(skip, 1, 1))

    def forward(self, x):
        h = self.inp(x)
        skips = 0
        for b in self.blocks:
            h, s = b(h)
            skips = skips + s
        return self.out(skips)

model = WaveNet()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape))
print(model.blocks[1])
print([n for n, _ in model.named_parameters()][:6], len(list(model.parameters())))
rf = 1 + sum(b.filter.left for b in model.blocks) + model.inp.left
print("receptive field", rf)

t = torch.arange(96, dtype=torch.float32)
sig = torch.stack([torch.sin(0.2 * t), torch.sin(0.35 * t + 1.0)]).unsqueeze(1)
x, y = sig[..., :-1], sig[..., 1:]
print(x.shape, y.shape)

# causality check: output at time t must not depend on inputs after t
probe = x[:1].clone().requires_grad_(True)
model(probe)[0, 0, 40].backward()
g = probe.grad[0, 0]
print("future grad zero:", bool((g[41:] == 0).all()), "past nonzero:", int((g[:41] != 0).sum()))

opt = torch.optim.Adam(model.parameters(), lr=0.01)
losses = []
for step in range(30):
    opt.zero_grad()
    pred = model(x)
    loss = F.mse_loss(pred[..., rf:], y[..., rf:])
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if step % 10 == 0:
        print(step, f"{loss.item():.4f}")
print("decreased:", losses[-1] < losses[0])
print(pred.shape, pred.grad_fn.name())
