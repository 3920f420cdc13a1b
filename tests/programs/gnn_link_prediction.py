# Link prediction by hand: hold out edges with a deterministic split, build negative edges from
# the complement of the adjacency (triu + nonzero), dot-product decoder, BCE-with-logits training,
# and a rank-based AUC computed with argsort / unique(return_inverse) for ties.
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 6
und = torch.tensor([[0, 0, 1, 2, 3, 4, 1],
                    [1, 2, 2, 3, 4, 5, 3]])
E = und.size(1)
perm = torch.arange(E).flip(0)          # a "shuffle" both libraries agree on
n_test = 2
test_pos = und[:, perm[:n_test]]
train_pos = und[:, perm[n_test:]]
print(train_pos, test_pos, sep="\n")
train_ei = torch.cat([train_pos, train_pos.flip(0)], dim=1)

adj = torch.zeros(N, N, dtype=torch.bool)
adj[und[0], und[1]] = True
adj = adj | adj.t()
cand = (~adj).triu(diagonal=1).nonzero().t()
print(cand.shape, cand[:, :5])
neg = cand[:, torch.linspace(0, cand.size(1) - 1, E).long()]
print(neg, neg.dtype)
print(torch.isin(neg[0] * N + neg[1], und[0] * N + und[1]).any())

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N, 3)
        self.lin = nn.Linear(3, 3)
        with torch.no_grad():
            self.emb.weight.copy_(torch.arange(N * 3.).view(N, 3).sin())
            self.lin.weight.copy_(torch.eye(3) * 0.8 + 0.1)
            self.lin.bias.zero_()

    def forward(self, ei):
        h = self.emb.weight
        deg = torch.bincount(ei[1], minlength=N).float().clamp_(min=1)
        agg = torch.zeros_like(h).index_add_(0, ei[1], h[ei[0]]) / deg[:, None]
        return torch.tanh(self.lin(h + agg))

def decode(z, pairs):
    return (z[pairs[0]] * z[pairs[1]]).sum(dim=-1)

model = Encoder()
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
for step in range(30):
    opt.zero_grad()
    z = model(train_ei)
    logits = torch.cat([decode(z, train_pos), decode(z, neg[:, :train_pos.size(1)])])
    labels = torch.cat([torch.ones(train_pos.size(1)), torch.zeros(train_pos.size(1))])
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1:2d} loss {loss.item():.5f}")
print(logits.grad_fn.name(), labels.dtype)

def auc(scores, labels):
    # Mann-Whitney U with average ranks for ties
    vals, inv = torch.unique(scores, return_inverse=True)
    order = torch.argsort(scores, stable=True)
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    avg = torch.zeros(len(vals)).scatter_reduce(0, inv, ranks, "mean", include_self=False)
    r = avg[inv]
    n_pos = labels.sum()
    n_neg = len(labels) - n_pos
    return ((r[labels.bool()].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()

model.eval()
with torch.no_grad():
    z = model(train_ei)
    s = torch.cat([decode(z, test_pos), decode(z, neg[:, -n_test:])]).sigmoid()
    y = torch.cat([torch.ones(n_test), torch.zeros(n_test)])
print(s, f"AUC {auc(s, y):.4f}")
print(auc(torch.tensor([0.1, 0.4, 0.4, 0.8]), torch.tensor([0., 1., 0., 1.])))
print(torch.sigmoid(z @ z.t()).diagonal(), (z @ z.t()).triu(1).topk(3).indices.shape)
print(model.emb.weight.grad is None, model.emb.weight.grad.abs().sum() > 0)
