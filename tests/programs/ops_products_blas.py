# Products beyond @: outer, kron, cross, dot/vdot, mv, bmm, addmm/addmv/addbmm/baddbmm with beta/alpha,
# in float, float64 and int, and the gradients that come back from each.
import torch

a = torch.tensor([1., 2., 3.])
b = torch.tensor([4., 5., 6.])
print(torch.outer(a, b[:2]), a.outer(torch.tensor([1, 2])).dtype, torch.ger(a[:2], b[:2]))
print(torch.kron(torch.eye(2), torch.tensor([[1., 2.], [3., 4.]])), torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10, 100])))
print(torch.cross(a, b, dim=0), torch.linalg.cross(a, b), torch.cross(torch.stack([a, b]), torch.stack([b, a]), dim=1))
print(torch.dot(a, b), a.dot(b), torch.vdot(a, b), torch.dot(torch.tensor([1, 2]), torch.tensor([3, 4])))
M = torch.arange(6.).view(2, 3)
print(torch.mv(M, a), M.mv(b), torch.mm(M, M.t()), M.matmul(a), torch.inner(a, b), torch.inner(M, M))
print(torch.addmv(torch.tensor([1., 1.]), M, a, beta=0.5, alpha=2), torch.addmv(torch.ones(2), M, a))
print(torch.addmm(torch.zeros(2, 2), M, M.T), torch.addmm(torch.ones(2, 2), M, M.T, beta=0, alpha=0.5))
A = torch.arange(12.).view(2, 2, 3)
B = torch.arange(12.).view(2, 3, 2)
print(torch.bmm(A, B), A.bmm(B).shape, torch.baddbmm(torch.ones(2, 2, 2), A, B, beta=2, alpha=1)[1])
print(torch.addbmm(torch.zeros(2, 2), A, B), torch.addr(torch.zeros(2, 3), a[:2], b, alpha=2))
print(torch.tensordot(A, B, dims=([1, 2], [2, 1])), torch.tensordot(a, b, dims=1), torch.linalg.multi_dot([M, M.T, M]))
I = torch.arange(4).view(2, 2)
print(torch.mm(I, I), I @ I, torch.matmul(I, torch.tensor([1, 1])), torch.bmm(I[None], I[None]).dtype)
D = torch.arange(4, dtype=torch.float64).view(2, 2)
print(D @ D, torch.mv(D, torch.ones(2, dtype=torch.float64)), torch.outer(D[0], D[1]))

# gradients and grad_fn names
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.tensor([0., 1., -1.], requires_grad=True)
for name, fn in [("outer", torch.outer), ("kron", torch.kron), ("cross", lambda p, q: torch.cross(p, q, dim=0)),
                 ("dot", torch.dot), ("vdot", torch.vdot), ("inner", torch.inner)]:
    out = fn(x, y)
    (out * torch.arange(1., out.numel() + 1).view(out.shape)).sum().backward()
    print(name, out.grad_fn.name(), x.grad, y.grad)
    x.grad = y.grad = None

W = torch.arange(6.).view(2, 3).requires_grad_()
bias = torch.tensor([0.5, -0.5], requires_grad=True)
o = torch.addmv(bias, W, x, beta=2, alpha=3)
o.sum().backward()
print(o, o.grad_fn.name(), W.grad, bias.grad, x.grad)
W.grad = bias.grad = x.grad = None
o2 = torch.addmm(bias, x.view(1, 3), W.T, alpha=0.5)
o2.sum().backward()
print(o2, o2.grad_fn.name(), W.grad, bias.grad)
W.grad = None
o3 = torch.mv(W, x)
print(o3.grad_fn.name(), torch.mm(W, W.T).grad_fn.name(), (W @ x).grad_fn.name(), (x @ x).grad_fn.name())
P = torch.arange(8.).view(2, 2, 2).requires_grad_()
Q = torch.ones(2, 2, 2, requires_grad=True)
o4 = torch.baddbmm(Q, P, P, alpha=2)
o4.sum().backward()
print(o4.grad_fn.name(), P.grad, Q.grad)
o5 = torch.bmm(P, P.transpose(1, 2))
print(o5.grad_fn.name(), torch.addbmm(Q[0], P, P).grad_fn.name())

for bad in [lambda: torch.dot(a, b[:2]), lambda: torch.mm(M, M), lambda: torch.bmm(M, M), lambda: torch.cross(a[:2], b[:2], dim=0),
            lambda: torch.dot(a, torch.tensor([1, 2, 3])), lambda: torch.mv(M, b[:2])]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
