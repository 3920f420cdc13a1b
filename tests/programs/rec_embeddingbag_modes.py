# nn.EmbeddingBag for multi-hot categorical features (bag of genres / tags per item):
# modes sum/mean/max, offsets vs 2D input, per_sample_weights, padding_idx, include_last_offset.
import torch
import torch.nn as nn
import torch.nn.functional as F

weight = torch.arange(24, dtype=torch.float32).view(8, 3) / 10
tags = torch.tensor([1, 2, 4, 5, 4, 3, 2, 7])
offsets = torch.tensor([0, 2, 5])
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag.from_pretrained(weight, mode=mode, freeze=False)
    out = bag(tags, offsets)
    print(mode, out, out.shape)
    out.sum().backward()
    print(bag.weight.grad)

bag = nn.EmbeddingBag(8, 3, mode="sum")
with torch.no_grad():
    bag.weight.copy_(weight)
print(bag)
print(bag(torch.tensor([[1, 2], [4, 5], [3, 3]])))
psw = torch.tensor([1.0, 0.5, 2.0, 1.0, 1.0, 0.0, 0.25, 4.0])
print(bag(tags, offsets, per_sample_weights=psw))
print(F.embedding_bag(tags, weight, offsets, mode="sum", per_sample_weights=psw))
print(F.embedding_bag(tags, weight, torch.tensor([0, 2, 5, 8]), mode="mean", include_last_offset=True))
# empty bag
print(F.embedding_bag(tags, weight, torch.tensor([0, 2, 2, 5]), mode="mean"))
print(F.embedding_bag(tags, weight, torch.tensor([0, 2, 2, 5]), mode="max"))

pad_bag = nn.EmbeddingBag(8, 3, mode="mean", padding_idx=0)
with torch.no_grad():
    pad_bag.weight.copy_(weight)
print(pad_bag.weight[0])
x = torch.tensor([[1, 2, 0, 0], [3, 0, 0, 0], [0, 0, 0, 0]])
out = pad_bag(x)
print(out)
out.sum().backward()
print(pad_bag.weight.grad)
print(pad_bag)
print(nn.EmbeddingBag(10, 4, mode="max", max_norm=1.0))

try:
    bag(tags, offsets, per_sample_weights=psw[:3])
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    F.embedding_bag(tags, weight, offsets, mode="max", per_sample_weights=psw)
except (RuntimeError, NotImplementedError, ValueError) as e:
    print(type(e).__name__, e)
try:
    bag(torch.tensor([[1, 2], [3, 4]]), offsets)
except ValueError as e:
    print(type(e).__name__, e)
try:
    bag(tags)
except ValueError as e:
    print(type(e).__name__, e)
try:
    nn.EmbeddingBag(8, 3, mode="median")
except ValueError as e:
    print(type(e).__name__, e)
