# MLP VAE on tiny binary "images" (PyTorch examples / beta-VAE style): reparameterization with a
# fixed eps tensor, analytic KL vs torch.distributions.kl_divergence, Bernoulli likelihood, beta.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Bernoulli, Independent, kl_divergence


class VAE(nn.Module):
    def __init__(self, d_in=12, h=16, z=3):
        super().__init__()
        self.fc1 = nn.Linear(d_in, h)
        self.fc_mu = nn.Linear(h, z)
        self.fc_logvar = nn.Linear(h, z)
        self.fc3 = nn.Linear(z, h)
        self.fc4 = nn.Linear(h, d_in)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.fc_mu(h), self.fc_logvar(h)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        return self.fc4(F.relu(self.fc3(z)))

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


torch.manual_seed(0)
model = VAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view(p.shape))

x = (torch.sin(torch.arange(8 * 12, dtype=torch.float32).view(8, 12) * 0.9) > 0).float()
eps = 0.5 * torch.cos(torch.arange(8 * 3, dtype=torch.float32).view(8, 3))
print(x[:2])

logits, mu, logvar = model(x, eps)
bce = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
bce2 = F.binary_cross_entropy(torch.sigmoid(logits), x, reduction="sum")
kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
print(f"bce {bce.item():.4f} bce(sigmoid) {bce2.item():.4f} kld {kld.item():.4f}")

q = Normal(mu, torch.exp(0.5 * logvar))
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl = kl_divergence(q, p)
print(kl.shape, f"{kl.sum().item():.4f}")
qi, pi = Independent(q, 1), Independent(p, 1)
kli = kl_divergence(qi, pi)
print(kli.shape, kli)
lik = Independent(Bernoulli(logits=logits), 1)
print(lik.batch_shape, lik.event_shape)
print(lik.log_prob(x))
z = q.rsample()
print(z.shape, z.requires_grad, z.grad_fn is not None)
mc_kl = (q.log_prob(mu + eps * q.scale) - p.log_prob(mu + eps * q.scale)).sum()
print(f"mc kl {mc_kl.item():.4f}")

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for beta in (1.0, 4.0):
    with torch.no_grad():
        for i, p_ in enumerate(model.parameters()):
            p_.copy_(0.3 * torch.sin(torch.arange(p_.numel(), dtype=torch.float32) * 0.7 + i).view(p_.shape))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(30):
        logits, mu, logvar = model(x, eps)
        rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.size(0)
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
        loss = rec + beta * kl
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0 or step == 29:
            print(f"beta={beta} step {step:2d} loss {loss.item():.4f} rec {rec.item():.4f} kl {kl.item():.4f}")
    print(model.fc_mu.weight.grad.norm().item() > 0)
print(list(model.state_dict().keys()))
