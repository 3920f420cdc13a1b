# einsum in the ways people use it: matmul, batch matmul, outer product, trace, attention scores.
import torch

a = torch.arange(6.).view(2, 3)
b = torch.arange(12.).view(3, 4)
print(torch.einsum("ij,jk->ik", a, b))
print(torch.einsum("ij->ji", a))
print(torch.einsum("ij->", a), torch.einsum("ii->", torch.arange(9.).view(3, 3)))
print(torch.einsum("i,j->ij", torch.tensor([1., 2.]), torch.tensor([3., 4., 5.])))
q = torch.sin(torch.arange(24.)).view(2, 3, 4)
k = torch.cos(torch.arange(24.)).view(2, 3, 4)
scores = torch.einsum("bqd,bkd->bqk", q, k)
print(scores.shape, torch.allclose(scores, q @ k.transpose(1, 2), atol=1e-6))
print(torch.einsum("bij,bjk->bik", q, k.transpose(1, 2)).shape)
print(torch.einsum("i,i->", torch.tensor([1., 2., 3.]), torch.tensor([4., 5., 6.])))

x = torch.arange(4., requires_grad=True)
y = torch.ones(3, 4, requires_grad=True)
out = torch.einsum("j,ij->i", x, y)
out.sum().backward()
print(out, x.grad, y.grad)
print(torch.einsum("...ij,...jk", a.unsqueeze(0), b.unsqueeze(0)).shape)
