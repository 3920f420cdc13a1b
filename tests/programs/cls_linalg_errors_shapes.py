# What torch.linalg says when the shapes or dtypes are wrong -- the questions people ask when a
# closed-form solution blows up: non-square solve, mismatched right-hand sides, integer inputs,
# singular systems, batch broadcasting, and the vector-vs-matrix right-hand side rule.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", tuple(out.shape) if isinstance(out, torch.Tensor) else out)
    except Exception as e:
        print(label, "->", type(e).__name__ + ":", e)


A = torch.tensor([[3., 1.], [1., 2.]])
b = torch.tensor([9., 8.])
print(torch.linalg.solve(A, b), torch.linalg.solve(A, b.unsqueeze(1)))
attempt("solve 2x3", lambda: torch.linalg.solve(torch.ones(2, 3), b))
attempt("solve rhs 3", lambda: torch.linalg.solve(A, torch.ones(3)))
attempt("solve rhs 3x1", lambda: torch.linalg.solve(A, torch.ones(3, 1)))
attempt("solve int", lambda: torch.linalg.solve(torch.tensor([[3, 1], [1, 2]]), torch.tensor([9, 8])))
attempt("solve f64 rhs", lambda: torch.linalg.solve(A, b.double()))
attempt("solve singular", lambda: torch.linalg.solve(torch.tensor([[1., 2.], [2., 4.]]), b))
attempt("solve batch", lambda: torch.linalg.solve(A.expand(4, 2, 2), b))
attempt("solve batch rhs", lambda: torch.linalg.solve(A, torch.ones(5, 2, 3)))
attempt("solve left=False", lambda: torch.linalg.solve(A, torch.ones(3, 2), left=False))
attempt("inv 2x3", lambda: torch.linalg.inv(torch.ones(2, 3)))
attempt("inv int", lambda: torch.linalg.inv(torch.eye(2, dtype=torch.long)))
attempt("inverse 1-D", lambda: torch.inverse(torch.ones(3)))
attempt("det 3x2", lambda: torch.det(torch.ones(3, 2)))
attempt("det int", lambda: torch.det(torch.tensor([[1, 2], [3, 4]])))
attempt("cholesky 2x3", lambda: torch.linalg.cholesky(torch.ones(2, 3)))
attempt("cholesky non-sym", lambda: torch.linalg.cholesky(torch.tensor([[4., 100.], [0., 3.]])))
attempt("svd 1-D", lambda: torch.linalg.svd(torch.ones(3)))
attempt("svd int", lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.int32)))
attempt("qr 1-D", lambda: torch.linalg.qr(torch.ones(3)))
attempt("qr bad mode", lambda: torch.linalg.qr(A, mode='thin'))
attempt("eigvalsh 2x3", lambda: torch.linalg.eigvalsh(torch.ones(2, 3)))
attempt("norm bad ord", lambda: torch.linalg.matrix_norm(A, ord=3))
attempt("norm 1-D nuc", lambda: torch.linalg.norm(b, ord='nuc'))
attempt("vector_norm int", lambda: torch.linalg.vector_norm(torch.tensor([3, 4])))
attempt("matmul 1-D mismatch", lambda: torch.ones(3) @ torch.ones(2))
attempt("mm 1-D", lambda: torch.mm(torch.ones(2), A))
attempt("matrix_rank", lambda: torch.linalg.matrix_rank(torch.tensor([[1., 2.], [2., 4.]])))
attempt("cond singular", lambda: torch.linalg.cond(torch.tensor([[1., 0.], [0., 0.]])))
attempt("empty det", lambda: torch.det(torch.ones(0, 0)))
attempt("empty inv", lambda: torch.linalg.inv(torch.ones(0, 0)))

# solving with a vector b against a batch of matrices
As = torch.stack([A, 2 * A, A.T + torch.eye(2)])
print(torch.linalg.solve(As, b))
print(torch.linalg.solve(As, b.expand(3, 2)).shape, torch.linalg.solve(As, torch.ones(3, 2, 1)).shape)
print(torch.linalg.inv(As) @ b)

# dtype results
print(torch.linalg.solve(A.double(), b.double()).dtype, torch.linalg.det(A.double()).dtype)
print(torch.linalg.svdvals(A).dtype, torch.linalg.norm(A.double()).dtype)
print(torch.linalg.vector_norm(torch.tensor([3., 4.]), dtype=torch.float64))
print(torch.linalg.norm(torch.tensor([[1., 2.], [3., 4.]]), dim=1), torch.linalg.norm(A, ord=2, dim=(0, 1)))
print(torch.linalg.vector_norm(A, ord=0), torch.linalg.vector_norm(A, ord=-float('inf')), torch.linalg.vector_norm(A, ord=3, dim=0, keepdim=True))
