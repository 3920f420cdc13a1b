# Metric-learning and multi-label losses: MarginRankingLoss, TripletMarginLoss (p, margin, swap),
# HingeEmbeddingLoss, SoftMarginLoss, MultiLabelSoftMarginLoss (with class weights), their reprs,
# reduction='none' / 'sum', gradients, and a tiny siamese model trained with a triplet loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

s1 = torch.tensor([0.8, 0.1, 0.5, -0.3])
s2 = torch.tensor([0.2, 0.4, 0.5, 0.6])
target = torch.tensor([1.0, -1.0, 1.0, -1.0])
for margin in [0.0, 0.5]:
    crit = nn.MarginRankingLoss(margin=margin)
    print(crit, crit(s1, s2, target), F.margin_ranking_loss(s1, s2, target, margin=margin, reduction="none"))
a = s1.clone().requires_grad_()
nn.MarginRankingLoss(margin=0.1, reduction="sum")(a, s2, target).backward()
print(a.grad)

anchor = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
positive = torch.tensor([[0.1, 0.0], [1.0, 0.5], [0.0, 3.0]])
negative = torch.tensor([[0.2, 0.2], [3.0, 0.0], [0.5, 1.0]])
for kwargs in [dict(), dict(margin=0.5), dict(p=1.0), dict(margin=2.0, swap=True), dict(reduction="none")]:
    crit = nn.TripletMarginLoss(**kwargs)
    print(crit, crit(anchor, positive, negative))
print(F.triplet_margin_loss(anchor, positive, negative, margin=0.3, reduction="sum"))
a = anchor.clone().requires_grad_()
F.triplet_margin_loss(a, positive, negative, margin=1.0).backward()
print(a.grad)

dist = torch.tensor([0.3, 1.5, 0.2, 2.5])
print(nn.HingeEmbeddingLoss()(dist, target), nn.HingeEmbeddingLoss(margin=2.0, reduction="none")(dist, target))
print(nn.SoftMarginLoss()(s1, target), F.soft_margin_loss(s1, target, reduction="none"))

logits = torch.tensor([[1.5, -0.5, 0.2], [-1.0, 2.0, 0.3]])
multi = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
mlsm = nn.MultiLabelSoftMarginLoss()
print(mlsm, mlsm(logits, multi), F.binary_cross_entropy_with_logits(logits, multi))
print(nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1.0, 2.0, 0.5]), reduction="none")(logits, multi))
lg = logits.clone().requires_grad_()
F.multilabel_soft_margin_loss(lg, multi).backward()
print(lg.grad)

# siamese embedding net trained with a triplet loss
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape) * 0.6)
opt = torch.optim.Adam(net.parameters(), lr=0.05)
crit = nn.TripletMarginLoss(margin=1.0)
for step in range(5):
    opt.zero_grad()
    loss = crit(net(anchor), net(positive), net(negative))
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", loss.grad_fn.name())
with torch.no_grad():
    print(F.pairwise_distance(net(anchor), net(positive)), F.pairwise_distance(net(anchor), net(negative)))
try:
    nn.MarginRankingLoss()(s1, s2, target[:3])
except Exception as e:
    print(type(e).__name__, e)
