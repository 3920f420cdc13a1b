# The errors users hit with sparse COO tensors: values()/indices() before coalesce(), mismatched
# indices and values, spmm shape and dtype mismatches, sparse + dense, numpy() on a sparse tensor,
# and operators the sparse backend does not have.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out if not isinstance(out, torch.Tensor) else tuple(out.shape))
    except Exception as e:
        print(label, type(e).__name__, str(e).split("This could be")[0].strip())


i = torch.tensor([[0, 1, 1, 0], [1, 0, 1, 1]])
v = torch.tensor([1.0, 2.0, 3.0, 4.0])
s = torch.sparse_coo_tensor(i, v, (2, 2))

attempt("values", lambda: s.values())
attempt("indices", lambda: s.indices())
attempt("values after coalesce", lambda: s.coalesce().values())
attempt("nnz mismatch", lambda: torch.sparse_coo_tensor(i, v[:3], (2, 2)))
attempt("size rank", lambda: torch.sparse_coo_tensor(i, v, (2, 2, 3)))
attempt("spmm rows", lambda: torch.spmm(s, torch.ones(3, 2)))
attempt("sparse.mm rows", lambda: torch.sparse.mm(s, torch.ones(5, 2)))
attempt("@ rows", lambda: s @ torch.ones(4, 1))
attempt("spmm dtype", lambda: torch.spmm(s, torch.ones(2, 2, dtype=torch.float64)))
attempt("spmm vector", lambda: torch.spmm(s, torch.ones(2)))
attempt("sparse + dense", lambda: s + torch.ones(2, 2))
attempt("sparse + sparse size", lambda: s + torch.sparse_coo_tensor(i, v, (3, 3)))
attempt("numpy", lambda: s.numpy())
attempt("exp", lambda: s.exp())
attempt("view", lambda: s.view(4))
attempt("max", lambda: s.max())
attempt("bool", lambda: bool(s))
attempt("len", lambda: len(s))
attempt("to_dense", lambda: s.to_dense())

# the dense fallback a user reaches for afterwards
dense = s.to_dense()
print(dense.exp().sum().item() > 0, torch.softmax(dense, dim=1).sum(1))
