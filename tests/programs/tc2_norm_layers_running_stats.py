# Normalization layers with running statistics inside a compiled model and changing batch sizes:
# BatchNorm1d(momentum=None) (cumulative moving average driven by num_batches_tracked),
# InstanceNorm1d(track_running_stats=True), GroupNorm; then eval() uses the accumulated stats.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(4, momentum=None)
        self.inorm = nn.InstanceNorm1d(4, affine=True, track_running_stats=True)
        self.gn = nn.GroupNorm(2, 4)
        self.fc = nn.Linear(4 * 6, 2)

    def forward(self, x):  # x: (B, 4, 6)
        x = self.bn(x)
        x = self.inorm(x) + self.gn(x)
        return self.fc(x.flatten(1))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view_as(p) * 0.5 + (1.0 if p.dim() == 1 and i < 6 else 0.0))
cnet = torch.compile(net)


def batch(b, phase):
    t = torch.arange(b * 4 * 6, dtype=torch.float32).view(b, 4, 6)
    return torch.sin(t * 0.13 + phase) * (1 + phase) + phase


opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.5)
for step, b in enumerate([5, 5, 3, 5, 2]):
    x = batch(b, 0.2 * step)
    opt.zero_grad()
    out = cnet(x)
    loss = F.mse_loss(out, torch.ones_like(out))
    loss.backward()
    opt.step()
    print(f"step {step} bs {b} loss {loss.item():.4f} tracked {net.bn.num_batches_tracked.item()}")

print("bn mean", torch.round(net.bn.running_mean, decimals=4))
print("bn var", torch.round(net.bn.running_var, decimals=4))
print("in mean", torch.round(net.inorm.running_mean, decimals=4))
print("in var", torch.round(net.inorm.running_var, decimals=4))
print("in tracked", net.inorm.num_batches_tracked.item())

net.eval()
with torch.no_grad():
    x = batch(3, 1.0)
    y = cnet(x)
    y_ref = net(x)
print("eval", torch.round(y, decimals=4), torch.allclose(y, y_ref, atol=1e-5))
print("tracked after eval", net.bn.num_batches_tracked.item())
print(sorted(k for k in net.state_dict() if "num_batches" in k))
