# Blundell et al. scale-mixture prior pi*N(0, s1^2) + (1-pi)*N(0, s2^2), evaluated with
# logsumexp by hand and with MixtureSameFamily; Monte Carlo ELBO (log q - log p - log lik)
# from fixed noise, as in the "Weight Uncertainty in Neural Networks" reproductions.
import math
import torch
import torch.nn.functional as F
from torch.distributions import Normal, Categorical, MixtureSameFamily

PI, S1, S2 = 0.5, math.exp(0), math.exp(-6)


def log_prior_by_hand(w):
    lp1 = Normal(0.0, S1).log_prob(w) + math.log(PI)
    lp2 = Normal(0.0, S2).log_prob(w) + math.log(1 - PI)
    return torch.logsumexp(torch.stack([lp1, lp2]), dim=0).sum()


mixture = MixtureSameFamily(Categorical(probs=torch.tensor([PI, 1 - PI])),
                            Normal(torch.zeros(2), torch.tensor([S1, S2])))
print(mixture.batch_shape, mixture.event_shape)
print("mixture mean/var", mixture.mean, f"{mixture.variance.item():.6f}")

w_test = torch.tensor([-1.0, -0.01, 0.0, 0.001, 0.5])
print("by hand", f"{log_prior_by_hand(w_test).item():.4f}")
print("mixture", f"{mixture.log_prob(w_test).sum().item():.4f}")
print("per weight", mixture.log_prob(w_test))

n_in, n_out, N = 3, 2, 24
mu = torch.zeros(n_out, n_in, requires_grad=True)
rho = torch.full((n_out, n_in), -3.0, requires_grad=True)
X = torch.stack([torch.linspace(-1, 1, N), torch.cos(torch.linspace(0, 4, N)), torch.ones(N)], dim=1)
Y = (torch.arange(N) % 2)
opt = torch.optim.Adam([mu, rho], lr=0.05)

n_samples = 3
for step in range(30):
    total = 0.0
    for s in range(n_samples):
        eps = torch.sin(torch.arange(mu.numel(), dtype=torch.float32) * 0.77 + 3 * s + step).reshape(mu.shape)
        sigma = torch.log1p(torch.exp(rho))
        w = mu + sigma * eps
        log_q = Normal(mu, sigma).log_prob(w).sum()
        log_p = mixture.log_prob(w).sum()
        log_lik = -F.cross_entropy(X @ w.T, Y, reduction="sum")
        total = total + (log_q - log_p) / N - log_lik / N
    loss = total / n_samples
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")

print("mu", mu.detach().round(decimals=2))
print("sigma", F.softplus(rho).detach().round(decimals=2))
print("rho grad finite", torch.isfinite(rho.grad).all().item(), rho.grad.shape)
print("log prior at mean", f"{mixture.log_prob(mu.detach()).sum().item():.3f}")
print("components", mixture.component_distribution, mixture.mixture_distribution)
