# In-place arithmetic on sparse COO tensors, as preprocessing code does it: scaling with mul_,
# div_, add_ of another sparse tensor, zero_, and editing values() after coalesce().
import torch

i = torch.tensor([[0, 0, 1, 2, 2], [0, 2, 1, 0, 2]])
v = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
A = torch.sparse_coo_tensor(i, v, (3, 3)).coalesce()
print(A)

A.mul_(2)
print("after mul_", A._values(), A.is_coalesced())
A = A.coalesce()
A.div_(4)
print("after div_", A._values(), A.is_coalesced())
A = A.coalesce()

B = torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 1]]), torch.tensor([10.0, 20.0]), (3, 3))
A.add_(B)
print("after add_", A)
print(A.is_coalesced(), A._nnz())
print(A.to_dense())

# edit values in place after coalesce (the values() tensor shares memory)
C = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1], [0, 1, 0]]),
                            torch.tensor([1.0, 2.0, 3.0]), (2, 2)).coalesce()
vals = C.values()
vals.clamp_(max=3.0)
print(C)
C.values()[0] = -1.0
print(C.to_dense())
vals.mul_(10)
print(C.values())

# row-normalise values in place
D = torch.sparse_coo_tensor(torch.tensor([[0, 0, 1, 1, 1], [0, 1, 0, 1, 2]]),
                            torch.tensor([1.0, 3.0, 2.0, 2.0, 4.0]), (2, 3)).coalesce()
rowsum = torch.sparse.sum(D, dim=1).to_dense()
D.values().div_(rowsum[D.indices()[0]])
print(D.to_dense())

# mul_ by a scalar tensor and zero_
D.mul_(torch.tensor(3.0))
print(D._values(), D.is_coalesced())
D.zero_()
print(D)
print(D.to_dense().sum())
E = torch.sparse_coo_tensor(i, v, (3, 3))
E.neg_()
print(E._values(), E.is_coalesced())
