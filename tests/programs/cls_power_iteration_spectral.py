# Eigen-methods written by hand: power iteration with F.normalize and the Rayleigh quotient,
# deflation for the second eigenvector, PageRank, spectral clustering with the graph Laplacian
# and torch.linalg.eigh.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
A = torch.tensor([[4., 1., 0.5, 0.], [1., 3., 0., 0.2], [0.5, 0., 2., 0.1], [0., 0.2, 0.1, 1.]])

v = torch.ones(4)
for it in range(50):
    v = F.normalize(A @ v, dim=0)
lam = v @ A @ v
print(f"{lam.item():.4f}", v.abs())
evals, evecs = torch.linalg.eigh(A)
print(evals, torch.allclose(lam, evals[-1], atol=1e-4))
print(torch.allclose(v.abs(), evecs[:, -1].abs(), atol=1e-4))

# deflation
A2 = A - lam * torch.outer(v, v)
u = torch.tensor([1., -1., 1., -1.])
for it in range(100):
    u = A2 @ u
    u = u / torch.linalg.vector_norm(u)
print(f"{(u @ A2 @ u).item():.4f}", torch.allclose((u @ A2 @ u), evals[-2], atol=1e-3))

# reconstruct A from the eigendecomposition
print(torch.allclose(evecs @ torch.diag(evals) @ evecs.T, A, atol=1e-5))
print(torch.allclose(evecs.T @ evecs, torch.eye(4), atol=1e-5))
print(torch.allclose(evecs @ torch.diag_embed(evals) @ evecs.mT, A, atol=1e-5))

# PageRank on a 5-node graph
links = torch.tensor([[0, 1], [0, 2], [1, 2], [2, 0], [3, 2], [4, 0], [4, 3]])
M = torch.zeros(5, 5)
M[links[:, 1], links[:, 0]] = 1.0
M = M / M.sum(0, keepdim=True)
d = 0.85
r = torch.full((5,), 1 / 5)
for it in range(60):
    r = (1 - d) / 5 + d * M @ r
print(r, r.sum(), r.argsort(descending=True))

# spectral clustering: two cliques joined by one edge
W = torch.zeros(6, 6)
for a, b in [(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5), (2, 3)]:
    W[a, b] = W[b, a] = 1.0
deg = W.sum(1)
Lap = torch.diag(deg) - W
ev, U = torch.linalg.eigh(Lap)
print(ev.round(decimals=4).abs())
fiedler = U[:, 1]
labels = (fiedler * fiedler[0].sign() > 0).long()
print(labels)
Dm = torch.diag(deg.rsqrt())
Lsym = torch.eye(6) - Dm @ W @ Dm
print(torch.linalg.eigvalsh(Lsym)[:2].abs() < 1e-5, torch.linalg.eigvalsh(Lsym)[1:3])

# gradient of the largest eigenvalue through eigvalsh
S = A.clone().requires_grad_(True)
torch.linalg.eigvalsh(S)[-1].backward()
print(torch.allclose(S.grad, torch.outer(evecs[:, -1], evecs[:, -1]), atol=1e-4))
# gradient of power iteration unrolled (no eigh involved)
S2 = A.clone().requires_grad_(True)
x = torch.ones(4)
for it in range(30):
    x = F.normalize(S2 @ x, dim=0)
(x @ S2 @ x).backward()
print(torch.allclose(S2.grad, torch.outer(v, v), atol=1e-3))
