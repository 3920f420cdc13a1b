# Einsum drills: trace, diagonal, transpose, batch matmul, bilinear, ellipsis, outer,
# sublist format, and comparing each against the explicit torch op.
import torch

A = torch.arange(9.0).reshape(3, 3)
B = torch.arange(12.0).reshape(3, 4) / 4
x = torch.tensor([1.0, -2.0, 0.5])
Bt = torch.arange(24.0).reshape(2, 3, 4)
Ct = torch.arange(40.0).reshape(2, 4, 5) / 10

print("trace", torch.einsum("ii", A), torch.trace(A))
print("diag", torch.einsum("ii->i", A), torch.diagonal(A))
print("transpose\n", torch.einsum("ij->ji", B))
print("row sums", torch.einsum("ij->i", B))
print("total", torch.einsum("ij->", B))
print("matvec", torch.einsum("ij,j->i", A, x))
print("vTAv", torch.einsum("i,ij,j->", x, A, x))
print("bmm ok", torch.allclose(torch.einsum("bij,bjk->bik", Bt, Ct), torch.bmm(Bt, Ct)))
print("ellipsis", torch.einsum("...ij,...jk->...ik", Bt, Ct).shape)
print("ellipsis trailing", torch.einsum("i...->...", Bt).shape)
print("batch diag", torch.einsum("...ii->...i", torch.arange(18.0).reshape(2, 3, 3)))
print("outer\n", torch.einsum("i,j->ij", x, torch.tensor([1.0, 2.0])))
print("hadamard", torch.einsum("ij,ij->ij", A, A)[1])
print("with spaces", torch.einsum("b i j , b j k -> b i k", Bt, Ct).shape)
print("list operands", torch.einsum("ij,jk", [A, B]).shape)
print("sublist", torch.einsum(A, [0, 1], B, [1, 2], [0, 2]).shape)
print("uppercase", torch.einsum("Ab,bC->AC", A, B).shape)

# bilinear form: y_k = x1^T W_k x2 + b_k
x1 = torch.linspace(-1, 1, 6).reshape(2, 3)
x2 = torch.linspace(0, 1, 8).reshape(2, 4)
W = torch.arange(2 * 3 * 4.0).reshape(2, 3, 4) / 24
b = torch.tensor([0.1, -0.1])
ours = torch.einsum("ni,kij,nj->nk", x1, W, x2) + b
print("bilinear", ours)
print("F.bilinear close", torch.allclose(ours, torch.nn.functional.bilinear(x1, x2, W, b), atol=1e-6))

# attention scores
q = torch.arange(2 * 3 * 4.0).reshape(2, 3, 4) / 10
k = torch.arange(2 * 5 * 4.0).reshape(2, 5, 4) / 20
att = torch.einsum("bqd,bkd->bqk", q, k).softmax(-1)
print("attention rows sum", att.sum(-1))

# gradients through einsum
Aq = A.clone().requires_grad_()
torch.einsum("ii->", Aq).backward()
print("grad of trace\n", Aq.grad)
xq = x.clone().requires_grad_()
torch.einsum("i,ij,j->", xq, A, xq).backward()
print("grad vTAv", xq.grad, (A + A.T) @ x)

# integer einsum and dtype
print(torch.einsum("ij,jk->ik", torch.arange(4).reshape(2, 2), torch.arange(4).reshape(2, 2)))

# errors
for eq, ops in [("ij,jk->ik", (A, Bt)), ("ij->k", (A,)), ("ii", (B,)), ("ij,jk", (A,))]:
    try:
        torch.einsum(eq, *ops)
    except RuntimeError as e:
        print("RuntimeError", e)
for eq, ops in [("i->ii", (x,)), ("ij,jk->ikk", (A, B)), ("i.j", (A,))]:
    try:
        torch.einsum(eq, *ops)
    except RuntimeError as e:
        print("RuntimeError", e)
try:
    torch.einsum("ab->ba")
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
# sublist format with ellipsis
print(torch.einsum(Bt, [Ellipsis, 0, 1], Ct, [Ellipsis, 1, 2], [Ellipsis, 0, 2]).shape)
print(torch.einsum(A, [0, 0]))
