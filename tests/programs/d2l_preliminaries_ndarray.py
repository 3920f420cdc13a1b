# d2l.ai 2.1 Data Manipulation + 2.3 Linear Algebra, written out without the d2l package.
import torch

x = torch.arange(12, dtype=torch.float32)
print(x, x.numel(), x.shape)
X = x.reshape(3, 4)
print(X)
print(x.reshape(-1, 4).shape, x.reshape(3, -1).shape)
print(torch.zeros((2, 3, 4)).sum(), torch.ones((2, 3, 4)).shape)
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
print(X[-1], X[1:3])
X[1, 2] = 17
print(X)
X[:2, :] = 12
print(X)

x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)
print(torch.exp(x))
X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1))
print(X == Y)
print(X.sum())

a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b, a + b)

before = id(Y)
Y = Y + X
print(id(Y) == before)
Z = torch.zeros_like(Y)
print('id(Z):', id(Z) == id(Z))
zid = id(Z)
Z[:] = X + Y
print(id(Z) == zid)
before = id(X)
X += Y
print(id(X) == before)

A = X.numpy()
B = torch.from_numpy(A)
print(type(A), type(B))
a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))

# 2.3 linear algebra
x = torch.tensor(3.0)
y = torch.tensor(2.0)
print(x + y, x * y, x / y, x ** y)
x = torch.arange(3)
print(x, x[2], len(x), x.shape)
A = torch.arange(6).reshape(3, 2)
print(A.T, A.T.T == A)
A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)
print(torch.arange(24).reshape(2, 3, 4))
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()
print(A, A + B, A * B)
a = 2
X = torch.arange(24).reshape(2, 3, 4)
print(a + X, (a * X).shape)
x = torch.arange(3, dtype=torch.float32)
print(x, x.sum())
print(A.shape, A.sum())
print(A.shape, A.sum(axis=0).shape, A.sum(axis=1).shape)
print(A.sum(axis=[0, 1]) == A.sum())
print(A.mean(), A.sum() / A.numel())
print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)
print(A / sum_A)
print(A.cumsum(axis=0))
y = torch.ones(3, dtype=torch.float32)
print(x, y, torch.dot(x, y), torch.sum(x * y))
print(A.shape, x.shape, torch.mv(A, x), A @ x)
B = torch.ones(3, 4)
print(torch.mm(A, B), A @ B)
u = torch.tensor([3.0, -4.0])
print(torch.norm(u), torch.abs(u).sum(), torch.norm(torch.ones((4, 9))))
try:
    torch.dot(torch.arange(3), torch.ones(3))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.mv(A, torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
