# Bayes by Backprop: weight mu/rho parameters, sigma = softplus(rho), reparameterized weights
# through F.linear, closed-form Gaussian KL by hand and via kl_divergence, ELBO = NLL + KL / N.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence


class BayesLinear(nn.Module):
    def __init__(self, n_in, n_out, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(n_out, n_in))
        self.w_rho = nn.Parameter(torch.empty(n_out, n_in))
        self.b_mu = nn.Parameter(torch.empty(n_out))
        self.b_rho = nn.Parameter(torch.empty(n_out))
        self.prior_sigma = prior_sigma
        self.eps_w = None
        self.eps_b = None

    def sigmas(self):
        return F.softplus(self.w_rho), torch.log1p(torch.exp(self.b_rho))

    def forward(self, x):
        w_sigma, b_sigma = self.sigmas()
        w = self.w_mu + w_sigma * self.eps_w
        b = self.b_mu + b_sigma * self.eps_b
        return F.linear(x, w, b)

    def kl_by_hand(self):
        total = 0.0
        for mu, sigma in zip((self.w_mu, self.b_mu), self.sigmas()):
            p = self.prior_sigma
            kl = torch.log(p / sigma) + (sigma ** 2 + mu ** 2) / (2 * p ** 2) - 0.5
            total = total + kl.sum()
        return total

    def kl_dist(self):
        total = 0.0
        for mu, sigma in zip((self.w_mu, self.b_mu), self.sigmas()):
            q = Normal(mu, sigma)
            prior = Normal(torch.zeros_like(mu), self.prior_sigma * torch.ones_like(mu))
            total = total + kl_divergence(q, prior).sum()
        return total


torch.manual_seed(0)
layer1 = BayesLinear(2, 6)
layer2 = BayesLinear(6, 3)
with torch.no_grad():
    for i, p in enumerate(layer1.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape))
    for i, p in enumerate(layer2.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape))
    layer1.w_rho.sub_(3.0); layer1.b_rho.sub_(3.0)
    layer2.w_rho.sub_(3.0); layer2.b_rho.sub_(3.0)

# fixed "noise" so the run does not depend on the RNG
def fixed_eps(shape, k):
    n = math.prod(shape)
    return torch.sin(torch.arange(n, dtype=torch.float32) * 1.7 + k).reshape(shape)

x = torch.stack([torch.linspace(-1, 1, 30), torch.cos(torch.linspace(0, 3, 30))], dim=1)
y = (torch.arange(30) % 3)
N = x.shape[0]

print("kl hand  ", f"{layer1.kl_by_hand().item():.4f}", f"{layer2.kl_by_hand().item():.4f}")
print("kl dists ", f"{layer1.kl_dist().item():.4f}", f"{layer2.kl_dist().item():.4f}")
print("allclose", torch.allclose(layer1.kl_by_hand(), layer1.kl_dist(), atol=1e-5))

# the seeded generator yields the same eps twice (values themselves are RNG specific)
g1 = torch.Generator().manual_seed(123)
g2 = torch.Generator().manual_seed(123)
e1 = torch.randn(layer1.w_mu.shape, generator=g1)
e2 = torch.randn(layer1.w_mu.shape, generator=g2)
print("same eps", torch.equal(e1, e2), e1.shape, e1.dtype, g1.initial_seed())

params = list(layer1.parameters()) + list(layer2.parameters())
opt = torch.optim.Adam(params, lr=0.05)
for step in range(25):
    layer1.eps_w, layer1.eps_b = fixed_eps(layer1.w_mu.shape, step), fixed_eps(layer1.b_mu.shape, step + 0.5)
    layer2.eps_w, layer2.eps_b = fixed_eps(layer2.w_mu.shape, -step), fixed_eps(layer2.b_mu.shape, step * 0.3)
    logits = layer2(torch.tanh(layer1(x)))
    nll = F.cross_entropy(logits, y, reduction="sum")
    kl = layer1.kl_dist() + layer2.kl_dist()
    elbo_loss = nll + kl / N
    opt.zero_grad()
    elbo_loss.backward()
    opt.step()
    if step % 6 == 0:
        print(f"step {step:2d} nll {nll.item():.3f} kl {kl.item():.3f} loss {elbo_loss.item():.3f}")

print("grad_fn", elbo_loss.grad_fn.name(), kl.grad_fn.name())
print("rho grad", layer1.w_rho.grad.shape, layer1.w_rho.grad.abs().sum() > 0)
w_sigma, b_sigma = layer2.sigmas()
print("sigma w", w_sigma.detach().round(decimals=3))
print("sigma b", b_sigma.detach().round(decimals=3))
print(sorted(n for n, _ in layer1.named_parameters()))
