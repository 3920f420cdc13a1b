# Gaussian-process style code: add jitter until torch.linalg.cholesky_ex reports success (info),
# solve with torch.cholesky_solve / cholesky_inverse, log-determinants with slogdet, the
# inv_ex / solve_ex "check info instead of raising" idiom, and gradients w.r.t. a learnable factor.
import torch

torch.set_printoptions(precision=4)
x = torch.tensor([0.0, 0.5, 1.0, 1.0, 2.0])     # a duplicated input makes K singular
K = torch.exp(-0.5 * (x[:, None] - x[None, :]) ** 2)
print(K.shape, torch.linalg.matrix_rank(K))

# the jitter loop from GP libraries
jitter = 0.0
for attempt in range(6):
    L, info = torch.linalg.cholesky_ex(K + jitter * torch.eye(5))
    print(f"attempt {attempt} jitter {jitter:.0e} info {info.item()}")
    if info == 0:
        break
    jitter = 1e-6 if jitter == 0 else jitter * 10
print(L.diagonal()[[0, 1, 2, 4]], L.diagonal()[3] < 0.01)

# a matrix that is clearly not positive definite: info says where it failed
bad = torch.tensor([[1., 2.], [2., 1.]])
res = torch.linalg.cholesky_ex(bad)
print(res.info, res.info.dtype)
print(res.L)
print(torch.linalg.cholesky_ex(torch.stack([torch.eye(2), bad, 2 * torch.eye(2)])).info)

# inv_ex / solve_ex on singular systems
sing = torch.tensor([[1., 2.], [2., 4.]])
inv_res = torch.linalg.inv_ex(sing)
print(inv_res.info, inv_res.inverse)
print(torch.linalg.inv_ex(torch.eye(2) * 2))
print(torch.linalg.solve_ex(torch.eye(2) * 2, torch.ones(2)))

# slogdet of the jittered kernel, and of singular / negative-determinant matrices
Kj = K + jitter * torch.eye(5)
sign, logabsdet = torch.linalg.slogdet(Kj)
print(sign, f"{logabsdet.item():.1f}", torch.allclose(logabsdet, 2 * L.diagonal().log().sum(), atol=1e-3))
print(torch.linalg.slogdet(sing))
print(torch.linalg.slogdet(torch.tensor([[0., 1.], [1., 0.]])))
print(torch.logdet(torch.tensor([[0., 1.], [1., 0.]])), torch.logdet(torch.eye(3) * 2))

# posterior mean with cholesky_solve; cholesky_inverse gives K^-1
y = torch.sin(x)
S = torch.tensor([[2., 0.5], [0.5, 1.]])
Ls = torch.linalg.cholesky(S)
print(torch.cholesky_solve(torch.tensor([[1.], [1.]]), Ls), torch.cholesky_inverse(Ls))
print(torch.cholesky_solve(torch.tensor([[1.], [1.]]), Ls.T, upper=True).squeeze())

# learnable lower-triangular factor (a "scale_tril" parameter)
Lp = Ls.clone().requires_grad_(True)
alpha = torch.cholesky_solve(torch.tensor([[1.], [1.]]), Lp)
alpha.sum().backward()
print(alpha.grad_fn.name(), Lp.grad)

Sg = S.clone().requires_grad_(True)
sgn, lad = torch.linalg.slogdet(Sg)
print(sgn, sgn.requires_grad, lad.grad_fn.name())
lad.backward()
print(Sg.grad)

# pseudo-inverse as a differentiable layer
M = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
Mp = torch.linalg.pinv(M)
print(Mp.grad_fn.name(), Mp)
(Mp @ torch.tensor([1., 0., 1.])).sum().backward()
print(M.grad.round(decimals=4) + 0.0)  # + 0.0: an entry that is 0 up to SVD rounding prints as 0.
