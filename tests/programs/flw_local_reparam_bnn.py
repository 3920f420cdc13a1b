# Bayesian linear layers with the local reparameterization trick (Kingma et al. 2015) as in
# BNN tutorials: pre-activation mean x W_mu and variance x^2 sigma^2, fixed eps, closed-form KL to
# a N(0, prior_var) prior via kl_divergence, an MC-free predictive variance, and ELBO training.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence


class LRTLinear(nn.Module):
    def __init__(self, fin, fout, k, prior_std=1.0):
        super().__init__()
        ar = torch.arange(fin * fout, dtype=torch.float32).reshape(fout, fin)
        self.w_mu = nn.Parameter(0.3 * torch.sin(ar * 0.7 + k))
        self.w_logsig2 = nn.Parameter(torch.full((fout, fin), -6.0))
        self.bias = nn.Parameter(torch.zeros(fout))
        self.prior = Normal(0.0, prior_std)

    def forward(self, x, eps):
        mean = F.linear(x, self.w_mu, self.bias)
        var = F.linear(x ** 2, self.w_logsig2.exp())
        return mean + var.sqrt() * eps, mean, var

    def kl(self):
        q = Normal(self.w_mu, (0.5 * self.w_logsig2).exp())
        return kl_divergence(q, self.prior).sum()


l1, l2 = LRTLinear(1, 20, 0), LRTLinear(20, 1, 1)
params = list(l1.parameters()) + list(l2.parameters())
x = torch.linspace(-3, 3, 48).unsqueeze(1)
y = torch.sin(x) + 0.2 * torch.cos(5 * x)
eps1 = torch.sin(torch.arange(48 * 20, dtype=torch.float32).reshape(48, 20))
eps2 = torch.cos(torch.arange(48, dtype=torch.float32).reshape(48, 1) * 2.1)
opt = torch.optim.Adam(params, lr=0.02)
for step in range(60):
    h, _, _ = l1(x, eps1)
    out, mean, var = l2(F.relu(h), eps2)
    nll = F.gaussian_nll_loss(out, y, torch.full_like(y, 0.05), reduction="sum")
    kl = l1.kl() + l2.kl()
    loss = nll + kl / 10
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 12 == 0 or step == 59:
        print(f"step {step:2d} nll {nll.item():.3f} kl {kl.item():.3f} var {var.mean().item():.6f}")
print(l1.w_logsig2.grad.shape, l2.w_mu.grad.abs().sum() > 0)
with torch.no_grad():
    xs = torch.tensor([[-4.0], [0.0], [4.0]])
    h_mean = F.linear(xs, l1.w_mu, l1.bias)
    _, m, v = l2(F.relu(h_mean), torch.zeros(3, 1))
    print(m.squeeze(1).round(decimals=3), v.squeeze(1).sqrt().round(decimals=4))
print(F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.ones(3)), F.gaussian_nll_loss(torch.zeros(3), torch.ones(3), torch.ones(3), full=True))
print(kl_divergence(Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.1])), Normal(0.0, 1.0)))
