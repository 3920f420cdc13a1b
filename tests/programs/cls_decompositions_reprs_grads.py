# Decomposition results as users print them: the torch.return_types reprs of qr / svd / eigh /
# slogdet / cholesky_ex / inv_ex, tuple unpacking and indexing, and gradients flowing through
# Q, R, U, S, Vh and L (sign-invariant losses only).
import torch

torch.set_printoptions(precision=4)
A = torch.tensor([[2., 1.], [1., 3.], [0., 1.]])
S2 = torch.tensor([[4., 2.], [2., 3.]])

qr = torch.linalg.qr(A)
print(qr)
print(type(qr).__name__, len(qr), qr[1] is qr.R or torch.equal(qr[1], qr.R))
sv = torch.linalg.svd(S2)
print(sv.S, type(sv).__name__, isinstance(sv, tuple))
print(torch.svd(S2).S, type(torch.svd(S2)).__name__)
print(torch.linalg.cholesky_ex(S2))
print(torch.linalg.inv_ex(S2).info, torch.linalg.inv_ex(S2).inverse)
print(torch.linalg.slogdet(S2))
print(torch.linalg.eigh(S2).eigenvalues, type(torch.linalg.eigh(S2)).__name__)
mx = torch.max(A, dim=0)
print(mx, type(mx).__name__)
L, info = torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]]))
print(info, info.dtype)

# gradients through QR: loss depends on R's diagonal magnitudes and on Q Q^T
Ag = A.clone().requires_grad_(True)
Q, R = torch.linalg.qr(Ag)
loss = R.diagonal().abs().sum() + (Q @ Q.T).trace()
loss.backward()
print(Q.grad_fn.name(), R.grad_fn.name(), loss)
print(Ag.grad)

# gradients through SVD: singular values and the rank-1 approximation (sign invariant)
Ag = A.clone().requires_grad_(True)
U, S, Vh = torch.linalg.svd(Ag, full_matrices=False)
rank1 = S[0] * torch.outer(U[:, 0], Vh[0])
loss = (rank1 ** 2).sum() + S.sum()
loss.backward()
print(U.grad_fn.name(), S.grad_fn.name(), loss)
print(Ag.grad)
Ag = A.clone().requires_grad_(True)
torch.linalg.svdvals(Ag).pow(2).sum().backward()
print(torch.allclose(Ag.grad, 2 * A, atol=1e-5))

# old torch.svd also differentiable
Ag = A.clone().requires_grad_(True)
u, s, v = torch.svd(Ag)
s.sum().backward()
print(s, Ag.grad)

# cholesky: gradient of log det via L, upper=True variant
Sg = S2.clone().requires_grad_(True)
L = torch.linalg.cholesky(Sg)
(2 * L.diagonal().log().sum()).backward()
print(L, Sg.grad, torch.allclose(Sg.grad, torch.inverse(S2), atol=1e-5))
Sg = S2.clone().requires_grad_(True)
Uc = torch.linalg.cholesky(Sg, upper=True)
Uc.sum().backward()
print(Uc, Uc.grad_fn.name(), Sg.grad)

# batched det / inv gradients
B = torch.stack([S2, S2 + torch.eye(2), 2 * S2]).requires_grad_(True)
dets = torch.linalg.det(B)
dets.sum().backward()
print(dets, B.grad[1])
B2 = torch.stack([S2, S2 + torch.eye(2)]).requires_grad_(True)
torch.linalg.inv(B2).sum().backward()
print(B2.grad)

# matrix_rank / cond / cov options
M = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]])
print(torch.linalg.matrix_rank(M), torch.linalg.matrix_rank(M, atol=1.0), torch.linalg.matrix_rank(S2, hermitian=True))
print(torch.linalg.cond(S2), torch.linalg.cond(S2, p='fro'), torch.linalg.cond(S2, p=1))
obs = torch.tensor([[1., 2., 4., 7.], [2., 1., 0., -1.]])
print(torch.cov(obs), torch.cov(obs, correction=0))
print(torch.cov(obs, fweights=torch.tensor([1, 2, 1, 1]), aweights=torch.tensor([1., 1., 0.5, 2.])))
print(torch.cov(obs[0]), torch.corrcoef(obs))
