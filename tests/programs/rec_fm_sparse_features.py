# Factorization machine over a sparse one-hot design matrix (libFM style): feature ids and
# values per row, embedding lookup scaled by values, the O(kn) interaction, and the same model
# as torch.sparse-free dense math checked against an explicit pairwise loop.
import torch
import torch.nn as nn

# rows: (feature ids, values); fields user(0-2), item(3-6), rating-age numeric (7)
feat_ids = torch.tensor([[0, 3, 7], [1, 4, 7], [2, 5, 7], [0, 6, 7], [1, 3, 7], [2, 4, 7]])
feat_vals = torch.tensor([[1, 1, 0.3], [1, 1, 0.9], [1, 1, 0.1], [1, 1, 0.5], [1, 1, 0.7], [1, 1, 0.2]])
y = torch.tensor([4.0, 2.0, 5.0, 3.0, 1.0, 4.0])
n_features, k = 8, 3


class FM(nn.Module):
    def __init__(self):
        super().__init__()
        self.w0 = nn.Parameter(torch.zeros(()))
        self.w = nn.Embedding(n_features, 1)
        self.v = nn.Embedding(n_features, k)

    def forward(self, ids, vals):
        linear = self.w0 + (self.w(ids).squeeze(-1) * vals).sum(1)
        vx = self.v(ids) * vals.unsqueeze(-1)
        inter = 0.5 * (vx.sum(1).pow(2) - vx.pow(2).sum(1)).sum(1)
        return linear + inter


fm = FM()
with torch.no_grad():
    fm.w.weight.copy_(torch.linspace(-0.2, 0.2, n_features).unsqueeze(1))
    fm.v.weight.copy_(torch.sin(torch.arange(n_features * k, dtype=torch.float32)).view(n_features, k) * 0.3)
    fm.w0.fill_(y.mean())
pred = fm(feat_ids, feat_vals)
print(pred.detach().round(decimals=4))
dense = torch.zeros(len(y), n_features).scatter_(1, feat_ids, feat_vals)
print(dense)
V = fm.v.weight.detach()
explicit = torch.stack([sum((V[i] @ V[j]) * row[i] * row[j] for i in range(n_features) for j in range(i + 1, n_features)) for row in dense])
print(torch.allclose(explicit, pred.detach() - fm.w0.detach() - dense @ fm.w.weight.detach().squeeze(1), atol=1e-5))
gram = V @ V.T
print(torch.allclose(0.5 * ((dense @ V).pow(2).sum(1) - (dense.pow(2) @ V.pow(2)).sum(1)), explicit, atol=1e-5))
print(gram.triu(diagonal=1).nonzero().shape)

opt = torch.optim.SGD(fm.parameters(), lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for epoch in range(30):
    loss = ((fm(feat_ids, feat_vals) - y) ** 2).mean() + 1e-3 * fm.v(feat_ids).pow(2).sum() / len(y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}")
print(fm.w0.grad is not None, fm.v.weight.grad.shape)
print(fm(torch.tensor([[1, 6, 7]]), torch.tensor([[1.0, 1.0, 0.4]])).shape)
