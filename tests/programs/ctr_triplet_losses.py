# Triplet losses for metric learning: nn.TripletMarginLoss (p, eps, swap, reductions), the functional form,
# TripletMarginWithDistanceLoss with the default distance, a cosine-distance lambda and nn.PairwiseDistance,
# gradients, reprs and the errors users hit with mismatched shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F

a = torch.tensor([[0.5, 1.0, -0.2], [1.5, 0.0, 0.3], [-0.4, 0.7, 1.1], [0.0, 0.0, 0.0]])
p = a + torch.tensor([[0.1, -0.1, 0.2]])
n = a.flip(0) * 0.8

for kw in [{}, {"margin": 0.3}, {"p": 1}, {"p": 3.0, "swap": True}, {"eps": 0.0, "reduction": "none"},
           {"margin": 2.0, "reduction": "sum"}]:
    crit = nn.TripletMarginLoss(**kw)
    print(crit, crit(a, p, n))

print(F.triplet_margin_loss(a, p, n, margin=1.5, reduction="none"))
print(F.triplet_margin_loss(a[0], p[0], n[0]))  # unbatched

anc = a.clone().requires_grad_()
pos = p.clone().requires_grad_()
neg = n.clone().requires_grad_()
F.triplet_margin_loss(anc, pos, neg, margin=2.0, swap=True).backward()
print(anc.grad)
print(pos.grad)
print(neg.grad)

cos_dist = lambda x, y: 1.0 - F.cosine_similarity(x, y)
for crit in [nn.TripletMarginWithDistanceLoss(),
             nn.TripletMarginWithDistanceLoss(distance_function=cos_dist, margin=0.5),
             nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1), swap=True),
             nn.TripletMarginWithDistanceLoss(distance_function=nn.CosineSimilarity(), reduction="none")]:
    print(crit, crit(a, p, n))

anc = a.clone().requires_grad_()
l = F.triplet_margin_with_distance_loss(anc, p, n, distance_function=cos_dist, margin=1.0)
l.backward()
print(l, anc.grad)

# squared euclidean distance function as in many repos
sq = lambda x, y: (x - y).pow(2).sum(-1)
print(F.triplet_margin_with_distance_loss(a, p, n, distance_function=sq, margin=1.0, reduction="none"))

for bad in [lambda: nn.TripletMarginLoss()(a, p, n[:3]),
            lambda: nn.TripletMarginLoss()(a, p[:, :2], n),
            lambda: nn.TripletMarginLoss(reduction="avg")(a, p, n),
            lambda: nn.TripletMarginWithDistanceLoss(margin=-1.0),
            lambda: F.triplet_margin_loss(a.unsqueeze(0), p, n)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
