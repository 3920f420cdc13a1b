# Tensor products and distances from a physics/geometry notebook: cross products of vectors,
# multi_dot chains, tensordot contractions, Kronecker products, and cdist pairwise distances.
import torch

torch.set_printoptions(precision=4)

a = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 2.0, 3.0]])
b = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [4.0, 5.0, 6.0]])
print("linalg.cross", torch.linalg.cross(a, b))
print("torch.cross dim=1", torch.cross(a, b, dim=1))
print("broadcast cross", torch.linalg.cross(a, torch.tensor([[0.0, 0.0, 1.0]])))
print("int cross", torch.linalg.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])))
try:
    torch.linalg.cross(torch.ones(2, 2), torch.ones(2, 2))
except Exception as e:
    print(type(e).__name__, e)
print("cross dim=0", torch.linalg.cross(a.T, b.T, dim=0))

M1 = torch.arange(6.0).reshape(2, 3)
M2 = torch.arange(12.0).reshape(3, 4) / 10
M3 = torch.arange(4.0).reshape(4, 1) - 1
print("multi_dot", torch.linalg.multi_dot([M1, M2, M3]))
print("multi_dot 1-D ends", torch.linalg.multi_dot([torch.ones(2), M1, M2, torch.ones(4)]))
try:
    torch.linalg.multi_dot([M1])
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.linalg.multi_dot([M1, M1])
except Exception as e:
    print(type(e).__name__, e)

T = torch.arange(24.0).reshape(2, 3, 4)
U = torch.arange(12.0).reshape(4, 3)
print("tensordot dims=1", torch.tensordot(T, U, dims=1).shape)
print("tensordot dims=([1,2],[1,0])", torch.tensordot(T, U, dims=([1, 2], [1, 0])))
print("tensordot dims=0", torch.tensordot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), dims=0))
print("tensordot dims=2", torch.tensordot(M1, M1, dims=2))
try:
    torch.tensordot(T, U, dims=([0], [0]))
except Exception as e:
    print(type(e).__name__, e)

I2 = torch.eye(2)
X = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
Z = torch.tensor([[1.0, 0.0], [0.0, -1.0]])
print("kron X,Z", torch.kron(X, Z))
print("kron shapes", torch.kron(torch.ones(2, 3), torch.ones(4, 5)).shape)
print("kron 1-D", torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10, 100])))
print("kron mixed ndim", torch.kron(I2, torch.ones(2, 2, 2)).shape)
print("method kron", X.kron(I2))

pts = torch.stack([torch.cos(torch.linspace(0, 3, 4)), torch.sin(torch.linspace(0, 3, 4))], 1)
centers = torch.tensor([[0.0, 0.0], [1.0, 1.0], [-1.0, 0.5]])
print("cdist p=2", torch.cdist(pts, centers))
print("cdist p=1", torch.cdist(pts, centers, p=1))
print("cdist p=inf", torch.cdist(pts, centers, p=float("inf")))
print("cdist p=0", torch.cdist(pts, centers, p=0))
print("cdist p=3", torch.cdist(pts, centers, p=3))
print("batched cdist", torch.cdist(pts.unsqueeze(0).expand(2, -1, -1), centers.unsqueeze(0)).shape)
print("argmin assign", torch.cdist(pts, centers).argmin(dim=1))
print("pdist", torch.pdist(pts))
try:
    torch.cdist(pts, torch.ones(3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.cdist(pts, centers, p=-1)
except Exception as e:
    print(type(e).__name__, e)
print("einsum outer", torch.einsum("i,j->ij", torch.arange(3.0), torch.arange(2.0)))
