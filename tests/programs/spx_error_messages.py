# Mistakes people make with sparse tensors and what they see: in-place ops on leaves, mixing
# sparse and dense in add_, mismatched sparse sums, mm shapes, softmax on dense, bad indices.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", tuple(out.shape) if isinstance(out, torch.Tensor) else out)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("This could be")[0].strip()[:160])


i = torch.tensor([[0, 1, 2], [1, 2, 0]])
v = torch.tensor([1.0, 2.0, 3.0])
s = torch.sparse_coo_tensor(i, v, (3, 3))
d = torch.ones(3, 3)

attempt("negative index", lambda: torch.sparse_coo_tensor(torch.tensor([[0, -1]]), v[:2], (3,), check_invariants=True))
attempt("index too big", lambda: torch.sparse_coo_tensor(torch.tensor([[0, 5]]), v[:2], (3,), check_invariants=True))
attempt("1-d indices", lambda: torch.sparse_coo_tensor(torch.tensor([0, 1]), v[:2], (3,), check_invariants=True))
attempt("float indices", lambda: torch.sparse_coo_tensor(torch.tensor([[0.0, 1.0]]), v[:2], (3,), check_invariants=True))
attempt("sparse.sum dense", lambda: torch.sparse.sum(d))
attempt("sparse.softmax dense", lambda: torch.sparse.softmax(d, 0))
attempt("dense + sparse", lambda: d + s)
attempt("dense.add_(sparse)", lambda: d.clone().add_(s))
attempt("sparse.add_(dense)", lambda: s.clone().add_(d))
attempt("sparse * sparse", lambda: s * s)
attempt("sparse * dense", lambda: s * d)
attempt("sparse / 0-d", lambda: s / torch.tensor(2.0))
attempt("sparse @ sparse", lambda: torch.sparse.mm(s, s))
attempt("dense @ sparse", lambda: torch.mm(d, s))
attempt("mm 3d", lambda: torch.sparse.mm(s, torch.ones(3, 3, 1)))
attempt("reshape", lambda: s.reshape(9))
attempt("index", lambda: s[0])
attempt("mean", lambda: s.mean())
attempt("pow", lambda: s.pow(2))
attempt("to_dense grad", lambda: s.to_dense().sum().item())
attempt("coalesce dense", lambda: d.coalesce())
attempt("indices dense", lambda: d.indices())
attempt("_nnz dense", lambda: d._nnz())
attempt("to_sparse twice", lambda: d.to_sparse().to_sparse())
attempt("sparse_dim mismatch add", lambda: s + d.to_sparse(1))
attempt("sum keepdim", lambda: s.sum(0, keepdim=True))
attempt("sparse.sum dim", lambda: torch.sparse.sum(s, dim=5))
