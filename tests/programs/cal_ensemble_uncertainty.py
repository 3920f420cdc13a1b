# Deep ensemble of small MLPs with deterministic weights: average softmax, predictive entropy,
# expected entropy, mutual information (BALD), Brier score and NLL of the ensemble.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


def make_member(k):
    m = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Dropout(p=0.0), nn.Linear(8, 3))
    with torch.no_grad():
        for j, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) * (0.7 + 0.1 * k) + j))
    return m


ensemble = nn.ModuleList([make_member(k) for k in range(5)])
t = torch.linspace(-2, 2, 12)
x = torch.stack([t, torch.cos(t * 1.3)], 1)
y = torch.arange(12) % 3

ensemble.eval()
with torch.no_grad():
    member_probs = torch.stack([F.softmax(m(x), dim=-1) for m in ensemble])  # [M, N, C]
print(member_probs.shape)
mean_probs = member_probs.mean(0)
pred_entropy = -(mean_probs * torch.log(mean_probs + 1e-12)).sum(-1)
exp_entropy = Categorical(probs=member_probs).entropy().mean(0)
mi = pred_entropy - exp_entropy
print("predictive entropy:", pred_entropy.round(decimals=4))
print("expected entropy:", exp_entropy.round(decimals=4))
print("mutual info:", mi.round(decimals=4))
print("max entropy:", round(Categorical(logits=torch.zeros(3)).entropy().item(), 4))

onehot = F.one_hot(y, num_classes=3).float()
brier = ((mean_probs - onehot) ** 2).sum(-1).mean()
nll = F.nll_loss(torch.log(mean_probs), y)
print(f"Brier {brier.item():.4f}  NLL {nll.item():.4f}")
acc = (mean_probs.argmax(-1) == y).float().mean()
print(f"acc {acc.item():.3f}")
# per-member disagreement
votes = member_probs.argmax(-1)
mode, _ = torch.mode(votes, dim=0)
agree = (votes == mode).float().mean(0)
print("vote agreement:", agree)
dist = Categorical(probs=mean_probs)
print(dist.batch_shape, dist.event_shape, dist.log_prob(y).round(decimals=3))
print(dist.probs.sum(-1).allclose(torch.ones(12)))
lse = torch.logsumexp(torch.stack([F.log_softmax(m(x), -1) for m in ensemble]), 0) - torch.log(torch.tensor(5.0))
print(torch.allclose(lse.exp(), mean_probs, atol=1e-6))
ranking = pred_entropy.argsort(descending=True)
print("most uncertain:", ranking[:4].tolist())
