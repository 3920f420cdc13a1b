# Tabular preprocessing pipeline: label-encoding tables built with torch.unique(return_inverse),
# one_hot, bucketize/searchsorted for numeric bins, embedding concat, unseen categories -> OOV index.
import torch
import torch.nn as nn
import torch.nn.functional as F

cities = ["paris", "berlin", "paris", "rome", "oslo", "berlin", "rome", "paris"]
vocab = {c: i + 1 for i, c in enumerate(sorted(set(cities)))}  # 0 = OOV
print(vocab)
city_ids = torch.tensor([vocab.get(c, 0) for c in cities])
uniq, inv, cnt = torch.unique(city_ids, return_inverse=True, return_counts=True)
print(uniq, inv, cnt)
print(torch.equal(uniq[inv], city_ids))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 3, 1, 1]), return_counts=True))
print(torch.bincount(city_ids), torch.bincount(city_ids, minlength=7))
print(torch.bincount(city_ids, weights=torch.linspace(0, 1, 8)))
freq = torch.bincount(city_ids).float() / len(cities)
print(freq[city_ids])

onehot = F.one_hot(city_ids, num_classes=len(vocab) + 1)
print(onehot, onehot.dtype)
print(F.one_hot(torch.tensor([[0, 2], [1, 1]])).shape)
try:
    F.one_hot(torch.tensor([0, 5]), num_classes=3)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([0.0, 1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)

income = torch.tensor([12.5, 48.0, 33.3, 90.1, 20.0, 55.5, 75.0, 48.0])
edges = torch.tensor([20.0, 40.0, 60.0, 80.0])
b_left = torch.bucketize(income, edges)
b_right = torch.bucketize(income, edges, right=True)
print(b_left, b_right)
print(torch.searchsorted(edges, income), torch.searchsorted(edges, income, right=True))
print(torch.searchsorted(edges, income.view(2, 4).contiguous()[:, :2].contiguous().reshape(-1)))
sorted_income, order = income.sort()
print(torch.searchsorted(sorted_income, torch.tensor([48.0, 50.0]), side="left"), order)
print(torch.searchsorted(income, torch.tensor([48.0, 50.0]), sorter=order))
print(torch.searchsorted(edges.double(), torch.tensor([[10.0, 70.0], [80.0, 81.0]], dtype=torch.float64), out_int32=True))
try:
    torch.searchsorted(edges, income, side="right", right=False)
except RuntimeError as e:
    print(type(e).__name__, e)

mu, sd = income.mean(), income.std()
num_feats = torch.stack([(income - mu) / sd, torch.log1p(income)], dim=1)
emb_city = nn.Embedding(len(vocab) + 1, 3, padding_idx=0)
emb_bin = nn.Embedding(len(edges) + 1, 2)
with torch.no_grad():
    emb_city.weight[1:].copy_(torch.arange(12, dtype=torch.float32).view(4, 3) / 12)
    emb_bin.weight.copy_(-torch.arange(10, dtype=torch.float32).view(5, 2) / 10)
new_city = torch.tensor([vocab.get(c, 0) for c in ["rome", "tokyo"]])
print(new_city, emb_city(new_city))
features = torch.cat([emb_city(city_ids), emb_bin(b_left), num_feats], dim=1)
print(features.shape)
print(features.round(decimals=3))
features.sum().backward()
print(emb_city.weight.grad)
print(emb_bin.weight.grad)
