# Scientific-computing style: a 1-D finite-difference Laplacian assembled as a sparse COO matrix
# (duplicates summed by coalesce), explicit heat diffusion with torch.sparse.mm, sparse + sparse
# operator algebra, scalar scaling, and a power iteration for the largest eigenvalue.
import torch

n = 8
rows, cols, vals = [], [], []
for k in range(n):
    # assemble element by element, the way FEM codes do: duplicates on the diagonal
    for j, w in ((k - 1, -1.0), (k + 1, -1.0)):
        if 0 <= j < n:
            rows += [k, k]
            cols += [j, k]
            vals += [w, 1.0]
L = torch.sparse_coo_tensor(torch.tensor([rows, cols]), torch.tensor(vals, dtype=torch.float64),
                            (n, n))
print(L._nnz(), L.is_coalesced())
L = L.coalesce()
print(L._nnz(), L.is_coalesced())
print(L.to_dense())

I = torch.sparse_coo_tensor(torch.arange(n).repeat(2, 1), torch.ones(n, dtype=torch.float64),
                            (n, n))
dt = 0.2
step_op = I - L * dt
print(step_op.coalesce().values()[:5])
u = torch.exp(-((torch.arange(n, dtype=torch.float64) - 3.5) ** 2))
print("mass", f"{u.sum().item():.6f}")
for t in range(6):
    u = torch.sparse.mm(step_op, u.unsqueeze(1)).squeeze(1)
    print(t, [round(x, 4) for x in u.tolist()], f"mass {u.sum().item():.6f}")

# power iteration on L
x = torch.ones(n, dtype=torch.float64) + torch.linspace(0, 1, n, dtype=torch.float64)
lam = 0.0
for it in range(60):
    y = torch.sparse.mm(L, x.unsqueeze(1)).squeeze(1)
    lam = torch.dot(x, y).item() / torch.dot(x, x).item()
    x = y / y.norm()
print(f"lambda_max ~ {lam:.4f}")
print(f"exact      {torch.linalg.eigvalsh(L.to_dense()).max().item():.4f}")

# operator algebra: (L + L^T)/2 is L, 2L - L is L
sym = (L + L.t()) * 0.5
print(torch.equal(sym.to_dense(), L.to_dense()))
print(torch.equal((L * 2 - L).to_dense(), L.to_dense()))
print((L - L).coalesce()._nnz())
print(torch.sparse.sum(L, dim=0).to_dense())
print((L @ torch.ones(n, 1, dtype=torch.float64)).squeeze(1))
