# Gaussian-mixture VAE with an enumerated discrete latent (as in GMVAE / semi-supervised VAE
# "M2" code): q(y|x) Categorical, per-class Gaussian q(z|x,y) with fixed eps, enumerate_support
# to sum the ELBO over classes, KL(q(y)||p(y)) via kl_divergence, and logsumexp marginals.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Normal, Independent, Bernoulli, kl_divergence, OneHotCategorical

K, Z, X = 3, 2, 8


class GMVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.qy = nn.Linear(X, K)
        self.qz = nn.Linear(X + K, 2 * Z)
        self.pz = nn.Linear(K, 2 * Z)
        self.px = nn.Linear(Z, X)

    def forward(self, x, eps):
        qy = Categorical(logits=self.qy(x))
        ys = qy.enumerate_support()                         # (K, B)
        onehot = F.one_hot(ys, K).float()                   # (K, B, K)
        h = self.qz(torch.cat([x.expand(K, -1, -1), onehot], -1))
        mu, logvar = h.chunk(2, -1)
        qz = Independent(Normal(mu, torch.exp(0.5 * logvar)), 1)
        z = mu + torch.exp(0.5 * logvar) * eps
        pmu, plogvar = self.pz(onehot).chunk(2, -1)
        pz = Independent(Normal(pmu, torch.exp(0.5 * plogvar)), 1)
        px = Independent(Bernoulli(logits=self.px(z)), 1)
        per_class = px.log_prob(x.expand(K, -1, -1)) + pz.log_prob(z) - qz.log_prob(z)   # (K, B)
        elbo = (qy.probs.T * per_class).sum(0) - kl_divergence(qy, Categorical(logits=torch.zeros(K)))
        return elbo, qy, per_class


model = GMVAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).reshape(p.shape))
n = 12
x = (torch.sin(torch.arange(n * X, dtype=torch.float32).reshape(n, X) * 0.9 + torch.arange(n).unsqueeze(1) % 3) > 0).float()
eps = torch.cos(torch.arange(K * n * Z, dtype=torch.float32).reshape(K, n, Z) * 1.3)
elbo, qy, per_class = model(x, eps)
print(qy.enumerate_support().shape, qy.enumerate_support(expand=False).shape, per_class.shape)
print(elbo[:4])
print(torch.logsumexp(per_class + qy.logits.T, 0)[:4])
oh = OneHotCategorical(logits=qy.logits)
print(oh.enumerate_support().shape, oh.log_prob(oh.enumerate_support())[:, :3])
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(40):
    elbo, qy, _ = model(x, eps)
    loss = -elbo.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 39:
        print(f"step {step:2d} -elbo {loss.item():.4f} H(q(y)) {qy.entropy().mean().item():.4f}")
print(qy.probs.argmax(-1))
print(kl_divergence(qy, Categorical(probs=torch.full((K,), 1.0 / K)))[:4])
