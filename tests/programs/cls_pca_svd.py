# PCA from scratch: center the data, take torch.linalg.svd (or eigh of the covariance), and
# print sign-invariant quantities (explained variance, reconstruction error, projectors),
# plus torch.pca_lowrank-free variants people write: torch.svd (old API) and torch.cov.
import torch

torch.set_printoptions(precision=4)
t = torch.linspace(0, 2 * torch.pi, 10)
data = torch.stack([torch.cos(t) * 3 + 1, torch.sin(t) + torch.cos(t), 0.1 * torch.sin(3 * t), t / 5], dim=1)
print(data.shape, data.mean(dim=0).round(decimals=4))

mean = data.mean(dim=0, keepdim=True)
Xc = data - mean
U, S, Vh = torch.linalg.svd(Xc, full_matrices=False)
print(U.shape, S.shape, Vh.shape)
print(S)
explained = S ** 2 / (Xc.shape[0] - 1)
ratio = explained / explained.sum()
print(explained, ratio, ratio.cumsum(0))

# full_matrices=True shapes
U2, S2, Vh2 = torch.linalg.svd(Xc)
print(U2.shape, S2.shape, Vh2.shape, torch.allclose(S, S2))
print(torch.linalg.svdvals(Xc))

# projection onto 2 components; the projector is sign invariant
k = 2
P = Vh[:k].T @ Vh[:k]
print(P)
Z = Xc @ Vh[:k].T
print(Z.abs())
recon = Z @ Vh[:k] + mean
print(f"recon MSE {((recon - data) ** 2).mean().item():.6f}")
print(torch.allclose(U * S @ Vh, Xc, atol=1e-5), torch.allclose(U @ torch.diag(S) @ Vh, Xc, atol=1e-5))

# covariance + eigh
C = torch.cov(Xc.T)
C2 = Xc.T @ Xc / (Xc.shape[0] - 1)
print(torch.allclose(C, C2, atol=1e-6), C.shape)
evals, evecs = torch.linalg.eigh(C)
print(evals)
print(evals.flip(0), torch.allclose(evals.flip(0), explained, atol=1e-4))
top = evecs[:, -k:]
print(torch.allclose(top @ top.T, P, atol=1e-4))
print(torch.linalg.eigvalsh(C), torch.allclose(torch.linalg.eigh(C, UPLO='U').eigenvalues, evals, atol=1e-5))
res = torch.linalg.eigh(C)
print(type(res).__name__, res.eigenvalues.shape, res.eigenvectors.shape)

# old torch.svd returns V, not Vh
u, s, v = torch.svd(Xc)
print(u.shape, s.shape, v.shape, torch.allclose(s, S))
print(torch.allclose((v[:, :k] @ v[:, :k].T), P, atol=1e-5))
u3, s3, v3 = torch.svd(Xc, some=False)
print(u3.shape, v3.shape)

# correlation matrix
print(torch.corrcoef(data.T).round(decimals=4))

# whitening
W = Vh.T / S * (Xc.shape[0] - 1) ** 0.5
Zw = Xc @ W
print(torch.cov(Zw.T).diagonal())

# gradient of the nuclear norm and of the top singular value
A = Xc.clone().requires_grad_(True)
nuc = torch.linalg.matrix_norm(A, ord='nuc')
nuc.backward()
print(nuc, torch.allclose(A.grad, U @ Vh, atol=1e-4))
B = Xc.clone().requires_grad_(True)
top_s = torch.linalg.svdvals(B)[0]
top_s.backward()
print(top_s, torch.allclose(B.grad, torch.outer(U[:, 0], Vh[0]), atol=1e-4))
print(torch.linalg.matrix_norm(Xc, ord=2), torch.linalg.norm(Xc, 'fro'), torch.linalg.norm(Xc, ord=-2))
