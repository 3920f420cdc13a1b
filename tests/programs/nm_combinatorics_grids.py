# Combinatorial helpers in numerical code: kron for 2-D stencils, cartesian_prod for grids,
# combinations for pairwise distances, tril/triu_indices to pack symmetric matrices.
import torch

D1 = torch.tensor([[-2.0, 1.0, 0.0], [1.0, -2.0, 1.0], [0.0, 1.0, -2.0]])
I = torch.eye(3)
L2 = torch.kron(D1, I) + torch.kron(I, D1)
print("2-D Laplacian:", L2.shape, torch.linalg.eigvalsh(L2)[:3].round(decimals=4))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 10], [100, 1000]])))
print(torch.kron(torch.ones(2, 1, 2), torch.arange(3.0).reshape(3, 1)).shape)

xs = torch.tensor([0.0, 0.5, 1.0])
ys = torch.tensor([10.0, 20.0])
grid = torch.cartesian_prod(xs, ys)
print("cartesian:", grid)
print(torch.cartesian_prod(torch.tensor([1, 2, 3])))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3]), torch.tensor([4, 5])).shape)

pts = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [6.0, 8.0]])
idx = torch.combinations(torch.arange(len(pts)), r=2)
print("pairs:", idx.tolist())
dist = (pts[idx[:, 0]] - pts[idx[:, 1]]).norm(dim=1)
print("pairwise:", dist.round(decimals=4))
print("pdist matches:", torch.allclose(dist, torch.pdist(pts)))
print(torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True))
print(torch.combinations(torch.tensor([1.0, 2.0, 3.0]), r=3))
print(torch.combinations(torch.tensor([1, 2]), r=3))
print(torch.combinations(torch.tensor([5, 6, 7]), r=0))

n = 4
A = torch.arange(16.0).reshape(n, n)
S = A + A.T
ti = torch.tril_indices(n, n)
print("tril_indices:", ti)
packed = S[ti[0], ti[1]]
print("packed:", packed)
U = torch.zeros(n, n)
U[ti[0], ti[1]] = packed
print("unpacked symmetric:", torch.equal(U + U.T - torch.diag(U.diag()), S))
print(torch.triu_indices(3, 4, offset=1))
print(torch.tril_indices(3, 5, offset=-1, dtype=torch.int32))
print(torch.triu_indices(2, 2, offset=5).shape)

# gradient through kron
a = torch.tensor([[1.0, 2.0]], requires_grad=True)
b = torch.tensor([[3.0], [4.0]], requires_grad=True)
k = torch.kron(a, b)
k.sum().backward()
print(k, a.grad, b.grad)
