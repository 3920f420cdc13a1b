# Conv VAE with a Gaussian decoder (Independent Normal likelihood), importance-weighted bound
# (IWAE, Burda et al.) with K fixed eps samples and logsumexp, plus ELBO via distributions.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent, kl_divergence


class ConvVAE(nn.Module):
    def __init__(self, z_dim=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Flatten())
        self.fc = nn.Linear(4 * 4 * 4, 2 * z_dim)
        self.dec_fc = nn.Linear(z_dim, 4 * 4 * 4)
        self.dec = nn.ConvTranspose2d(4, 1, 4, stride=2, padding=1)
        self.log_sigma_x = nn.Parameter(torch.tensor(-0.5))

    def encode(self, x):
        mu, log_var = self.fc(self.enc(x)).chunk(2, dim=-1)
        return Independent(Normal(mu, torch.exp(0.5 * log_var)), 1)

    def decode(self, z):
        h = self.dec_fc(z).view(-1, 4, 4, 4)
        mean = self.dec(F.relu(h))
        return Independent(Normal(mean, self.log_sigma_x.exp()), 3)


model = ConvVAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.25 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view(p.shape))
x = torch.sin(torch.arange(3 * 64, dtype=torch.float32).view(3, 1, 8, 8) * 0.3)
K = 5
eps = torch.sin(torch.arange(K * 3 * 4, dtype=torch.float32).view(K, 3, 4) * 1.7)

q = model.encode(x)
print(q)
print(q.batch_shape, q.event_shape, q.base_dist.batch_shape)
prior = Independent(Normal(torch.zeros(4), torch.ones(4)), 1)
z = q.mean + q.stddev * eps
print(z.shape)
px = model.decode(z.view(K * 3, 4))
print(px.batch_shape, px.event_shape)
log_px = px.log_prob(x.repeat(K, 1, 1, 1)).view(K, 3)
log_w = log_px + prior.log_prob(z) - q.log_prob(z)
print(log_w.shape)
iwae = (torch.logsumexp(log_w, dim=0) - math.log(K)).mean()
elbo = (log_px[0] - kl_divergence(q, prior)).mean()
print(f"iwae {iwae.item():.3f} elbo {elbo.item():.3f} iwae>=elbo-ish {iwae.item() >= log_w.mean().item()}")

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(20):
    q = model.encode(x)
    z = q.mean + q.stddev * eps
    px = model.decode(z.view(K * 3, 4))
    log_w = px.log_prob(x.repeat(K, 1, 1, 1)).view(K, 3) + prior.log_prob(z) - q.log_prob(z)
    w_tilde = F.softmax(log_w, dim=0).detach()
    loss = -(w_tilde * log_w).sum(0).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.3f} sigma_x {model.log_sigma_x.exp().item():.4f}")
print(torch.allclose(w_tilde.sum(0), torch.ones(3)), w_tilde.shape)
print(model.dec.weight.grad.shape, model.log_sigma_x.grad is not None)
print(Normal(torch.zeros(2), torch.ones(2)).log_prob(torch.tensor([0.0, 1.0])), -0.5 * math.log(2 * math.pi))
