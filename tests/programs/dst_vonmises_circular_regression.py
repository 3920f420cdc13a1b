# Circular regression for wind / joint angles with a VonMises likelihood: mean direction from
# atan2 of a 2-D head, concentration via softplus, NLL training, circular mean/variance,
# entropy and KL-free model comparison against a wrapped-Normal-style Normal on angles.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import VonMises, Normal

torch.set_printoptions(precision=4)
N = 24
hour = torch.arange(N, dtype=torch.float32)
feats = torch.stack([torch.sin(2 * math.pi * hour / 24), torch.cos(2 * math.pi * hour / 24)], 1)
true_dir = torch.remainder(0.8 * torch.sin(2 * math.pi * hour / 24) + 0.3 * torch.cos(hour) + math.pi, 2 * math.pi) - math.pi


class DirectionHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 16), nn.Tanh())
        self.vec = nn.Linear(16, 2)
        self.kappa = nn.Linear(16, 1)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape))

    def forward(self, x):
        h = self.body(x)
        v = self.vec(h)
        loc = torch.atan2(v[:, 0], v[:, 1])
        kappa = F.softplus(self.kappa(h)).squeeze(-1) + 1e-3
        return VonMises(loc, kappa)


model = DirectionHead()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
d = model(feats)
print(d, d.batch_shape, d.support)
for step in range(60):
    d = model(feats)
    nll = -d.log_prob(true_dir).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 12 == 0 or step == 59:
        print(f"{step:2d} nll {nll.item():.4f} mean kappa {d.concentration.mean().item():.4f}")

d = model(feats)
print("loc", d.loc[:6])
print("concentration", d.concentration[:6])
print("mean", d.mean[:3], "mode", d.mode[:3])
print("circular variance", d.variance[:3])
err = torch.atan2(torch.sin(true_dir - d.loc), torch.cos(true_dir - d.loc))
print("mean abs angular error", f"{err.abs().mean().item():.4f}")

# fixed-parameter properties across concentrations
kappa = torch.tensor([0.01, 0.5, 1.0, 4.0, 20.0, 200.0], requires_grad=True)
vm = VonMises(torch.zeros(6), kappa)
lp = vm.log_prob(torch.tensor([0.0, 0.5, -1.0, 3.0, 0.1, 0.01]))
lp.sum().backward()
print("log_prob", lp)
print("dlogp/dkappa", kappa.grad)
print("variance", vm.variance)
print("vs Normal(0, 1/sqrt(kappa)) at 0.1", VonMises(0.0, 200.0).log_prob(torch.tensor(0.1)),
      Normal(0.0, 200.0 ** -0.5).log_prob(torch.tensor(0.1)))
for bad in [torch.tensor(4.0), torch.tensor(-3.2)]:
    try:
        print(VonMises(0.0, 1.0).log_prob(bad))
    except ValueError as e:
        print("ValueError", str(e).split(",")[0])
try:
    print(VonMises(0.0, 1.0).entropy())
except NotImplementedError as e:
    print("NotImplementedError", e)
print(VonMises(torch.tensor([0.0, 1.0]), 2.0).expand((3, 2)).batch_shape)
