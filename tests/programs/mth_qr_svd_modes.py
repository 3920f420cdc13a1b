# QR and SVD modes from a numerical linear algebra tutorial: reduced/complete/r QR, SVD with
# full_matrices on tall and wide matrices, svdvals, and reconstruction errors.
import torch

torch.set_printoptions(precision=4, sci_mode=False)

A = torch.tensor([[2.0, -1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, 1.0]],
                 dtype=torch.float64)

for mode in ["reduced", "complete", "r"]:
    Q, R = torch.linalg.qr(A, mode=mode)
    print(mode, "Q", tuple(Q.shape), "R", tuple(R.shape))
    if mode != "r":
        print("  recon err < 1e-12:", bool((Q @ R - A).abs().max() < 1e-12))
        print("  orthonormal:", torch.allclose(Q.T @ Q, torch.eye(Q.shape[1], dtype=A.dtype)))
    print("  |diag R|", R.diagonal().abs())

res = torch.linalg.qr(A)
print(type(res).__name__, res.Q.shape, res.R.shape)
try:
    torch.linalg.qr(A, mode="economic")
except Exception as e:
    print(type(e).__name__, e)

# legacy torch.qr / Tensor.qr
Q2, R2 = torch.qr(A)
print("Tensor.qr", Q2.shape, R2.shape)

# wide matrix
W = A.T.contiguous()
Qw, Rw = torch.linalg.qr(W)
print("wide reduced", Qw.shape, Rw.shape)
Qw, Rw = torch.linalg.qr(W, mode="complete")
print("wide complete", Qw.shape, Rw.shape)

for full in [True, False]:
    for M in [A, W]:
        U, S, Vh = torch.linalg.svd(M, full_matrices=full)
        print(f"svd full={full} in {tuple(M.shape)} -> U {tuple(U.shape)} S {tuple(S.shape)} Vh {tuple(Vh.shape)}")
        k = S.shape[0]
        recon = U[:, :k] @ torch.diag(S) @ Vh[:k, :]
        print("  recon ok", torch.allclose(recon, M))

print("svdvals", torch.linalg.svdvals(A))
print("svdvals float32", torch.linalg.svdvals(A.float()))
r = torch.linalg.svd(A, full_matrices=False)
print(type(r).__name__, r.S)

# legacy torch.svd returns V, not Vh, and some=True
U, S, V = torch.svd(A)
print("torch.svd", U.shape, S.shape, V.shape)
U, S, V = torch.svd(A, some=False)
print("torch.svd some=False", U.shape, S.shape, V.shape)

# batched svdvals and condition number
batch = torch.stack([A[:3], A[:3] + torch.eye(3, dtype=torch.float64), torch.diag(torch.tensor([1.0, 1e-3, 1e-6], dtype=torch.float64))])
sv = torch.linalg.svdvals(batch)
print("batched svdvals", sv)
print("cond", torch.linalg.cond(batch))
print("cond via sv", sv[:, 0] / sv[:, -1])
print("matrix_rank", torch.linalg.matrix_rank(batch))
print("matrix_rank tol", torch.linalg.matrix_rank(batch, atol=1e-4))
print("matrix_rank rtol", torch.linalg.matrix_rank(batch, rtol=1e-2))

# low-rank approximation
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
A1 = S[0] * torch.outer(U[:, 0], Vh[0])
print("rank-1 error (fro)", torch.linalg.norm(A - A1).item().__round__(6))
print("equals sigma_2..", torch.sqrt((S[1:] ** 2).sum()).item().__round__(6))
