# Ridge regression three ways: closed form (X^T X + lambda I)^-1 X^T y, the same through
# torch.linalg.solve with a regularisation path, and gradient descent with weight decay; then
# leave-one-out via the hat matrix and the gradient of the validation loss w.r.t. lambda.
import torch

torch.set_printoptions(precision=5)
n, d = 12, 4
t = torch.arange(n, dtype=torch.float32)
X = torch.stack([torch.sin(t * (k + 1) * 0.37) for k in range(d)], dim=1)
w_true = torch.tensor([1.0, -2.0, 0.5, 3.0])
y = X @ w_true + 0.1 * torch.cos(3.1 * t)
print(X[:3])


def ridge(X, y, lam):
    d = X.shape[1]
    A = X.T @ X + lam * torch.eye(d)
    return torch.linalg.solve(A, X.T @ y)


for lam in [0.0, 0.1, 1.0, 10.0]:
    w = ridge(X, y, lam)
    print(f"lambda={lam:5.1f} w={[round(v, 4) for v in w.tolist()]} |w|={w.norm().item():.4f}")

# the same with torch.inverse and torch.eye_like idioms
lam = 0.5
A = X.T @ X + lam * torch.eye(d, dtype=X.dtype)
w_inv = torch.inverse(A) @ X.T @ y
w_inv2 = torch.linalg.inv(A).matmul(X.t()).mv(y)
print(w_inv, torch.allclose(w_inv, w_inv2, atol=1e-5))

# hat matrix and effective degrees of freedom
H = X @ torch.linalg.inv(A) @ X.T
print(H.shape, torch.trace(H), H.diagonal().sum(), torch.diagonal(H)[:4])
resid = y - H @ y
loo = resid / (1 - torch.diag(H))
print(f"LOO MSE {loo.pow(2).mean().item():.6f}")

# via SVD: w = V diag(s/(s^2+lam)) U^T y
U, S, Vh = torch.linalg.svd(X, full_matrices=False)
print(U.shape, S.shape, Vh.shape, S)
w_svd = Vh.T @ torch.diag(S / (S ** 2 + lam)) @ U.T @ y
print(torch.allclose(w_svd, w_inv, atol=1e-4))
df = (S ** 2 / (S ** 2 + lam)).sum()
print(df, torch.isclose(df, torch.trace(H), atol=1e-4))

# gradient descent with weight decay converges to the same answer
w = torch.zeros(d, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05)
for step in range(400):
    opt.zero_grad()
    loss = 0.5 * ((X @ w - y) ** 2).sum() + 0.5 * lam * (w ** 2).sum()
    loss.backward()
    opt.step()
print(w.detach(), torch.allclose(w.detach(), w_inv, atol=1e-3))

# hyper-gradient: d(validation loss)/d(lambda) through the solve
log_lam = torch.tensor(0.0, requires_grad=True)
Xtr, ytr, Xva, yva = X[:8], y[:8], X[8:], y[8:]
for it in range(3):
    w = ridge(Xtr, ytr, log_lam.exp())
    val = ((Xva @ w - yva) ** 2).mean()
    g, = torch.autograd.grad(val, log_lam)
    print(f"it {it} lam={log_lam.exp().item():.4f} val={val.item():.6f} dval/dloglam={g.item():.6f}")
    with torch.no_grad():
        log_lam -= 2.0 * g
print(val.grad_fn.name(), w.grad_fn.name())

# solve with a batched right-hand side and a lambda per problem
lams = torch.tensor([0.1, 1.0, 10.0])
As = X.T @ X + lams.view(-1, 1, 1) * torch.eye(d)
ws = torch.linalg.solve(As, (X.T @ y).expand(3, d))
print(ws.shape, ws.norm(dim=1))
