# StackOverflow: "why is my tensor not a leaf?", "why is .grad None?", .data vs .detach(),
# x = x + 1 vs x += 1, .to()/.double() creating non-leaves, gradients through views and copies.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


def info(name, t):
    print(f"{name}: is_leaf={t.is_leaf} requires_grad={t.requires_grad} grad_fn={type(t.grad_fn).__name__ if t.grad_fn else None}")


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([1.0, 2.0], requires_grad=True).double()
c = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
d = torch.tensor([1.0, 2.0]).requires_grad_()
e = torch.tensor([1.0, 2.0], requires_grad=True) + 0
f = torch.tensor([1.0, 2.0]) * 2
g = a.detach()
h = a.data
i = a.clone()
j = a[0]
k = a.view(2, 1)
l = a.to(torch.float32)
m = a.to(torch.float64)
n = nn.Parameter(torch.ones(2)) * 1
for name, t in zip("abcdefghijklmn", (a, b, c, d, e, f, g, h, i, j, k, l, m, n)):
    info(name, t)
print("l is a:", l is a)

(b.sum() + c.sum() + e.sum() + i.sum() * 2 + k.sum() * 3 + m.sum() * 4).backward()
print("a.grad:", a.grad, "c.grad:", c.grad)

# Q: x = x + 1 (rebinding) vs x += 1 (in-place) on a leaf
x = torch.tensor([3.0], requires_grad=True)
x = x + 1
info("rebound x", x)
y = torch.tensor([3.0], requires_grad=True)
attempt("y += 1", lambda: y.__iadd__(1))
with torch.no_grad():
    y += 1
info("y after no_grad +=", y)
y.data += 1
print("y after .data +=", y)

# Q: .data vs .detach(): .data hides in-place changes from autograd
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p.sigmoid()
q.data.mul_(0)
q.sum().backward()
print("silently wrong grad via .data:", p.grad)
p2 = torch.tensor([1.0, 2.0], requires_grad=True)
q2 = p2.sigmoid()
q2.detach().mul_(0)
attempt("detach in-place caught", lambda: q2.sum().backward())

# Q: "can't retain_grad on Tensor that has requires_grad=False" and detached grads
attempt("retain_grad no grad", lambda: torch.ones(2).retain_grad())
attempt("retain_grad leaf", lambda: a.retain_grad())
attempt("requires_grad on non-leaf", lambda: e.requires_grad_(False))
attempt("requires_grad on detach", lambda: g.requires_grad_(True).is_leaf)
attempt("grad assign shape", lambda: setattr(a, "grad", torch.ones(3)))
attempt("grad assign dtype", lambda: setattr(a, "grad", torch.ones(2, dtype=torch.float64)))
attempt("grad assign ok", lambda: setattr(a, "grad", torch.zeros(2)))
print(a.grad)

# Q: gradient through a view and through torch.cat of a leaf
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
row = w[1]
col = w[:, 0]
(row * torch.tensor([10.0, 20.0])).sum().backward(retain_graph=True)
(col ** 2).sum().backward()
print(w.grad, row.grad_fn.name(), col.grad_fn.name())
z = torch.cat([w, w.t()], dim=0)
info("cat", z)
z.sum().backward()
print(w.grad)
