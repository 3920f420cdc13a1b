# The "batch of one" squeeze bug in NLP code: scores.squeeze() on a (1, 1) attention score or a
# single-token sentence leaves a 0-d tensor, and then max(dim=0), softmax(dim=0), logsumexp(0),
# argmax(0) and topk are taken over it. PyTorch treats a 0-d tensor as having one dim of size 1.
import torch
import torch.nn as nn
import torch.nn.functional as F

enc = torch.linspace(-1, 1, 8).reshape(1, 1, 8)   # batch 1, one token
query = torch.linspace(0.5, -0.5, 8).reshape(1, 8, 1)
scores = torch.bmm(enc, query).squeeze()           # 0-d!
print(scores.shape, scores.dim(), scores)
alpha = F.softmax(scores, dim=0)
print(alpha, F.log_softmax(scores, dim=-1), torch.logsumexp(scores, dim=0))
best, idx = scores.max(dim=0)
print(best, idx, scores.argmax(0), scores.min(-1))
print(scores.max(0, keepdim=True), scores.amax(0))
print(torch.max(scores, 0).indices.dtype)

w = torch.tensor(0.3, requires_grad=True)
s = (w * 4).squeeze()
val, i = s.max(0)
lse = torch.logsumexp(s, 0)
sm = torch.softmax(s, 0)
(val + lse + sm).backward()
print(val.grad_fn.name(), lse.grad_fn.name(), sm.grad_fn.name(), w.grad)

# CRF-style decode where the tag sequence has a single tag and a single step
emissions = torch.tensor([[[1.5]]])                 # (B=1, L=1, T=1)
e = emissions.squeeze()
print(e.logsumexp(0), e.max(0).values, e.max(0).indices.item())


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)
        with torch.no_grad():
            self.lin.weight.copy_(torch.tensor([[0.2, -0.1, 0.4]]))
            self.lin.bias.fill_(0.05)

    def forward(self, x):
        return self.lin(x).squeeze()


m = Scorer()
for n in [3, 1]:
    x = torch.linspace(0, 1, n * 3).reshape(n, 3)
    sc = m(x)
    p = F.softmax(sc, dim=0)
    print(n, sc.shape, p, p.sum(), torch.logsumexp(sc, 0))
    top = sc.max(0)
    print(top.values, top.indices)
    loss = -F.log_softmax(sc, 0).max(0).values
    loss.backward()
    print(m.lin.weight.grad)
    m.zero_grad()
