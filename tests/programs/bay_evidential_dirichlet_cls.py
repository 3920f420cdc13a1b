# Evidential classification (Sensoy et al. 2018): evidence = softplus(logits), alpha = evidence + 1,
# expected MSE loss under Dir(alpha), KL(Dir(alpha_tilde) || Dir(1)) written with lgamma/digamma and
# checked against kl_divergence(Dirichlet, Dirichlet); annealed regulariser, uncertainty u = K / S.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Dirichlet, kl_divergence

K = 3


def kl_dir_uniform(alpha):
    ones = torch.ones_like(alpha)
    S = alpha.sum(-1, keepdim=True)
    first = torch.lgamma(S) - torch.lgamma(alpha).sum(-1, keepdim=True) - torch.lgamma(ones.sum(-1, keepdim=True))
    second = ((alpha - ones) * (torch.digamma(alpha) - torch.digamma(S))).sum(-1, keepdim=True)
    return (first + second).squeeze(-1)


def edl_mse(alpha, y_onehot):
    S = alpha.sum(-1, keepdim=True)
    p = alpha / S
    err = (y_onehot - p).pow(2).sum(-1)
    var = (p * (1 - p) / (S + 1)).sum(-1)
    return err + var


alpha_test = torch.tensor([[1.0, 1.0, 1.0], [5.0, 1.0, 2.0], [0.5, 3.0, 10.0]])
print("kl by hand", kl_dir_uniform(alpha_test))
print("kl library", kl_divergence(Dirichlet(alpha_test), Dirichlet(torch.ones(K))))

t = torch.linspace(0, 6.28, 45)
x = torch.stack([torch.cos(t), torch.sin(t), torch.cos(2 * t)], 1)
y = torch.arange(45) % K
y1h = F.one_hot(y, K).float()

net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, K))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + i).reshape(p.shape))
opt = torch.optim.Adam(net.parameters(), lr=0.02)
epochs = 30
for epoch in range(epochs):
    evidence = F.softplus(net(x))
    alpha = evidence + 1
    anneal = min(1.0, epoch / 10)
    alpha_tilde = y1h + (1 - y1h) * alpha
    loss = (edl_mse(alpha, y1h) + anneal * kl_dir_uniform(alpha_tilde)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 6 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f} anneal {anneal:.1f}")

with torch.no_grad():
    alpha = F.softplus(net(x)) + 1
    S = alpha.sum(-1)
    u = K / S
    probs = alpha / S.unsqueeze(-1)
acc = (probs.argmax(-1) == y).float().mean()
print("acc", f"{acc.item():.3f}", "mean u", f"{u.mean().item():.3f}")
print("u correct < u wrong?", u[probs.argmax(-1) == y].mean().item() <= u.max().item())
d = Dirichlet(alpha[:4])
print("dirichlet mean", d.mean.round(decimals=3))
print("entropy", d.entropy().round(decimals=3))
print("batch/event", d.batch_shape, d.event_shape, d.concentration.shape)
print(torch.digamma(torch.tensor([1.0, 2.0, 0.5])), torch.lgamma(torch.tensor([3.0])))
