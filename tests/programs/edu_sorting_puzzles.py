# Sorting/ranking homework: stable argsort with ties, ranks via double argsort, topk/kthvalue,
# median/mode/quantile, sort along dims with descending, msort, and top-k accuracy.
import torch

x = torch.tensor([3, 1, 2, 3, 1, 0, 2])
v, i = torch.sort(x, stable=True)
print(v, i)
print(torch.sort(x, descending=True, stable=True))
print(torch.argsort(x, stable=True), torch.argsort(x, descending=True, stable=True))
ranks = x.argsort(stable=True).argsort()
print("ranks", ranks)
print(torch.sort(torch.tensor([2.0, float("nan"), -1.0, float("inf")])))
print(torch.sort(torch.tensor([2.0, float("nan"), -1.0, float("inf")]), descending=True))
m = torch.tensor([[5, 2, 9], [1, 7, 3]])
print(m.sort(dim=0), m.sort(dim=-1, descending=True).indices)
print(torch.msort(m), m.argsort(dim=0))
print(torch.sort(torch.tensor([True, False, True])))

# topk / kthvalue
s = torch.tensor([0.1, 0.9, 0.3, 0.9, 0.5])
print(s.topk(2), s.topk(2, largest=False), s.topk(3, sorted=True))
print(m.topk(1, dim=1), m.topk(2, dim=0).values)
print(torch.kthvalue(s, 2), torch.kthvalue(m, 1, dim=0), torch.kthvalue(m, 2, dim=1, keepdim=True))
try:
    s.topk(6)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.kthvalue(s, 0)
except RuntimeError as e:
    print("RuntimeError", e)

# median / mode / quantile
e = torch.tensor([4.0, 1.0, 3.0, 2.0])
print(e.median(), torch.median(m, dim=1), e.nanmedian(), torch.tensor([1.0, float("nan"), 3.0]).nanmedian())
print(torch.mode(torch.tensor([1, 2, 2, 3, 3])), torch.mode(torch.tensor([[1, 1, 2], [3, 2, 2]]), dim=1))
print(torch.quantile(e, 0.5), torch.quantile(e, torch.tensor([0.25, 0.75])), torch.quantile(e, 0.4, interpolation="nearest"))
print(torch.quantile(e, 0.4, interpolation="lower"), torch.quantile(e, 0.4, interpolation="higher"), torch.quantile(e, 0.4, interpolation="midpoint"))
print(torch.quantile(torch.arange(12.0).reshape(3, 4), 0.5, dim=1, keepdim=True))
print(torch.nanquantile(torch.tensor([1.0, float("nan"), 2.0]), 0.5))

# top-k accuracy
logits = torch.tensor([[0.1, 0.5, 0.2, 0.2], [0.6, 0.1, 0.2, 0.1], [0.1, 0.1, 0.1, 0.7], [0.3, 0.3, 0.2, 0.2]])
target = torch.tensor([2, 0, 1, 1])
_, pred = logits.topk(2, dim=1)
correct = pred.eq(target.view(-1, 1).expand_as(pred))
print(pred, correct)
for k in (1, 2):
    print(f"top{k}:", correct[:, :k].reshape(-1).float().sum(0).mul_(100.0 / 4).item())

# grads through sort / topk / max
w = torch.tensor([0.3, -1.0, 2.0, 0.5], requires_grad=True)
sv, si = w.sort()
(sv * torch.arange(4.0)).sum().backward()
print(w.grad, sv.grad_fn.name())
w.grad = None
w.topk(2).values.sum().backward()
print(w.grad)
w.grad = None
w.max().backward()
print(w.grad)
u = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
u.max().backward()
print("ties in max:", u.grad)
u.grad = None
u.max(dim=0).values.backward()
print("ties in max(dim):", u.grad)
u.grad = None
u.amax().backward()
print("ties in amax:", u.grad)
u.grad = None
torch.median(u).backward()
print("median grad:", u.grad)
