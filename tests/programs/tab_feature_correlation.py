# Exploratory analysis of numeric features: covariance and correlation matrices (torch.cov,
# torch.corrcoef and by hand), frequency/analytic weights, picking the most correlated features.
import torch

X = torch.tensor([[1.0, 2.0, 0.5, 10.0], [2.0, 1.0, 1.5, 10.0], [4.0, 0.0, 2.0, 10.0],
                  [3.0, 3.0, 1.0, 10.0], [5.0, 1.0, 2.5, 10.0], [6.0, 2.0, 3.0, 10.0]])
y = torch.tensor([1.2, 1.9, 4.1, 3.2, 5.1, 6.3])
names = ["rooms", "age", "size", "const"]
print(torch.cov(X.T))
print(torch.cov(X.T, correction=0).diag(), X.var(0, unbiased=False))
Xc = X - X.mean(0)
cov_hand = Xc.T @ Xc / (X.shape[0] - 1)
print(torch.allclose(cov_hand, torch.cov(X.T), atol=1e-6))
corr = torch.corrcoef(X.T)
print(corr)
print(corr.isnan().any(1), torch.nan_to_num(corr, nan=0.0)[0])
std = X.std(0)
corr_hand = cov_hand / torch.outer(std, std)
print(torch.allclose(corr_hand[:3, :3], corr[:3, :3]), corr_hand[3])
data = torch.cat([X[:, :3], y.unsqueeze(1)], dim=1)
r = torch.corrcoef(data.T)[-1, :-1]
print(r, r.abs().argsort(descending=True).tolist())
best = r.abs().topk(2)
print(best, [names[i] for i in best.indices])
print(torch.cov(X[:, 0]), torch.cov(torch.stack([X[:, 0], y])), torch.corrcoef(torch.stack([X[:, 0], y]))[0, 1])
fw = torch.tensor([1, 2, 1, 1, 3, 1])
aw = torch.tensor([0.5, 1.0, 1.0, 2.0, 1.0, 0.5])
print(torch.cov(X[:, :3].T, fweights=fw))
print(torch.cov(X[:, :3].T, aweights=aw))
print(torch.cov(X[:, :3].T, fweights=fw, aweights=aw, correction=0))
rep = X[:, :3].repeat_interleave(fw, dim=0)
print(rep.shape, torch.allclose(torch.cov(rep.T), torch.cov(X[:, :3].T, fweights=fw)))
for kwargs in [dict(fweights=fw.float()), dict(fweights=torch.tensor([1, -1, 1, 1, 1, 1])),
               dict(aweights=torch.tensor([1.0, -1.0, 1.0, 1.0, 1.0, 1.0])), dict(fweights=torch.tensor([1, 2]))]:
    try:
        print(torch.cov(X[:, :3].T, **kwargs))
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    torch.cov(torch.zeros(2, 2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.cov(torch.tensor([[1, 2, 4], [0, 3, 3]])), torch.corrcoef(torch.tensor([[1, 2, 4], [0, 3, 3]])).dtype)
print(torch.cov(torch.tensor([[1.0, 2.0]]), correction=2), torch.cov(torch.tensor([[1.0]])))
w = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 1.0]], requires_grad=True)
c = torch.corrcoef(w)[0, 1]
c.backward()
print(c, w.grad, torch.cov(w).grad_fn is not None)
