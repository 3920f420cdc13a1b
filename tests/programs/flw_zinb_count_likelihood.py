# Count likelihoods as in scVI-style models: negative binomial parameterized by mean and inverse
# dispersion written with lgamma/softplus, the zero-inflated version via torch.where/logsumexp,
# checked against torch.distributions.NegativeBinomial / Poisson, and a Poisson mixture.
import torch
import torch.nn.functional as F
from torch.distributions import NegativeBinomial, Poisson, MixtureSameFamily, Categorical

eps = 1e-8


def log_nb(x, mu, theta):
    log_theta_mu = torch.log(theta + mu + eps)
    return (theta * (torch.log(theta + eps) - log_theta_mu) + x * (torch.log(mu + eps) - log_theta_mu)
            + torch.lgamma(x + theta) - torch.lgamma(theta) - torch.lgamma(x + 1))


def log_zinb(x, mu, theta, pi_logits):
    softplus_pi = F.softplus(-pi_logits)
    log_theta_eps = torch.log(theta + eps)
    log_theta_mu_eps = torch.log(theta + mu + eps)
    pi_theta_log = -pi_logits + theta * (log_theta_eps - log_theta_mu_eps)
    case_zero = F.softplus(pi_theta_log) - softplus_pi
    case_non_zero = -softplus_pi - pi_logits + log_nb(x, mu, theta) + pi_logits
    return torch.where(x < eps, case_zero, case_non_zero)


x = torch.tensor([[0.0, 1.0, 3.0, 0.0, 12.0], [2.0, 0.0, 0.0, 5.0, 1.0]])
mu = torch.tensor([[0.5, 1.5, 2.0, 0.1, 9.0], [1.0, 0.3, 0.2, 4.0, 2.0]])
theta = torch.tensor([2.0, 0.5, 1.0, 3.0, 10.0])
nb = NegativeBinomial(total_count=theta, logits=torch.log(mu + eps) - torch.log(theta + eps))
print(log_nb(x, mu, theta))
print(nb.log_prob(x))
print(torch.allclose(log_nb(x, mu, theta), nb.log_prob(x), atol=1e-4), nb.mean.round(decimals=3))
pi_logits = torch.tensor([-1.0, 0.0, 1.0, 2.0, -3.0])
print(log_zinb(x, mu, theta, pi_logits))
pi = torch.sigmoid(pi_logits)
manual = torch.where(x == 0, torch.logaddexp(torch.log(pi), torch.log1p(-pi) + nb.log_prob(x)), torch.log1p(-pi) + nb.log_prob(x))
print(torch.allclose(manual, log_zinb(x, mu, theta, pi_logits), atol=1e-4))
print(Poisson(mu).log_prob(x), Poisson(torch.tensor(0.0)).log_prob(torch.tensor([0.0, 1.0])))

raw_mu = torch.zeros(5, requires_grad=True)
raw_theta = torch.zeros(5, requires_grad=True)
raw_pi = torch.zeros(5, requires_grad=True)
counts = torch.tensor([[0, 1, 3, 0, 12], [2, 0, 0, 5, 1], [0, 0, 4, 1, 8], [1, 0, 2, 0, 15]], dtype=torch.float32)
opt = torch.optim.Adam([raw_mu, raw_theta, raw_pi], lr=0.05)
for step in range(60):
    ll = log_zinb(counts, F.softplus(raw_mu), F.softplus(raw_theta), raw_pi)
    loss = -ll.sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 12 == 0 or step == 59:
        print(f"step {step:2d} nll {loss.item():.4f}")
print(F.softplus(raw_mu).detach().round(decimals=2), torch.sigmoid(raw_pi).detach().round(decimals=2))

mix = MixtureSameFamily(Categorical(logits=torch.tensor([0.0, 1.0])), Poisson(torch.tensor([0.5, 6.0])))
k = torch.arange(0.0, 10.0)
print(mix.log_prob(k).exp().round(decimals=4), mix.mean, mix.variance)
print(NegativeBinomial(3.0, probs=torch.tensor(0.4)).log_prob(k[:4]), NegativeBinomial(3.0, probs=torch.tensor(0.4)).mode)
