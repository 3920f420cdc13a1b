# Pooling over padded sequences with a length mask (the "mean of non-padded tokens" Q&A):
# mask from lengths, masked sum / count, masked max via masked_fill(-inf), nan-based pooling,
# logical combinations of masks, and gradients that must be zero on padding.
import torch

lengths = torch.tensor([3, 1, 4])
max_len = 4
mask = torch.arange(max_len)[None, :] < lengths[:, None]
print(mask, mask.dtype, mask.sum(1), mask.long().cumsum(1))
h = torch.arange(24.).view(3, 4, 2) / 4
h.requires_grad_()

m = mask.unsqueeze(-1)
summed = (h * m).sum(1)
count = m.sum(1).clamp_min(1)
mean = summed / count
print(count, count.dtype, mean)
mx = h.masked_fill(~m, float("-inf")).max(dim=1)
print(mx.values, mx.indices)
nan_pooled = torch.where(m, h, torch.tensor(float("nan"))).nanmean(dim=1)
print(torch.allclose(nan_pooled, mean))
last = h[torch.arange(3), lengths - 1]
print(last, last.grad_fn.name())
first_pad = (~mask).int().argmax(1)
print(first_pad, (~mask).any(1), torch.logical_and(mask, torch.arange(4) % 2 == 0))

loss = mean.sum() + mx.values.sum() + last.sum()
loss.backward()
print(h.grad[1], h.grad[:, :, 0])
print((h.grad[~mask] == 0).all(), h.grad.count_nonzero(), h.grad.nonzero().shape)

# attention-style masking: -inf scores on padding, softmax, weighted sum
scores = h.detach().sum(-1)
scores = scores.masked_fill(~mask, float("-inf"))
attn = scores.softmax(dim=1)
print(attn, attn.isnan().any(), attn.sum(1))
empty = torch.tensor([[False, False]])
print(torch.zeros(1, 2).masked_fill(~empty, float("-inf")).softmax(1))
ctx = (attn.unsqueeze(-1) * h.detach()).sum(1)
print(ctx)

# masked variance with correction, computed by hand and with std on each row
x = h.detach()[..., 0]
var = ((x - mean.detach()[:, :1]) ** 2 * mask).sum(1) / (mask.sum(1) - 1).clamp_min(1)
print(var, [x[i, :n].var().item() if n > 1 else 0.0 for i, n in enumerate(lengths.tolist())])
print(torch.masked_select(x, mask), x[mask].split(lengths.tolist()))
