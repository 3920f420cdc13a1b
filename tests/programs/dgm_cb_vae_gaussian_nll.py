# VAE likelihood choices compared on the same decoder output (Loaiza-Ganem & Cunningham's
# continuous Bernoulli vs Bernoulli BCE vs Gaussian with learned variance via F.gaussian_nll_loss
# and Normal.log_prob), plus analytic vs sampled KL with a fixed eps and a KL-annealing schedule.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import ContinuousBernoulli, Bernoulli, Normal, Independent, kl_divergence

x = (torch.sin(torch.arange(5 * 8, dtype=torch.float32).view(5, 8) * 0.7) + 1) / 2
logits = torch.cos(torch.arange(5 * 8, dtype=torch.float32).view(5, 8) * 0.3) * 2
cb = ContinuousBernoulli(logits=logits)
print(cb)
print(cb.batch_shape, cb.event_shape, cb.support)
print(f"cb log_prob {cb.log_prob(x).sum().item():.4f}")
print(f"bce {-F.binary_cross_entropy_with_logits(logits, x, reduction='sum').item():.4f}")
print(f"bern log_prob (non-binary x, no validation) {Bernoulli(logits=logits, validate_args=False).log_prob(x).sum().item():.4f}")
print(cb.mean[0])
print(cb.variance[0])
print(cb.entropy()[0])
print(cb.probs[0, :4], cb.sample((2,)).shape, cb.rsample().shape, cb.has_rsample)
print(cb.cdf(torch.full((5, 8), 0.5))[0, :4])
print(cb.icdf(torch.full((5, 8), 0.5))[0, :4])
print(ContinuousBernoulli(probs=torch.tensor([0.5, 0.499, 0.2])).log_prob(torch.tensor([0.3, 0.3, 0.3])))

mean = torch.sigmoid(logits)
log_var = torch.linspace(-2, 1, 8).expand(5, 8)
g1 = F.gaussian_nll_loss(mean, x, log_var.exp(), full=True, reduction="sum")
g2 = -Normal(mean, (0.5 * log_var).exp()).log_prob(x).sum()
print(f"{g1.item():.4f} {g2.item():.4f}")
print(F.gaussian_nll_loss(mean, x, log_var.exp(), reduction="none").shape)
print(f"mse {F.mse_loss(mean, x, reduction='sum').item():.4f}")

enc_mu = torch.tanh(logits[:, :3])
enc_logvar = torch.sin(logits[:, 3:6]) - 1
q = Independent(Normal(enc_mu, torch.exp(0.5 * enc_logvar)), 1)
p = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
kl_closed = kl_divergence(q, p)
eps = torch.cos(torch.arange(200 * 5 * 3, dtype=torch.float32).view(200, 5, 3) * 0.917)
z = enc_mu + eps * torch.exp(0.5 * enc_logvar)
kl_mc = (q.log_prob(z) - p.log_prob(z)).mean(0)
print(kl_closed)
print(z.shape, kl_mc.shape)
print(-0.5 * torch.sum(1 + enc_logvar - enc_mu ** 2 - enc_logvar.exp(), dim=1))

def kl_weight(step, n_cycle_steps=10, ratio=0.5):
    tau = (step % n_cycle_steps) / n_cycle_steps
    return min(1.0, tau / ratio)

print([round(kl_weight(s), 2) for s in range(0, 25, 2)])
print([round(1 / (1 + math.exp(-(s - 10) / 2)), 3) for s in range(0, 25, 5)])
