# Lowest vibration modes of a 2-D membrane (5-point Laplacian on a grid) with torch.lobpcg
# from a deterministic initial block, compared with the exact sine-mode eigenvalues and
# torch.linalg.eigh; generalized problem with a diagonal mass matrix (B=...), largest=False;
# sensitivity of the ground state to a potential (dE/dV = u^2) by backward through lobpcg.
import math
import torch

torch.set_default_dtype(torch.float64)

n = 8
h = 1.0 / (n + 1)
T = (2 * torch.eye(n) - torch.diag(torch.ones(n - 1), 1) - torch.diag(torch.ones(n - 1), -1)) / h ** 2
I = torch.eye(n)
L = torch.kron(T, I) + torch.kron(I, T)
print("Laplacian:", tuple(L.shape), "symmetric:", torch.equal(L, L.T))

exact = sorted(4 / h ** 2 * (math.sin(i * math.pi * h / 2) ** 2 + math.sin(j * math.pi * h / 2) ** 2)
               for i in range(1, n + 1) for j in range(1, n + 1))
k = 3
idx = torch.arange(n * n, dtype=torch.float64)
X0 = torch.stack([torch.cos(0.05 * (m + 1) * idx) + 0.01 * m for m in range(k)], dim=1)

E, V = torch.lobpcg(L, k=k, X=X0, largest=False, tol=1e-10, niter=200)
print("lobpcg eigenvalues:", [round(v, 3) for v in E.tolist()])
print("exact lowest:", [round(v, 3) for v in exact[:k]])
print("eigh lowest:", [round(v, 3) for v in torch.linalg.eigh(L).eigenvalues[:k].tolist()])
print("V shape:", tuple(V.shape), "orthonormal:", torch.allclose(V.T @ V, torch.eye(k), atol=1e-8))
resid = (L @ V - V * E).norm(dim=0)
print("residuals small:", bool((resid < 1e-6 * E).all()))

E_top, _ = torch.lobpcg(L, k=2, X=X0[:, :2], largest=True, tol=1e-10, niter=300)
print("largest:", [round(v, 2) for v in E_top.tolist()], "exact:", [round(v, 2) for v in exact[-2:][::-1]])

# generalized problem L v = lambda M v with a lumped mass matrix
M = torch.diag(1.0 + 0.5 * torch.sin(idx / 7.0) ** 2)
Eg, Vg = torch.lobpcg(L, k=2, B=M, X=X0[:, :2], largest=False, tol=1e-10, niter=300)
ref = torch.linalg.eigvalsh(torch.diag(M.diagonal() ** -0.5) @ L @ torch.diag(M.diagonal() ** -0.5))[:2]
print("generalized:", [round(v, 3) for v in Eg.tolist()], "ref:", [round(v, 3) for v in ref.tolist()])
print("M-orthonormal:", torch.allclose(Vg.T @ M @ Vg, torch.eye(2), atol=1e-8))

# Schroedinger-like operator L + diag(V): the ground-state energy's gradient is u^2
V = (0.5 * torch.cos(idx / 5.0)).requires_grad_(True)
E0, U0 = torch.lobpcg(L + torch.diag(V), k=1, X=X0[:, :1], largest=False, tol=1e-10, niter=300)
E0.sum().backward()
print("ground energy:", round(E0.item(), 3), "grad_fn:", type(E0.grad_fn).__name__)
print("dE/dV == u^2:", torch.allclose(V.grad, U0.detach().squeeze(1) ** 2, atol=1e-8))
print("dE/dV first entries:", [round(v, 5) for v in V.grad[:4].tolist()])
try:
    torch.lobpcg(L + torch.diag(V), k=1, B=M, X=X0[:, :1])[0].sum().backward()
except ValueError as e:
    print(type(e).__name__, e)

try:
    torch.lobpcg(L[:5, :5], k=3, X=X0[:5])
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0])
