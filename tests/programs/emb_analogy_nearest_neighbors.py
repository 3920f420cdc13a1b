# Word-vector evaluation: L2-normalised embedding matrix, cosine nearest neighbours with topk,
# analogies a - b + c (excluding the query words), F.cosine_similarity and cdist checks.
import torch
import torch.nn.functional as F

words = ["king", "queen", "man", "woman", "prince", "princess", "boy", "girl", "apple", "pear"]
stoi = {w: i for i, w in enumerate(words)}
# hand-made 4-d vectors: royalty, gender, youth, fruit
base = torch.tensor([
    [1.0, 1.0, 0.0, 0.0], [1.0, -1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0],
    [1.0, 1.0, 1.0, 0.0], [1.0, -1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0], [0.0, -1.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0], [0.0, 0.1, 0.0, 1.0],
])
E = base + 0.05 * torch.sin(torch.arange(40.0)).view(10, 4)
En = F.normalize(E, p=2, dim=1)
print(En.norm(dim=1))


def neighbors(word, k=3):
    q = En[stoi[word]]
    sims = En @ q
    sims[stoi[word]] = -float("inf")
    vals, idx = sims.topk(k)
    return [(words[i], round(v, 3)) for i, v in zip(idx.tolist(), vals.tolist())]


for w in ["king", "girl", "apple"]:
    print(w, neighbors(w))


def analogy(a, b, c):
    v = En[stoi[a]] - En[stoi[b]] + En[stoi[c]]
    sims = F.cosine_similarity(En, v.unsqueeze(0), dim=1)
    sims[[stoi[a], stoi[b], stoi[c]]] = -2.0
    return words[sims.argmax().item()], round(sims.max().item(), 3)


print(analogy("king", "man", "woman"))
print(analogy("prince", "boy", "girl"))
print(analogy("queen", "woman", "man"))

# batched: every row's nearest neighbour at once
S = En @ En.T
S.fill_diagonal_(float("-inf"))
vals, idx = S.max(dim=1)
print([words[i] for i in idx.tolist()])
print(vals.round(decimals=3))
top2 = S.topk(2, dim=1, largest=True, sorted=True)
print(top2.indices)

# the same via cdist on unit vectors: d^2 = 2 - 2 cos
D = torch.cdist(En, En)
print(torch.allclose(D.pow(2), (2 - 2 * (En @ En.T)).clamp_min(0), atol=1e-5))
print(D.argsort(dim=1)[:, 1].tolist() == idx.tolist())

# cosine similarity between pairs, and its gradient w.r.t. the vectors
a = E[[0, 2, 8]].clone().requires_grad_()
b = E[[1, 3, 9]].clone().requires_grad_()
cos = F.cosine_similarity(a, b, dim=-1)
print(cos)
(1 - cos).sum().backward()
print(a.grad)
print(torch.allclose((a.grad * a).sum(1), torch.zeros(3), atol=1e-6))

# ranking in float64 and tie handling in topk
ties = torch.tensor([0.5, 0.9, 0.9, 0.1], dtype=torch.float64)
print(ties.topk(2), ties.sort(descending=True, stable=True).indices)
