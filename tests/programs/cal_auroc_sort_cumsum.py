# OOD detection metrics by hand: AUROC / AUPR from sorted scores with cumsum (trapezoid rule),
# FPR at 95% TPR, using max-softmax-probability and energy scores.
import torch
import torch.nn.functional as F

x = torch.arange(30, dtype=torch.float32)
in_logits = torch.stack([torch.sin(x * 0.4) * 4, torch.cos(x * 0.3) * 2, torch.sin(x * 0.9)], 1)
out_logits = torch.stack([torch.sin(x * 0.5) * 0.8, torch.cos(x * 0.7) * 0.9, torch.cos(x * 0.2) * 0.5], 1)


def msp(l):
    return F.softmax(l, 1).max(1).values


def energy(l, T=1.0):
    return T * torch.logsumexp(l / T, dim=1)


def auroc(pos, neg):
    scores = torch.cat([pos, neg])
    target = torch.cat([torch.ones_like(pos), torch.zeros_like(neg)])
    order = torch.argsort(scores, descending=True, stable=True)
    t = target[order]
    tps = torch.cumsum(t, 0)
    fps = torch.cumsum(1 - t, 0)
    tpr = torch.cat([torch.zeros(1), tps / tps[-1]])
    fpr = torch.cat([torch.zeros(1), fps / fps[-1]])
    return torch.trapz(tpr, fpr), tpr, fpr


def aupr(pos, neg):
    scores = torch.cat([pos, neg])
    target = torch.cat([torch.ones_like(pos), torch.zeros_like(neg)])
    t = target[scores.argsort(descending=True, stable=True)]
    tps = t.cumsum(0)
    precision = tps / torch.arange(1, len(t) + 1)
    recall = tps / t.sum()
    d_recall = torch.diff(recall, prepend=torch.zeros(1))
    return (precision * d_recall).sum()


for name, fn in [("MSP", msp), ("energy", energy)]:
    a, tpr, fpr = auroc(fn(in_logits), fn(out_logits))
    idx = torch.searchsorted(tpr, torch.tensor(0.95))
    print(f"{name}: AUROC={a.item():.4f} AUPR={aupr(fn(in_logits), fn(out_logits)).item():.4f} FPR95={fpr[idx].item():.4f}")

# rank-statistic (Mann-Whitney) AUROC with ties averaged
pos, neg = msp(in_logits), msp(out_logits)
cmp = (pos[:, None] > neg[None, :]).float() + 0.5 * (pos[:, None] == neg[None, :]).float()
print("mann-whitney:", round(cmp.mean().item(), 4))
print(torch.trapezoid(torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 0.2, 1.0])))
print(torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0])))
vals, ids = torch.sort(torch.tensor([0.3, 0.1, 0.3, 0.2]), descending=True, stable=True)
print(vals, ids)
print(torch.unique_consecutive(vals, return_counts=True))
print(torch.cummax(torch.tensor([0.1, 0.5, 0.2, 0.7]), 0))
