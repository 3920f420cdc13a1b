# Distance functions used in metric learning and retrieval: torch.cdist with p=0/1/2/inf and batched inputs,
# compute_mode options, F.pairwise_distance (p, eps, keepdim, broadcasting), torch.pdist, torch.dist,
# nn.PairwiseDistance, their gradients, and nearest-neighbour retrieval with topk.
import torch
import torch.nn as nn
import torch.nn.functional as F

q = torch.tensor([[0.0, 1.0, 2.0], [1.0, -1.0, 0.5], [3.0, 0.0, -2.0]])
db = torch.stack([torch.cos(torch.arange(3.0) * k) * k for k in range(5)])
print(db)

for p in [0.0, 1.0, 2.0, 3.0, float("inf")]:
    print(p, torch.cdist(q, db, p=p))
print(torch.cdist(q, db, compute_mode="use_mm_for_euclid_dist"))
print(torch.cdist(q, db, compute_mode="donot_use_mm_for_euclid_dist"))
bq = torch.stack([q, q * 2])
bdb = torch.stack([db, db.flip(0)])
print(torch.cdist(bq, bdb).shape, torch.cdist(bq, bdb)[1])
print(torch.cdist(bq, db).shape)

vals, idx = torch.cdist(q, db).topk(2, dim=1, largest=False)
print(vals, idx)

print(F.pairwise_distance(q, db[:3]))
print(F.pairwise_distance(q, db[:3], p=1, keepdim=True))
print(F.pairwise_distance(q, db[0]), F.pairwise_distance(q, q))
print(F.pairwise_distance(q, db[:3], p=float("inf")), F.pairwise_distance(q, db[:3], eps=0.0))
print(F.pairwise_distance(q[0], db[0]), F.pairwise_distance(q[0], db[0], keepdim=True))
pd = nn.PairwiseDistance(p=2.0, keepdim=True)
print(pd, pd(q, db[:3]))
print(torch.pdist(db), torch.pdist(db, p=1).shape)
print(torch.dist(q, db[:3]), torch.dist(q, db[:3], p=1), torch.dist(q, db[:3], p=0))

qq = q.clone().requires_grad_()
dd = db.clone().requires_grad_()
torch.cdist(qq, dd).sum().backward()
print(qq.grad)
print(dd.grad)
qq.grad = None
torch.cdist(qq, dd, p=1).pow(2).mean().backward()
print(qq.grad)
qq.grad = None
F.pairwise_distance(qq, dd[:3], p=3).sum().backward()
print(qq.grad)
dd.grad = None
torch.pdist(dd).sum().backward()
print(dd.grad)
qq.grad = None
torch.cdist(qq, dd, p=float("inf")).sum().backward()
print(qq.grad)

for bad in [lambda: torch.cdist(q, db[:, :2]),
            lambda: torch.cdist(q[0], db),
            lambda: torch.cdist(q, db, p=-1),
            lambda: torch.pdist(bq),
            lambda: F.pairwise_distance(q, db)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
