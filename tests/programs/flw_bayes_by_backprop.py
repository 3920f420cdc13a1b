# Bayes-by-backprop (Blundell et al. 2015) as in BNN tutorials: a BayesLinear layer with mu/rho
# parameters, sigma = softplus(rho), reparameterized weights from fixed eps buffers, a
# scale-mixture prior log-prob via logsumexp, and an ELBO with kl_divergence against Normal prior.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence


class ScaleMixturePrior:
    def __init__(self, pi=0.5, s1=1.0, s2=math.exp(-3)):
        self.pi = pi
        self.n1 = Normal(0.0, s1)
        self.n2 = Normal(0.0, s2)

    def log_prob(self, w):
        lp = torch.stack([math.log(self.pi) + self.n1.log_prob(w), math.log(1 - self.pi) + self.n2.log_prob(w)])
        return torch.logsumexp(lp, dim=0).sum()


class BayesLinear(nn.Module):
    def __init__(self, fin, fout, k):
        super().__init__()
        ar = torch.arange(fin * fout, dtype=torch.float32).reshape(fout, fin)
        self.w_mu = nn.Parameter(0.2 * torch.sin(ar + k))
        self.w_rho = nn.Parameter(torch.full((fout, fin), -3.0))
        self.b_mu = nn.Parameter(torch.zeros(fout))
        self.b_rho = nn.Parameter(torch.full((fout,), -3.0))
        self.register_buffer("eps_w", torch.cos(ar * 1.3 + k))
        self.register_buffer("eps_b", torch.sin(torch.arange(fout, dtype=torch.float32) * 0.9 + k))
        self.prior = ScaleMixturePrior()

    def forward(self, x):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = F.softplus(self.b_rho)
        w = self.w_mu + w_sigma * self.eps_w
        b = self.b_mu + b_sigma * self.eps_b
        q_w = Normal(self.w_mu, w_sigma)
        q_b = Normal(self.b_mu, b_sigma)
        self.log_q = q_w.log_prob(w).sum() + q_b.log_prob(b).sum()
        self.log_p = self.prior.log_prob(w) + self.prior.log_prob(b)
        self.kl = kl_divergence(q_w, Normal(torch.zeros_like(w), torch.ones_like(w))).sum() + \
            kl_divergence(q_b, Normal(0.0, 1.0)).sum()
        return F.linear(x, w, b)


class BNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = BayesLinear(1, 16, 0)
        self.l2 = BayesLinear(16, 1, 1)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))

    def complexity(self):
        return sum(m.log_q - m.log_p for m in (self.l1, self.l2))


net = BNN()
x = torch.linspace(-2, 2, 40).unsqueeze(1)
y = torch.sin(2 * x) + 0.1 * torch.cos(9 * x)
print(net.l1.w_mu.shape, net.l1.eps_w.shape, [n for n, _ in net.named_parameters()][:4])
opt = torch.optim.Adam(net.parameters(), lr=0.01)
n_batches = 4
for epoch in range(25):
    total = 0.0
    for b in range(n_batches):
        xb, yb = x[b::n_batches], y[b::n_batches]
        out = net(xb)
        nll = -Normal(out, 0.1).log_prob(yb).sum()
        loss = net.complexity() / n_batches + nll
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 5 == 0 or epoch == 24:
        kl = (net.l1.kl + net.l2.kl).item()
        print(f"epoch {epoch:2d} loss {total / n_batches:.3f} analytic_kl {kl:.3f}")

print(F.softplus(net.l1.w_rho).mean().item() > 0)
print(net.l2.w_rho.grad.shape, net.l2.b_rho.grad.shape)
q = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(kl_divergence(q, Normal(0.0, 1.0)))
print(ScaleMixturePrior().log_prob(torch.tensor([0.0, 0.1, 1.0])))
