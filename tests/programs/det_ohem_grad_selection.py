# Gradients through the selection ops detectors use in losses: OHEM via topk on per-anchor losses,
# sort + gather + cumsum (rank-based weighting), scatter_reduce amax/mean backward with ties,
# index_put_ accumulate, masked_scatter / masked_select and take_along_dim backward.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)

n = 10
logits = (torch.sin(torch.arange(n * 3, dtype=torch.float32) * 0.9) * 2).view(n, 3).requires_grad_()
labels = torch.tensor([0, 2, 1, 1, 0, 2, 2, 0, 1, 0])
per_anchor = F.cross_entropy(logits, labels, reduction="none")
hard, hard_idx = per_anchor.topk(4)
print(hard_idx, hard)
hard.mean().backward()
print(logits.grad)

# rank-weighted loss: sort descending, weights from cumsum of the sorted values
x = torch.tensor([0.3, 1.2, 0.7, 1.2, 0.1, 0.9], requires_grad=True)
s, order = torch.sort(x, descending=True)
w = torch.cumsum(s, 0) / s.sum()
loss = (w * s).sum()
loss.backward()
print(order, f"{loss.item():.4f}", x.grad)
x.grad = None
torch.gather(x, 0, torch.tensor([1, 1, 3, 0])).pow(2).sum().backward()
print(x.grad)

# scatter_reduce backward (ties in amax split the gradient)
src = torch.tensor([1.0, 3.0, 3.0, 2.0, 5.0, 0.5], requires_grad=True)
idx = torch.tensor([0, 0, 0, 1, 1, 2])
for red in ("amax", "amin", "mean", "sum", "prod"):
    src.grad = None
    out = torch.zeros(3).scatter_reduce(0, idx, src, reduce=red, include_self=False)
    (out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    print(red, out.detach(), src.grad)
base = torch.tensor([4.0, 1.0, 1.0], requires_grad=True)
out = base.scatter_reduce(0, idx, src, reduce="amax", include_self=True)
out.sum().backward()
print(out, base.grad, out.grad_fn.name())

# index_put accumulate / index_add backward
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
t = torch.zeros(4).index_put((torch.tensor([0, 0, 3]),), v * 2, accumulate=True)
(t * torch.arange(4.0)).sum().backward()
print(t, v.grad)
m = torch.tensor([True, False, True, True])
sel = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
src2 = torch.tensor([9.0, 8.0, 7.0, 6.0], requires_grad=True)
ms = sel.masked_scatter(m, src2)
(ms * torch.arange(1.0, 5.0)).sum().backward()
print(ms, sel.grad, src2.grad)
sel.grad = None
torch.masked_select(sel, m).pow(2).sum().backward()
print(sel.grad)
r = torch.arange(12.0).view(4, 3).requires_grad_()
pick = torch.take_along_dim(r, torch.tensor([[2], [0], [2], [1]]), dim=1)
pick.sum().backward()
print(pick.squeeze(1), r.grad)
k = torch.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
kv = torch.kthvalue(k, 2)
kv.values.backward()
print(kv, k.grad)
mx = torch.tensor([[1.0, 4.0, 4.0], [2.0, 0.0, 2.0]], requires_grad=True)
mx.amax(dim=1).sum().backward()
print(mx.grad)
mx.grad = None
mx.max(dim=1).values.sum().backward()
print(mx.grad)
