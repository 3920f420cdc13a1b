# Distance utilities SSL code leans on, with their edge cases: nn.PairwiseDistance / nn.CosineSimilarity
# reprs and broadcasting, cosine_similarity of zero vectors and eps, cdist batched / p=1 / p=inf / p=0 and
# compute_mode, pairwise_distance of (N, D) vs (D,), and the errors users hit with mismatched shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F

a = torch.tensor([[1.0, 2.0, 2.0], [0.0, 0.0, 0.0], [3.0, -4.0, 0.0]], requires_grad=True)
b = torch.tensor([[2.0, 1.0, 2.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])

pd = nn.PairwiseDistance(p=1.5, eps=1e-4, keepdim=True)
cs = nn.CosineSimilarity(dim=0, eps=1e-3)
print(pd, cs, nn.PairwiseDistance(), nn.CosineSimilarity())
print("pd", pd(a, b))
print("cs dim0", cs(a, b))
print("cos zero", F.cosine_similarity(a, b, dim=1))
print("cos bcast", F.cosine_similarity(a, b[0], dim=-1))
print("cos 3d", F.cosine_similarity(a.unsqueeze(1), b.unsqueeze(0), dim=-1))
print("pairwise vec", F.pairwise_distance(a, b[0]))
print("pairwise inf", F.pairwise_distance(a, b, p=float("inf")))
print("pairwise p0", F.pairwise_distance(a, b, p=0))

s = F.cosine_similarity(a, b, dim=1).sum() + F.pairwise_distance(a, b).sum()
s.backward()
print("grad", a.grad)

x = torch.sin(torch.arange(2 * 4 * 3, dtype=torch.float64)).view(2, 4, 3)
y = torch.cos(torch.arange(2 * 5 * 3, dtype=torch.float64)).view(2, 5, 3)
print("cdist batched", torch.cdist(x, y).shape, torch.cdist(x, y).dtype)
print("cdist p1", torch.cdist(x[0], y[0], p=1).round(decimals=4))
print("cdist inf", torch.cdist(x[0], y[0], p=float("inf")).round(decimals=4))
print("cdist p0", torch.cdist(x[0], y[0], p=0))
print("cdist mm", torch.cdist(x[0], y[0], compute_mode="use_mm_for_euclid_dist").round(decimals=4))
print("cdist self diag", torch.cdist(x[0], x[0]).diagonal())
xr = x[0].clone().requires_grad_()
torch.cdist(xr, xr).sum().backward()
print("cdist self grad", xr.grad.round(decimals=4))

for bad in [lambda: torch.cdist(x[0], y[0, :, :2]),
            lambda: torch.cdist(x[0], y[0], p=-1),
            lambda: F.pairwise_distance(a, b[:2]),
            lambda: F.cosine_similarity(a, b[:2]),
            lambda: torch.cdist(x[0].long(), y[0].long())]:
    try:
        print("ok", bad().shape)
    except Exception as e:
        print(type(e).__name__, e)
