# Heteroscedastic regression: network predicts mean and log-variance; Gaussian NLL by hand vs
# F.gaussian_nll_loss(full=True, eps) and nn.GaussianNLLLoss, including broadcasting and errors.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class HeteroNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 16), nn.Tanh())
        self.mean_head = nn.Linear(16, 1)
        self.logvar_head = nn.Linear(16, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mean_head(h), self.logvar_head(h)


def nll_by_hand(mu, logvar, y):
    return (0.5 * (logvar + (y - mu) ** 2 / logvar.exp()) + 0.5 * math.log(2 * math.pi)).mean()


x = torch.linspace(-3, 3, 40).unsqueeze(1)
y = torch.sin(x) + 0.3 * torch.cos(5 * x) * (x.abs() / 3)

torch.manual_seed(0)
net = HeteroNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape))

opt = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(40):
    mu, logvar = net(x)
    loss = F.gaussian_nll_loss(mu, y, logvar.exp(), full=True, eps=1e-6)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0:
        print(f"step {step:2d} nll {loss.item():.4f}")

mu, logvar = net(x)
var = logvar.exp()
print("hand   ", f"{nll_by_hand(mu, logvar, y).item():.5f}")
print("F full ", f"{F.gaussian_nll_loss(mu, y, var, full=True).item():.5f}")
print("F      ", f"{F.gaussian_nll_loss(mu, y, var).item():.5f}")
crit = nn.GaussianNLLLoss(full=True, eps=1e-3, reduction="sum")
print(crit)
print("module ", f"{crit(mu, y, var).item():.4f}")
none = F.gaussian_nll_loss(mu, y, var, reduction="none")
print("none", none.shape, none.grad_fn is not None)

# homoscedastic variance with one fewer dim than input, and scalar-ish var
inp = torch.arange(6.0).reshape(3, 2)
tgt = torch.ones(3, 2)
print(F.gaussian_nll_loss(inp, tgt, torch.full((3,), 2.0)))
print(F.gaussian_nll_loss(inp, tgt, torch.full((3, 1), 2.0), full=True))
print(F.gaussian_nll_loss(inp, tgt, torch.tensor([[0.0, 1.0]] * 3), eps=0.5, reduction="none"))

# gradient wrt the variance
v = torch.full((3, 2), 0.5, requires_grad=True)
F.gaussian_nll_loss(inp, tgt, v, reduction="sum").backward()
print("dvar", v.grad)

for bad in (torch.full((3, 2), -1.0), torch.ones(4)):
    try:
        F.gaussian_nll_loss(inp, tgt, bad)
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
try:
    F.gaussian_nll_loss(inp, tgt, torch.ones(3, 2), reduction="avg")
except ValueError as e:
    print(type(e).__name__, e)

with torch.no_grad():
    sd = net(x[::8])[1].mul(0.5).exp()
print("pred std", sd.squeeze(1).round(decimals=3))
