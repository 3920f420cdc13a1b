# numpy-to-torch cheat sheet: np.kron, itertools.product/combinations, np.meshgrid (ij vs xy),
# with dtype corners, gradients through kron and the error messages for bad inputs.
import warnings
import torch

A = torch.tensor([[1, 2], [3, 4]])
I = torch.eye(2, dtype=torch.long)
print(torch.kron(A, I), torch.kron(I, A).shape)
print(torch.kron(torch.tensor([1., 2.]), torch.tensor([1., 10., 100.])))
print(torch.kron(torch.tensor([1, 2]), torch.ones(2, 2)), torch.kron(A, torch.tensor(3)))
print(torch.kron(torch.ones(2, 1, 2), torch.tensor([[1, 2]])).shape, torch.kron(A, torch.tensor([0.5])).dtype)
print(torch.kron(torch.tensor([True, False]), torch.tensor([True, True])))

p = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
q = torch.tensor([[0., 1.], [1., 0.]], requires_grad=True)
k = torch.kron(p, q)
(k * torch.arange(16.).view(4, 4)).sum().backward()
print(k.grad_fn.name(), p.grad, q.grad, sep="\n")

print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print(torch.cartesian_prod(torch.tensor([1., 2.])), torch.cartesian_prod(torch.tensor([0, 1]), torch.tensor([0, 1]), torch.tensor([7])))
c = torch.tensor([10, 20, 30, 40])
print(torch.combinations(c), torch.combinations(c, r=3), torch.combinations(c, with_replacement=True).shape)
print(torch.combinations(c, r=0), torch.combinations(c, r=5), torch.combinations(torch.tensor([1.5, 2.5]), with_replacement=True))
print(torch.combinations(c, r=1))

x = torch.tensor([1, 2, 3])
y = torch.tensor([4, 5])
xx, yy = torch.meshgrid(x, y, indexing="ij")
print(xx, yy, xx.shape)
xx, yy = torch.meshgrid(x, y, indexing="xy")
print(xx, yy, xx.shape)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g = torch.meshgrid(x, y)
print(type(g).__name__, len(g), g[0].shape, [w.category.__name__ for w in caught])
grid = torch.stack(torch.meshgrid(torch.linspace(0, 1, 3), torch.linspace(-1, 1, 2), indexing="xy"), dim=-1)
print(grid, grid.shape)
g3 = torch.meshgrid([torch.arange(2), torch.arange(3), torch.arange(4)], indexing="xy")
print([t.shape for t in g3], g3[0].is_contiguous(), g3[0].stride())
s = torch.tensor(5)
print(torch.meshgrid(s, x, indexing="ij"))
u = torch.tensor([1., 2.], requires_grad=True)
v = torch.tensor([3., 4., 5.], requires_grad=True)
U, V = torch.meshgrid(u, v, indexing="ij")
(U * V).sum().backward()
print(U.grad_fn.name(), u.grad, v.grad)

for bad in [lambda: torch.meshgrid(x, y, indexing="yx"), lambda: torch.meshgrid(x, y.float(), indexing="ij"),
            lambda: torch.meshgrid(x.view(3, 1), y, indexing="ij"), lambda: torch.cartesian_prod(A),
            lambda: torch.combinations(A), lambda: torch.combinations(c, r=-1), lambda: torch.meshgrid(indexing="ij")]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
