# triu / tril with offsets, diag in both directions, diagonal with offset and dims, diag_embed,
# trace -- plus the gradients that flow through them (masks in attention, covariance matrices).
import torch

m = torch.arange(1., 17.).view(4, 4)
print(torch.triu(m, 1), m.tril(diagonal=-1), m.triu(-2).sum(), torch.tril(m, 2)[0])
r = torch.arange(12).view(3, 4)
print(r.triu(), r.tril(1), r.tril(1).dtype, torch.ones(2, 3, 3).tril().sum(dim=(1, 2)))
print(torch.diag(m), torch.diag(m, 1), torch.diag(m, -2), torch.diag(torch.tensor([1, 2]), 1))
print(m.diagonal(), m.diagonal(offset=-1), torch.diagonal(m, 2), r.diagonal(1))
batch = torch.arange(18.).view(2, 3, 3)
print(batch.diagonal(dim1=1, dim2=2), torch.diagonal(batch, 0, 0, 1), batch.diagonal(dim1=-2, dim2=-1).sum(-1))
print(torch.diag_embed(torch.tensor([[1., 2.], [3., 4.]])), torch.diag_embed(torch.tensor([5, 6]), offset=1))
print(torch.trace(m), torch.trace(r), torch.trace(r).dtype, torch.eye(3).trace())
d = m.diagonal()
print(d.is_contiguous(), d.stride(), d.storage_offset(), m.diagonal(1).storage_offset())
m2 = m.clone()
m2.diagonal().fill_(0)
print(m2)
m3 = torch.zeros(3, 3)
m3.diagonal().copy_(torch.tensor([7., 8., 9.]))
print(m3, torch.zeros(2, 3).fill_diagonal_(5.), torch.zeros(4, 2).fill_diagonal_(1, wrap=False))

# gradients
a = torch.arange(1., 10.).view(3, 3).requires_grad_()
u = a.triu(1)
(u * 2).sum().backward()
print(u.grad_fn.name(), a.grad)
a.grad = None
t = torch.trace(a @ a.t())
t.backward()
print(t, t.grad_fn.name(), a.grad)
a.grad = None
dg = a.diagonal(1)
(dg ** 2).sum().backward()
print(dg, dg.grad_fn.name(), a.grad)
a.grad = None
dd = torch.diag(a)
dd.prod().backward()
print(dd, dd.grad_fn.name(), a.grad)
v = torch.tensor([1., 2., 3.], requires_grad=True)
D = torch.diag(v)
(D @ torch.ones(3, 3)).sum().backward()
print(D, D.grad_fn.name(), v.grad)
v.grad = None
E = torch.diag_embed(v, offset=-1)
(E * torch.arange(16.).view(4, 4)).sum().backward()
print(E.shape, E.grad_fn.name(), v.grad)
L = torch.tensor([[2., 0.], [1., 3.]], requires_grad=True)
cov = L.tril() @ L.tril().T
cov.sum().backward()
print(cov, L.grad)

try:
    torch.trace(torch.ones(2, 2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.ones(3).triu()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.diagonal(m, dim1=0, dim2=0)
except RuntimeError as e:
    print(type(e).__name__, e)
