# einsum beyond matmul: diagonals, row-wise dots, batched outer products, multi-head attention
# scores, bilinear forms with three operands, ellipsis broadcasting, the list-of-operands call,
# implicit output, and gradients through each.
import torch

a = torch.arange(9.0).view(3, 3)
b = torch.tensor([[1.0, -1.0, 2.0], [0.5, 0.0, 1.0], [2.0, 1.0, -1.0]])
v = torch.tensor([1.0, 2.0, 3.0])

print(torch.einsum("ii->i", a), torch.einsum("ii", a), torch.einsum("ij->j", a), torch.einsum("ij->i", a))
print(torch.einsum("ij,ij->i", a, b), torch.einsum("ij,ij->", a, b), torch.einsum("ij,ij->ij", a, b))
print(torch.einsum("ij,j->i", a, v), torch.einsum("i,ij->j", v, a), torch.einsum("i,ij,j->", v, b, v))
print(torch.einsum("ij,kj->ik", a, b), torch.einsum("ij,jk", a, b), torch.einsum("ba", a))
print(torch.einsum("ij,jk->ik", [a, b]), torch.einsum("i,i", v, v), torch.einsum("i,j", v, v[:2]))
print(torch.einsum("i->", v), torch.einsum("i->i", v), torch.einsum("ij->ji", a)[0])

batch = torch.sin(torch.arange(24.0)).view(2, 3, 4)
other = torch.cos(torch.arange(24.0)).view(2, 4, 3)
print(torch.allclose(torch.einsum("bij,bjk->bik", batch, other), batch @ other))
print(torch.einsum("bi,bj->bij", batch[:, 0], batch[:, 1]).shape, torch.einsum("bii->b", batch[:, :3, :3]))
print(torch.einsum("...ij->...ji", batch).shape, torch.einsum("b...->b", batch), torch.einsum("...j,j->...", batch, torch.ones(4)))
print(torch.einsum("bij,j->bi", batch, torch.tensor([1.0, 0.0, -1.0, 0.5])))

# multi-head attention scores and the weighted sum of values
B, H, T, D = 1, 2, 3, 4
q = torch.sin(torch.arange(B * H * T * D, dtype=torch.float32) * 0.3).view(B, H, T, D)
k = torch.cos(torch.arange(B * H * T * D, dtype=torch.float32) * 0.2).view(B, H, T, D)
vals = torch.arange(B * H * T * D, dtype=torch.float32).view(B, H, T, D) / 10
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / D ** 0.5
attn = scores.softmax(-1)
ctx = torch.einsum("bhqk,bhkd->bhqd", attn, vals)
print(scores[0, 1], ctx[0, 0])
merged = torch.einsum("bhtd->bthd", ctx).reshape(B, T, H * D)
print(merged.shape, torch.equal(merged, ctx.transpose(1, 2).reshape(B, T, H * D)))

# bilinear form x^T W y for a batch, three operands
x = torch.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 1.0]], requires_grad=True)
W = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], requires_grad=True)
y = torch.tensor([[2.0, -1.0], [0.0, 3.0]], requires_grad=True)
out = torch.einsum("bi,oij,bj->bo", x, W, y)
out.sum().backward()
print(out, x.grad, W.grad, y.grad)

m = torch.arange(9.0, requires_grad=True)
torch.einsum("ii->", m.view(3, 3)).backward()
print(m.grad)
m.grad = None
(torch.einsum("ii->i", m.view(3, 3)) * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(m.grad)
p = torch.tensor([1.0, 2.0], requires_grad=True)
torch.einsum("i,j->ij", p, p).sum().backward()
print(p.grad)
print(torch.einsum("ij,ij->i", torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 1], [0, 2]])))
for bad in [lambda: torch.einsum("ij,jk->ik", a, torch.ones(2, 2)),
            lambda: torch.einsum("ij->k", a),
            lambda: torch.einsum("ijk->", a)]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
