# Randomized low-rank factorizations used for scalable kernel methods: torch.svd_lowrank and
# torch.pca_lowrank on a fixed kernel / data matrix with q equal to the full rank, so the singular
# values are exact; reconstructions, explained variance, and shapes of U, S, V.
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

# a rank-3 data matrix (n=12 samples, d=5 features)
t = torch.linspace(0, 1, 12)
basis = torch.stack([torch.sin(3 * t), torch.cos(2 * t), t ** 2], 1)
mix = torch.tensor([[1.0, 0.5, 0.0, -1.0, 2.0], [0.0, 1.0, 1.0, 0.5, -0.5], [2.0, 0.0, -1.0, 0.0, 1.0]])
A = basis @ mix
print(A.shape, torch.linalg.matrix_rank(A).item())

U, S, V = torch.svd_lowrank(A, q=5)
print(U.shape, S.shape, V.shape, U.dtype)
print("S lowrank", S)
print("S exact  ", torch.linalg.svdvals(A))
print("recon ok", torch.allclose(U @ torch.diag(S) @ V.T, A, atol=1e-8))
print("U orthonormal", torch.allclose(U.T @ U, torch.eye(5), atol=1e-8))
print("|U^T u_exact| diag", (U[:, :3].T @ torch.linalg.svd(A, full_matrices=False)[0][:, :3]).abs().diagonal())

U3, S3, V3 = torch.svd_lowrank(A, q=3, niter=4)
print("rank-3 S", S3)
print("rank-3 recon ok", torch.allclose(U3 @ torch.diag(S3) @ V3.mT, A, atol=1e-8))

# PCA: pca_lowrank centers the data by default
U, S, V = torch.pca_lowrank(A, q=5)
Ac = A - A.mean(0, keepdim=True)
print("pca S", S)
print("centered svdvals", torch.linalg.svdvals(Ac))
explained = S ** 2 / (S ** 2).sum()
print("explained variance ratio", explained)
proj = A @ V[:, :2]
print("projection shape", proj.shape)
print("proj var (sorted)", (Ac @ V[:, :2]).var(0).sort(descending=True).values)
U, S, V = torch.pca_lowrank(A, q=5, center=False)
print("uncentered S", S)

# batched input
Ab = torch.stack([A, 2 * A])
Ub, Sb, Vb = torch.svd_lowrank(Ab, q=4)
print(Ub.shape, Sb.shape, Vb.shape)
print(Sb[:, :3])

# kernel matrix: top eigenvalues of an RBF Gram matrix (PSD so singular values = eigenvalues)
x = torch.linspace(-2, 2, 10).unsqueeze(1)
K = torch.exp(-0.5 * torch.cdist(x, x) ** 2)
Uk, Sk, Vk = torch.svd_lowrank(K, q=10)
print("kernel S", Sk[:4], "eigvalsh", torch.linalg.eigvalsh(K).flip(0)[:4])
try:
    torch.pca_lowrank(A, q=7)
except Exception as e:
    print(type(e).__name__, e)
