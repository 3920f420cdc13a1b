# Particle-based Bayesian inference as in SVGD / HMC tutorials: Stein variational gradient
# descent with an RBF kernel (median bandwidth) on a Gaussian-mixture target, and a few leapfrog
# HMC steps with fixed momenta and Metropolis acceptance computed from the Hamiltonian.
import math
import torch
from torch.distributions import MultivariateNormal, MixtureSameFamily, Categorical

target = MixtureSameFamily(
    Categorical(torch.tensor([0.3, 0.7])),
    MultivariateNormal(torch.tensor([[-2.0, 0.0], [2.0, 1.0]]), torch.stack([torch.eye(2) * 0.5, torch.tensor([[1.0, 0.3], [0.3, 0.6]])])))


def grad_logp(x):
    x = x.detach().requires_grad_(True)
    lp = target.log_prob(x).sum()
    return torch.autograd.grad(lp, x)[0]


def rbf_kernel(x):
    d2 = torch.cdist(x, x) ** 2
    h = torch.median(d2) / math.log(x.shape[0] + 1)
    K = torch.exp(-d2 / h)
    grad_K = -(2.0 / h) * (K.sum(1, keepdim=True) * x - K @ x)
    return K, grad_K


n = 40
ang = torch.linspace(0, 2 * math.pi, n + 1)[:-1]
particles = torch.stack([torch.cos(ang), torch.sin(2 * ang)], 1)
for it in range(60):
    K, gK = rbf_kernel(particles)
    phi = (K @ grad_logp(particles) + gK) / n
    particles = particles + 0.1 * phi
    if it % 15 == 0 or it == 59:
        print(f"iter {it:2d} mean logp {target.log_prob(particles).mean().item():.4f}")
print(particles.mean(0).round(decimals=3), (particles[:, 0] > 0).float().mean())
print(torch.median(torch.tensor([3.0, 1.0, 2.0, 4.0])), torch.median(torch.cdist(particles, particles) ** 2) > 0)


def hamiltonian(q, p):
    return -target.log_prob(q) + 0.5 * (p ** 2).sum(-1)


def leapfrog(q, p, eps, L):
    p = p + 0.5 * eps * grad_logp(q)
    for _ in range(L - 1):
        q = q + eps * p
        p = p + eps * grad_logp(q)
    q = q + eps * p
    p = p + 0.5 * eps * grad_logp(q)
    return q, -p


q = torch.tensor([[0.0, 0.0], [1.0, -1.0], [-1.0, 1.0]])
accepted = 0
for i in range(10):
    p0 = torch.stack([torch.tensor([math.sin(i + k), math.cos(2 * i + k)]) for k in range(3)])
    q_new, p_new = leapfrog(q, p0, 0.15, 8)
    log_accept = hamiltonian(q, p0) - hamiltonian(q_new, p_new)
    u = torch.tensor([0.3, 0.6, 0.9])
    accept = torch.log(u) < log_accept
    q = torch.where(accept.unsqueeze(1), q_new, q)
    accepted += int(accept.sum())
    if i % 3 == 0:
        print(i, accept.tolist(), log_accept.clamp(max=0).exp().round(decimals=3))
print("accepted", accepted, q.round(decimals=3))
