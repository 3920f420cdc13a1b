# Linear-algebra tricks with diagonal views: adding to the diagonal in place (ridge term),
# batched diagonals with dim1/dim2, fill_diagonal_, and the copying variants.
import torch

A = torch.arange(9.0).view(3, 3)
d = A.diagonal()
print(d, d.stride(), d.storage_offset(), d._base is A)
d += 0.5
print(A)
print(A.diagonal(1), A.diagonal(1).storage_offset(), A.diagonal(-2), A.diagonal(-2).storage_offset())
print(A.diagonal(5).shape, A.diagonal(-5).stride())
B = torch.arange(24.0).view(2, 3, 4)
bd = B.diagonal(dim1=1, dim2=2)
print(bd.shape, bd.stride(), bd)
bd2 = torch.diagonal(B, offset=1, dim1=-1, dim2=-2)
print(bd2.shape, bd2.stride(), bd2.storage_offset())
bd3 = B.diagonal(0, 0, 2)
print(bd3.shape, bd3.stride(), bd3)
C = torch.zeros(3, 4)
C.fill_diagonal_(7.0)
print(C)
D = torch.zeros(7, 3)
D.fill_diagonal_(1.0, wrap=True)
print(D)
E = torch.zeros(7, 3)
E.fill_diagonal_(1.0)
print(E.sum().item())
cov = torch.ones(3, 3)
cov.diagonal().add_(1e-1)
print(cov)
copy = torch.diagonal_copy(A)
copy.zero_()
print(A.diagonal())
emb = torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(emb.shape, emb.stride(), emb)
print(torch.diag(A), torch.diag(A).data_ptr() == A.diagonal().data_ptr())
print(torch.diag(torch.tensor([1.0, 2.0]), 1))
tr = A.diagonal().sum()
print(tr.item(), torch.trace(A).item())
L = torch.arange(1.0, 10.0, requires_grad=True)
M = L.view(3, 3)
M.diagonal().sum().backward()
print(L.grad)
try:
    A.diagonal(0, 0, 0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).fill_diagonal_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(2, 3, 4).fill_diagonal_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
