# Adaptive (equal-mass) ECE with sorted confidences split by tensor_split, and classwise ECE
# computed with bucketize + index_add_ / scatter_reduce over (class, bin) pairs.
import torch
import torch.nn.functional as F

n, C, B = 45, 3, 5
i = torch.arange(n, dtype=torch.float32)
logits = torch.stack([torch.cos(i * 0.23 + k) * (1.5 + k) for k in range(C)], 1)
labels = (i.long() * 4 + 1) % C
probs = F.softmax(logits, dim=1)
conf, pred = probs.max(1)
correct = pred.eq(labels).float()

# adaptive binning: each bin holds the same number of samples
order = conf.argsort()
chunks_c = torch.tensor_split(conf[order], B)
chunks_a = torch.tensor_split(correct[order], B)
print([len(c) for c in chunks_c])
aece = sum(len(c) / n * (c.mean() - a.mean()).abs() for c, a in zip(chunks_c, chunks_a))
print(f"adaptive ECE {aece.item():.4f}")
edges = torch.quantile(conf, torch.linspace(0, 1, B + 1))
print("equal-mass edges:", edges.round(decimals=4))
print(torch.chunk(torch.arange(7), 3))

# classwise ECE
bins = torch.linspace(0, 1, B + 1)
onehot = F.one_hot(labels, C).float()
bin_idx = torch.bucketize(probs, bins[1:-1])  # [n, C]
flat = (torch.arange(C).expand(n, C) * B + bin_idx).reshape(-1)
cnt = torch.zeros(C * B).index_add_(0, flat, torch.ones(n * C))
psum = torch.zeros(C * B).index_add_(0, flat, probs.reshape(-1))
ysum = torch.zeros(C * B).index_add_(0, flat, onehot.reshape(-1))
pmax = torch.zeros(C * B).scatter_reduce(0, flat, probs.reshape(-1), reduce="amax", include_self=False)
pmean = torch.zeros(C * B).scatter_reduce(0, flat, probs.reshape(-1), reduce="mean", include_self=False)
print(cnt.view(C, B))
gap = (psum - ysum).abs().view(C, B) / n
print("classwise ECE per class:", gap.sum(1).round(decimals=4))
print(f"classwise ECE {gap.sum(1).mean().item():.4f}")
print(pmax.view(C, B).round(decimals=3))
print(torch.allclose(pmean * cnt.clamp(min=1), psum, atol=1e-6))
nz = cnt.nonzero().squeeze(1)
print(nz.tolist())
ratio = torch.where(cnt > 0, ysum / cnt, torch.full_like(cnt, float("nan")))
print(ratio.view(C, B).nanmean(1).round(decimals=4), ratio.nansum().round(decimals=3))
print(torch.nan_to_num(ratio, nan=-1.0).view(C, B))
