# GP regression in the pre-1.9 PyTorch API still found in older research code and blog posts:
# torch.cholesky(K, False) with positional upper, torch.triangular_solve(b, L, upper=False),
# Tensor.cholesky / Tensor.cholesky_solve methods, and the graph those deprecated calls record.
import math
import warnings
import torch

warnings.simplefilter("ignore")  # the deprecation warnings go to stderr anyway
torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)

X = torch.linspace(0, 3, 10).unsqueeze(1)
y = torch.cos(2 * X).squeeze(1)
log_ls = torch.tensor(-0.5, requires_grad=True)
log_noise = torch.tensor(-3.0, requires_grad=True)


def kernel(a, b):
    return torch.exp(-0.5 * (a - b.t()) ** 2 / torch.exp(2 * log_ls))


K = kernel(X, X) + torch.exp(log_noise) * torch.eye(10)
L = torch.cholesky(K, False)
U = K.cholesky(True)
print(L.grad_fn, U.grad_fn.name(), torch.allclose(L, U.t()))
alpha_1 = torch.triangular_solve(y.unsqueeze(1), L, upper=False)[0]
alpha = torch.triangular_solve(alpha_1, L.t(), upper=True).solution
print(alpha_1.grad_fn.name(), alpha.shape)
print("same as cholesky_solve", torch.allclose(alpha, y.unsqueeze(1).cholesky_solve(L)))
nll = 0.5 * (y.unsqueeze(1) * alpha).sum() + L.diag().log().sum() + 5 * math.log(2 * math.pi)
nll.backward()
print(f"nll {nll.item():.5f} grads {log_ls.grad.item():.5f} {log_noise.grad.item():.5f}")

opt = torch.optim.Adam([log_ls, log_noise], lr=0.05)
for i in range(30):
    opt.zero_grad()
    K = kernel(X, X) + torch.exp(log_noise) * torch.eye(10)
    L = torch.cholesky(K)
    a = torch.cholesky_solve(y.unsqueeze(1), L)
    loss = 0.5 * (y.unsqueeze(1) * a).sum() + L.diag().log().sum() + 5 * math.log(2 * math.pi)
    loss.backward()
    opt.step()
    if i % 10 == 9:
        print(f"iter {i + 1} nll {loss.item():.4f} ls {log_ls.exp().item():.4f} noise {log_noise.exp().item():.5f}")

with torch.no_grad():
    Xs = torch.tensor([[0.25], [1.6], [2.9]])
    Ks = kernel(X, Xs)
    v = torch.triangular_solve(Ks, L, upper=False).solution
    mean = Ks.t() @ torch.cholesky_solve(y.unsqueeze(1), L)
    var = 1 - (v ** 2).sum(0)
print(mean.squeeze(1), var, torch.cos(2 * Xs).squeeze(1))
for bad in (torch.ones(3, 3), torch.ones(2, 3)):
    try:
        torch.cholesky(bad)
    except RuntimeError as e:
        print(type(e).__name__, e)
