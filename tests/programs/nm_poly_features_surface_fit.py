# Multivariate polynomial surface fit: monomial exponents from combinations(with_replacement),
# grid points from cartesian_prod, least squares with lstsq, residual statistics and quantiles.
import torch

xs = torch.linspace(-1, 1, 7, dtype=torch.float64)
pts = torch.cartesian_prod(xs, xs)
x, y = pts[:, 0], pts[:, 1]
z = (1 + 0.5 * x - 2 * y + 3 * x * y + 0.25 * x ** 2 + 0.2 * y ** 2 - 0.15 * x ** 3
     + 0.05 * y ** 3 + 0.1 * x * x * y + 0.07 * x * y * y + 0.1 * torch.sin(5 * x * y))
print("grid:", pts.shape)

degree = 3
terms = [()]
for d in range(1, degree + 1):
    terms += [tuple(c) for c in torch.combinations(torch.arange(2), r=d, with_replacement=True).tolist()]
print("terms:", terms)
cols = [torch.ones_like(x)]
for t in terms[1:]:
    col = torch.ones_like(x)
    for var in t:
        col = col * pts[:, var]
    cols.append(col)
A = torch.stack(cols, dim=1)
print("design:", A.shape, "rank", torch.linalg.matrix_rank(A).item())
sol = torch.linalg.lstsq(A, z.unsqueeze(1), driver="gelsd")
coef = sol.solution.squeeze(1)
for t, c in zip(terms, coef.tolist()):
    name = "*".join("xy"[v] for v in t) or "1"
    print(f"  {name:6s} {c:+.4f}")

res = z - A @ coef
print(f"rms residual: {res.pow(2).mean().sqrt().item():.5f}")
print("residual quantiles:", torch.quantile(res, torch.tensor([0.05, 0.25, 0.95], dtype=torch.float64)).round(decimals=5))
print(f"max |residual|: {res.abs().max().item():.5f}")
s, m = torch.std_mean(res)
print(f"std={s.item():.5f} mean~0: {abs(m.item()) < 1e-12}")
print("corr(z, fit):", f"{torch.corrcoef(torch.stack([z, A @ coef]))[0, 1].item():.6f}")

# cross-validation folds from combinations of block ids
blocks = torch.arange(len(z)) % 4
for held in torch.combinations(torch.arange(4), r=1).squeeze(1).tolist():
    train = blocks != held
    c = torch.linalg.lstsq(A[train], z[train].unsqueeze(1)).solution.squeeze(1)
    err = (A[~train] @ c - z[~train]).abs().mean()
    print(f"fold {held}: n_train={int(train.sum())} mae={err.item():.5f}")
