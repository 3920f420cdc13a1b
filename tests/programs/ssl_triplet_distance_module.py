# Metric-learning triplet losses: nn.TripletMarginWithDistanceLoss with a cosine distance lambda,
# swap=True and reduction='none', F.triplet_margin_loss with p=1 / swap, batch-hard mining with cdist
# and masked max/min, F.cosine_embedding_loss with +/-1 targets, pairwise_distance with eps and keepdim.
import torch
import torch.nn as nn
import torch.nn.functional as F

emb = torch.sin(torch.arange(8 * 4, dtype=torch.float32) * 0.77).view(8, 4).requires_grad_()
labels = torch.tensor([0, 0, 1, 1, 2, 2, 0, 1])

anchor, positive, negative = emb[0:3], emb[[1, 3, 5]], emb[[2, 4, 6]]

cos_dist = lambda a, b: 1.0 - F.cosine_similarity(a, b)
loss_fn = nn.TripletMarginWithDistanceLoss(distance_function=cos_dist, margin=0.5, swap=True, reduction="none")
print(loss_fn)
l1 = loss_fn(anchor, positive, negative)
print("cos-dist triplet", l1.detach().round(decimals=4), l1.grad_fn.name())

default_fn = nn.TripletMarginWithDistanceLoss(margin=1.5)
print("default distance", f"{default_fn(anchor, positive, negative).item():.4f}")
pdist_fn = nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1.0), reduction="sum")
print("pairwise p=1", f"{pdist_fn(anchor, positive, negative).item():.4f}")

print("F p=1", f"{F.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=1).item():.4f}")
print("F swap", f"{F.triplet_margin_loss(anchor, positive, negative, margin=2.0, swap=True).item():.4f}")
print("module swap none", nn.TripletMarginLoss(margin=2.0, swap=True, reduction="none")(anchor, positive, negative).detach().round(decimals=4))

# batch-hard mining
dist = torch.cdist(emb, emb, p=2)
same = labels.unsqueeze(0) == labels.unsqueeze(1)
eye = torch.eye(len(labels), dtype=torch.bool)
pos_mask = same & ~eye
hardest_pos = (dist * pos_mask.float()).max(dim=1).values
hardest_neg = dist.masked_fill(same, float("inf")).min(dim=1).values
bh = F.relu(hardest_pos - hardest_neg + 0.3)
print("hardest_pos", hardest_pos.detach().round(decimals=4))
print("hardest_neg", hardest_neg.detach().round(decimals=4))
bh_loss = bh.mean()
total = bh_loss + l1.mean()
total.backward()
print("emb.grad", emb.grad.round(decimals=4))

# cosine embedding loss with +/-1 targets
x1 = torch.cos(torch.arange(12, dtype=torch.float32)).view(4, 3)
x2 = torch.sin(torch.arange(12, dtype=torch.float32)).view(4, 3)
y = torch.tensor([1, -1, 1, -1])
print("cos emb mean", f"{F.cosine_embedding_loss(x1, x2, y, margin=0.2).item():.4f}")
print("cos emb none", F.cosine_embedding_loss(x1, x2, y.float(), margin=-0.1, reduction="none").round(decimals=4))
print("cos emb 1d", F.cosine_embedding_loss(x1[0], x2[0], torch.tensor(1)).round(decimals=4))
print("pairwise keepdim", F.pairwise_distance(x1, x2, p=3, eps=1e-3, keepdim=True).round(decimals=4))
print("pairwise 1d", F.pairwise_distance(x1[0], x2[0]).round(decimals=4))
try:
    F.cosine_embedding_loss(x1, x2, torch.tensor([1, -1]))
except Exception as e:
    print(type(e).__name__, e)
try:
    F.triplet_margin_loss(anchor, positive, negative[:2])
except Exception as e:
    print(type(e).__name__, e)
