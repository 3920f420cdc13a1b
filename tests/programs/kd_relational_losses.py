# Relational / similarity-preserving distillation (RKD distance + angle with Huber loss,
# SP Gram-matrix loss, CRD-style cosine losses) built from torch.nn loss modules.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
n = 6
t_emb = torch.stack([torch.sin(torch.arange(8.0) * (k + 1) * 0.25) for k in range(n)])
s_base = torch.stack([torch.cos(torch.arange(4.0) * (k + 1) * 0.3) for k in range(n)])
s_emb = s_base.clone().requires_grad_(True)


def pdist(e, squared=False, eps=1e-12):
    prod = e @ e.t()
    sq = prod.diag()
    d = (sq.unsqueeze(0) + sq.unsqueeze(1) - 2 * prod).clamp(min=eps)
    if not squared:
        d = d.sqrt()
    d = d.clone()
    d[range(len(e)), range(len(e))] = 0
    return d


def rkd_distance(s, t):
    with torch.no_grad():
        td = pdist(t)
        td = td / td[td > 0].mean()
    d = pdist(s)
    d = d / d[d > 0].mean()
    return F.smooth_l1_loss(d, td, reduction="mean")


def rkd_angle(s, t):
    with torch.no_grad():
        tv = F.normalize(t.unsqueeze(0) - t.unsqueeze(1), p=2, dim=2)
        ta = torch.bmm(tv, tv.transpose(1, 2)).view(-1)
    sv = F.normalize(s.unsqueeze(0) - s.unsqueeze(1), p=2, dim=2)
    sa = torch.bmm(sv, sv.transpose(1, 2)).view(-1)
    return F.smooth_l1_loss(sa, ta, reduction="mean")


def sp_loss(s, t):
    gs = F.normalize(s @ s.t(), dim=1)
    gt = F.normalize(t @ t.t(), dim=1)
    return F.mse_loss(gs, gt, reduction="sum") / (len(s) ** 2)


dist_l, ang_l, sp_l = rkd_distance(s_emb, t_emb), rkd_angle(s_emb, t_emb), sp_loss(s_emb, t_emb)
print(f"rkd dist {dist_l.item():.5f} angle {ang_l.item():.5f} sp {sp_l.item():.5f}")
(25 * dist_l + 50 * ang_l + 3000 * sp_l).backward()
print(s_emb.grad[:2])

huber = nn.HuberLoss(delta=0.5)
sl1 = nn.SmoothL1Loss(beta=0.5)
a = torch.linspace(-2, 2, 9)
b = torch.zeros(9)
print(huber, sl1)
print(f"huber {huber(a, b).item():.5f} smoothl1 {sl1(a, b).item():.5f} ratio {(huber(a, b) / sl1(a, b)).item():.3f}")
print(F.smooth_l1_loss(a, b, beta=0.0, reduction="none"))

proj = nn.Linear(4, 8, bias=False)
with torch.no_grad():
    proj.weight.copy_(torch.linspace(-0.5, 0.5, 32).reshape(8, 4))
cos_target = torch.ones(n)
cel = nn.CosineEmbeddingLoss(margin=0.2)
print("cosine emb loss", f"{cel(proj(s_base), t_emb, cos_target).item():.5f}")
neg = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
print("with negatives", f"{cel(proj(s_base), t_emb, neg).item():.5f}")
print("1 - cos", f"{(1 - F.cosine_similarity(proj(s_base), t_emb, dim=1)).mean().item():.5f}")
mrl = nn.MarginRankingLoss(margin=0.1)
print("ranking", f"{mrl(s_base[:, 0], s_base[:, 1], neg).item():.5f}")
print(nn.PairwiseDistance(p=2)(s_base[:3], s_base[3:]))
try:
    cel(proj(s_base), t_emb, torch.ones(n, 1))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    huber(a, torch.zeros(3))
except RuntimeError as e:
    print(type(e).__name__, e)
