# StackOverflow: "RuntimeError: mat1 and mat2 shapes cannot be multiplied" and friends.
# Each question's failing line, the exception it raised, and the fix from the accepted answer.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", tuple(out.shape) if isinstance(out, torch.Tensor) else out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


# Q: flattened CNN features fed to a Linear with the wrong in_features
feats = torch.arange(2 * 16 * 5 * 5, dtype=torch.float32).view(2, 16, 5, 5)
fc = nn.Linear(16 * 4 * 4, 120)
attempt("fc wrong in_features", lambda: fc(feats.view(feats.size(0), -1)))
attempt("fc forgot flatten", lambda: fc(feats))
attempt("fc fixed", lambda: nn.Linear(16 * 5 * 5, 120)(torch.flatten(feats, 1)))
attempt("view(-1, 256)", lambda: feats.view(-1, 16 * 4 * 4).shape)

# Q: torch.mm / matmul / bmm / mv / dot shape rules
a = torch.arange(6.).view(2, 3)
b = torch.arange(8.).view(2, 4)
attempt("mm", lambda: torch.mm(a, b))
attempt("mm fixed", lambda: torch.mm(a.t(), b))
attempt("mm 1d", lambda: torch.mm(a, torch.ones(3)))
attempt("mm 3d", lambda: torch.mm(torch.ones(2, 2, 3), torch.ones(3, 2)))
attempt("matmul", lambda: torch.matmul(a, b))
attempt("matmul 1d 1d", lambda: torch.matmul(torch.ones(3), torch.ones(4)))
attempt("matmul 1d 2d", lambda: torch.ones(3) @ torch.ones(4, 2))
attempt("matmul batch", lambda: torch.ones(2, 3, 4) @ torch.ones(3, 4, 5))
attempt("matmul batch ok", lambda: torch.ones(2, 3, 4) @ torch.ones(1, 4, 5))
attempt("bmm 2d", lambda: torch.bmm(a, b.t()))
attempt("bmm batch", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5)))
attempt("bmm inner", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 5, 4)))
attempt("bmm fixed", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 5, 4).transpose(1, 2)))
attempt("mv", lambda: torch.mv(a, torch.ones(2)))
attempt("mv 2d vec", lambda: torch.mv(a, torch.ones(3, 1)))
attempt("dot sizes", lambda: torch.dot(torch.ones(3), torch.ones(4)))
attempt("dot 2d", lambda: torch.dot(a, a))
attempt("dot dtypes", lambda: torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64)))
attempt("outer", lambda: torch.outer(torch.ones(3), torch.ones(2)))
attempt("addmm", lambda: torch.addmm(torch.ones(3), a, torch.ones(3, 3)))
attempt("addmm bias", lambda: torch.addmm(torch.ones(4), a, torch.ones(3, 3)))

# Q: nn.Linear given a 1-D sample / a scalar
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 0., -1.], [0.5, 0.5, 0.5]]))
    lin.bias.fill_(0.1)
print(lin(torch.tensor([1., 2., 3.])))
attempt("linear 1d wrong", lambda: lin(torch.ones(4)))
attempt("linear scalar", lambda: lin(torch.tensor(1.0)))
attempt("linear int", lambda: lin(torch.tensor([1, 2, 3])))
print(lin(torch.tensor([1, 2, 3]).float()))
attempt("F.linear bias", lambda: nn.functional.linear(torch.ones(2, 3), lin.weight, torch.ones(3)))

# Q: einsum mismatches
attempt("einsum", lambda: torch.einsum("ij,jk->ik", a, b))
attempt("einsum operands", lambda: torch.einsum("ij,jk->ik", a))
attempt("einsum fixed", lambda: torch.einsum("ji,jk->ik", a, b))
