# Norms and distances: Tensor.norm with p and dim, torch.linalg.norm/vector_norm/matrix_norm with ord,
# torch.dist, torch.cdist, F.pairwise_distance -- values, dtypes and gradients (incl. at zero).
import torch
import torch.nn.functional as F

v = torch.tensor([3., -4., 0., 12.])
print(v.norm(), v.norm(p=1), v.norm(p=float("inf")), v.norm(p=0), v.norm(3), torch.norm(v, p=-float("inf")))
X = torch.tensor([[1., 2., 2.], [-3., 0., 4.]])
print(X.norm(dim=1), X.norm(p=1, dim=0), torch.norm(X, dim=1, keepdim=True), X.norm(p="fro"), X.norm(2, dim=(0, 1)))
print(torch.linalg.norm(v), torch.linalg.norm(v, ord=1), torch.linalg.norm(X), torch.linalg.norm(X, ord="fro"))
print(torch.linalg.norm(X, ord=1), torch.linalg.norm(X, ord=float("inf")), torch.linalg.norm(X, ord=-1), torch.linalg.norm(X, dim=1))
print(torch.linalg.vector_norm(X), torch.linalg.vector_norm(X, ord=1, dim=1), torch.linalg.vector_norm(X, ord=0.5, dim=-1, keepdim=True))
print(torch.linalg.vector_norm(v, ord=float("inf")), torch.linalg.vector_norm(v, ord=0), torch.linalg.vector_norm(X, dim=(0, 1)))
print(torch.linalg.matrix_norm(X), torch.linalg.matrix_norm(X, ord=1), torch.linalg.matrix_norm(X, ord=-float("inf")))
print(torch.linalg.matrix_norm(torch.tensor([[3., 0.], [0., 4.]]), ord=2), torch.linalg.matrix_norm(torch.tensor([[3., 0.], [0., 4.]]), ord="nuc"))
print(torch.linalg.vector_norm(torch.tensor([1., 2.], dtype=torch.float64)), torch.linalg.vector_norm(torch.tensor([3., 4.]), dtype=torch.float64))

a = torch.tensor([1., 2., 3.])
b = torch.tensor([4., 6., 3.])
print(torch.dist(a, b), torch.dist(a, b, p=1), torch.dist(a, b, 0), torch.dist(a, b, float("inf")), a.dist(b, 3))
pts = torch.tensor([[0., 0.], [3., 4.], [1., 1.]])
ref = torch.tensor([[0., 0.], [6., 8.]])
print(torch.cdist(pts, ref), torch.cdist(pts, ref, p=1), torch.cdist(pts, pts, p=float("inf")))
print(torch.cdist(pts[None], ref[None]).shape, torch.cdist(pts, pts).diagonal())
print(F.pairwise_distance(pts, pts.flip(0)), F.cosine_similarity(pts[1:], ref, dim=1), F.normalize(pts, dim=1))
print(F.normalize(X, p=1, dim=0), F.normalize(torch.zeros(2, 2), dim=1))

w = torch.tensor([3., 4.], requires_grad=True)
n = w.norm()
n.backward()
print(n, n.grad_fn.name(), w.grad)
w.grad = None
n1 = torch.linalg.vector_norm(w, ord=1)
n1.backward()
print(n1.grad_fn.name(), w.grad)
w.grad = None
ninf = torch.linalg.norm(torch.stack([w, w.flip(0) * 2]), ord=float("inf"))
ninf.backward()
print(ninf, w.grad)
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print(z.grad)
Wm = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
fro = torch.linalg.matrix_norm(Wm)
fro.backward()
print(fro, fro.grad_fn.name(), Wm.grad)
p = torch.tensor([[0., 0.], [1., 1.]], requires_grad=True)
q = torch.tensor([[3., 4.]], requires_grad=True)
d = torch.cdist(p, q)
d.sum().backward()
print(d, d.grad_fn.name(), p.grad, q.grad)
p.grad = None
dd = torch.dist(p[1], q[0])
dd.backward()
print(dd, dd.grad_fn.name(), p.grad)
r = torch.tensor([[1., 1.], [2., 0.]], requires_grad=True)
nr = r.norm(dim=1)
(nr * torch.tensor([1., 10.])).sum().backward()
print(nr.grad_fn.name(), r.grad)

for bad in [lambda: torch.linalg.matrix_norm(v), lambda: torch.cdist(pts, torch.ones(2, 3)),
            lambda: torch.linalg.norm(X, ord=3), lambda: torch.linalg.vector_norm(torch.tensor([1, 2]))]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
