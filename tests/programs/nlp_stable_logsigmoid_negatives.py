# Why word2vec code uses F.logsigmoid instead of torch.log(torch.sigmoid(x)): saturated
# positive/negative dot products. Prints losses and gradients at large scores for logsigmoid,
# softplus, BCEWithLogits and the naive version, then one SGNS step with large embeddings.
import torch
import torch.nn as nn
import torch.nn.functional as F

scores = torch.tensor([-120., -95., -60., -20., 0., 20., 60., 95., 120.], requires_grad=True)
print(torch.log(torch.sigmoid(scores)))
print(F.logsigmoid(scores))
F.logsigmoid(scores).sum().backward()
print(scores.grad)
scores.grad = None
F.softplus(-scores).sum().backward()
print(scores.grad)
scores.grad = None
F.binary_cross_entropy_with_logits(scores, torch.ones(9), reduction="sum").backward()
print(scores.grad)
scores.grad = None
F.silu(scores).sum().backward()
print(scores.grad)
print(nn.LogSigmoid()(scores.detach()[4:6]), nn.Softplus(beta=0.5)(scores.detach()[3:6]))

# SGNS step where embeddings are large, so dot products saturate
V, D = 6, 4
center = nn.Embedding(V, D)
ctx = nn.Embedding(V, D)
with torch.no_grad():
    center.weight.copy_(torch.arange(V * D, dtype=torch.float32).reshape(V, D) * 0.6 - 7)
    ctx.weight.copy_(torch.arange(V * D, dtype=torch.float32).reshape(V, D).flip(0) * 0.5 - 5)
c = torch.tensor([0, 1, 4, 5])
o = torch.tensor([1, 2, 3, 0])
neg = torch.tensor([[2, 3], [4, 5], [0, 1], [2, 4]])
v = center(c)
pos = (v * ctx(o)).sum(-1)
negs = torch.bmm(ctx(neg), v.unsqueeze(-1)).squeeze(-1)
print(pos, negs)
loss = -(F.logsigmoid(pos) + F.logsigmoid(-negs).sum(-1)).mean()
loss.backward()
print(f"{loss.item():.4f}")
print(center.weight.grad)
print(ctx.weight.grad)
