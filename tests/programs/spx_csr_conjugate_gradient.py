# Scientific code with a CSR matrix: a 2-D Poisson operator assembled as CSR from its parts,
# matrix-vector products with @, Jacobi and conjugate-gradient solves in float64, residuals.
import torch

m = 4                      # grid is m x m, unknowns n = m*m
n = m * m
crow, col, val = [0], [], []
for i in range(m):
    for j in range(m):
        k = i * m + j
        row = []
        if i > 0:
            row.append((k - m, -1.0))
        if j > 0:
            row.append((k - 1, -1.0))
        row.append((k, 4.0))
        if j < m - 1:
            row.append((k + 1, -1.0))
        if i < m - 1:
            row.append((k + m, -1.0))
        for c, v in row:
            col.append(c)
            val.append(v)
        crow.append(len(col))
A = torch.sparse_csr_tensor(torch.tensor(crow), torch.tensor(col),
                            torch.tensor(val, dtype=torch.float64), size=(n, n))
print(A.layout, A.shape, A._nnz(), A.dtype)
print(A.crow_indices()[:6], A.col_indices()[:8])
dense = A.to_dense()
print(torch.equal(dense, dense.t()), dense.diagonal().unique().tolist())

b = torch.sin(torch.arange(n, dtype=torch.float64))
print("Ax for ones", (A @ torch.ones(n, dtype=torch.float64)).tolist()[:6])

# Jacobi
diag = dense.diagonal()
x = torch.zeros(n, dtype=torch.float64)
for it in range(30):
    x = x + (b - A @ x) / diag
print(f"jacobi residual {(b - A @ x).norm().item():.3e}")

# conjugate gradient
x = torch.zeros(n, dtype=torch.float64)
r = b - A @ x
p = r.clone()
rs = r.dot(r)
for it in range(n):
    Ap = A @ p
    alpha = rs / p.dot(Ap)
    x = x + alpha * p
    r = r - alpha * Ap
    rs_new = r.dot(r)
    if it % 3 == 0:
        print(it, f"{rs_new.sqrt().item():.3e}")
    if rs_new.sqrt() < 1e-10:
        print("converged at", it)
        break
    p = r + (rs_new / rs) * p
    rs = rs_new
print([round(v, 5) for v in x[:6].tolist()])
print(torch.allclose(dense @ x, b))

# the same matrix via COO, and scaled
coo = A.to_sparse_coo()
print(coo.layout, coo.is_coalesced(), torch.equal(coo.to_dense(), dense))
print((A * 0.25).values()[:5])
print(torch.mm(A, torch.eye(n, dtype=torch.float64)[:, :2]).sum(0))
