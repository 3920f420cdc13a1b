# nn.EmbeddingBag corner cases a text-classification user hits: empty bags in each mode,
# padding_idx inside bags, include_last_offset, 2-D input, scale_grad_by_freq, sparse grads.
import torch
import torch.nn as nn
import torch.nn.functional as F

W = torch.tan(torch.linspace(-1.0, 1.0, 15)).view(5, 3)
text = torch.tensor([1, 2, 0, 4, 4, 0, 3])
offsets = torch.tensor([0, 3, 3, 6])     # bag 1 is empty, bag 3 is [3]

for mode in ("sum", "mean", "max"):
    bag = nn.EmbeddingBag.from_pretrained(W.clone(), mode=mode, freeze=False, padding_idx=0)
    out = bag(text, offsets)
    print(mode, bag)
    print(out)
    out.sum().backward()
    print(bag.weight.grad)

# include_last_offset: offsets has one more entry, the final one closes the last bag
bag = nn.EmbeddingBag(5, 3, mode="sum", include_last_offset=True)
with torch.no_grad():
    bag.weight.copy_(W)
print(bag(text, torch.tensor([0, 2, 5, 7])))
print(bag(text, torch.tensor([0, 2, 5])).shape)

# 2-D input: every row is a bag, offsets must be None
bag = nn.EmbeddingBag(5, 3, mode="mean", padding_idx=0)
with torch.no_grad():
    bag.weight.copy_(W)
x2 = torch.tensor([[1, 0, 2], [0, 0, 0], [4, 4, 3]])
print(bag(x2))
try:
    bag(x2, torch.tensor([0, 1]))
except ValueError as e:
    print(type(e).__name__, e)

# scale_grad_by_freq in sum mode
bag = nn.EmbeddingBag(5, 3, mode="sum", scale_grad_by_freq=True)
with torch.no_grad():
    bag.weight.copy_(W)
bag(torch.tensor([4, 4, 4, 1, 2, 4]), torch.tensor([0, 3])).pow(2).sum().backward()
print(bag.weight.grad)

# sparse gradient from an EmbeddingBag
bag = nn.EmbeddingBag(5, 3, mode="sum", sparse=True)
with torch.no_grad():
    bag.weight.copy_(W)
bag(text, offsets).sum().backward()
g = bag.weight.grad
print(g.layout, g._nnz())
print(g.coalesce().indices(), g.coalesce().values())
for mode, psw in (("mean", None), ("sum", torch.linspace(0.5, 2.0, 7))):
    bag = nn.EmbeddingBag.from_pretrained(W.clone(), mode=mode, freeze=False, sparse=True,
                                          padding_idx=0)
    bag(text, offsets, per_sample_weights=psw).pow(2).sum().backward()
    g = bag.weight.grad
    print(mode, g._nnz(), g._indices())
    print(g._values())
    print(g.to_dense())
try:
    nn.EmbeddingBag(5, 3, mode="max", sparse=True)(text, offsets)
except ValueError as e:
    print(type(e).__name__, e)

# functional with per_sample_weights (sum only)
psw = torch.linspace(0.5, 2.0, 7, requires_grad=True)
out = F.embedding_bag(text, W, offsets, mode="sum", per_sample_weights=psw)
out.sum().backward()
print(out)
print(psw.grad)
try:
    F.embedding_bag(text, W, offsets, mode="max", per_sample_weights=psw)
except NotImplementedError as e:
    print(type(e).__name__, e)
