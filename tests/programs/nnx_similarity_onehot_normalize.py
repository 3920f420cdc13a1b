# Embedding utilities: F.one_hot (inferred/explicit num_classes, errors, dtype), F.normalize with
# p=1/p=2/dim/eps, F.cosine_similarity with broadcasting and the eps corner at zero vectors,
# F.pairwise_distance (p, eps, keepdim), and gradients of a cosine-similarity retrieval score.
import torch
import torch.nn.functional as F

labels = torch.tensor([2, 0, 1, 2])
oh = F.one_hot(labels)
print(oh, oh.dtype, oh.shape)
print(F.one_hot(labels, num_classes=5))
print(F.one_hot(torch.tensor([[0, 1], [1, 1]]), 3).shape, F.one_hot(torch.tensor(1), 3))
print(F.one_hot(labels, 3).float().sum(0), F.one_hot(labels, 3).argmax(dim=1))
for bad in [lambda: F.one_hot(torch.tensor([0, 3]), 3), lambda: F.one_hot(torch.tensor([-1, 0])),
            lambda: F.one_hot(torch.tensor([0.0, 1.0]))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)

emb = torch.tensor([[3.0, 4.0, 0.0], [1.0, -1.0, 2.0], [0.0, 0.0, 0.0]])
print(F.normalize(emb), F.normalize(emb, p=1, dim=1))
print(F.normalize(emb, dim=0), F.normalize(emb, p=2, dim=1, eps=1.0))
print(F.normalize(torch.tensor([3.0, 4.0]), dim=0), F.normalize(emb, p=float("inf"), dim=1))

a = torch.tensor([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0]])
b = torch.tensor([[1.0, 1.0, 1.0]])
print(F.cosine_similarity(a, b), F.cosine_similarity(a, b, dim=1).shape)
print(F.cosine_similarity(a, a[0], dim=-1), F.cosine_similarity(a, torch.zeros(2, 3)))
print(F.cosine_similarity(a.unsqueeze(1), a.unsqueeze(0), dim=-1))
print(torch.nn.CosineSimilarity(dim=0), torch.nn.CosineSimilarity(dim=0)(a[0], a[1]))

# retrieval: query against a small gallery, gradient of the best score w.r.t. the query
gallery = torch.tensor([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.6, 0.8]])
q = torch.tensor([0.5, 1.0, 0.2], requires_grad=True)
scores = F.cosine_similarity(q.unsqueeze(0), gallery, dim=1)
best = scores.max()
best.backward()
print(scores, scores.argmax().item(), best.grad_fn.name(), q.grad)
q.grad = None
(F.normalize(q, dim=0) @ gallery.T).sum().backward()
print(q.grad)

# distances
x1 = torch.tensor([[0.0, 0.0], [1.0, 1.0], [3.0, 4.0]])
x2 = torch.tensor([[3.0, 4.0], [1.0, 1.0], [0.0, 0.0]])
print(F.pairwise_distance(x1, x2), F.pairwise_distance(x1, x2, p=1), F.pairwise_distance(x1, x2, keepdim=True).shape)
print(F.pairwise_distance(x1, x2, p=float("inf")), F.pairwise_distance(x1, x2[0]))
print(torch.nn.PairwiseDistance(p=1.0), torch.nn.PairwiseDistance()(x1, x2))
w = x1.clone().requires_grad_()
F.pairwise_distance(w, x2).sum().backward()
print(w.grad)
print(torch.cdist(x1, x2), torch.cdist(x1, x2, p=1))
