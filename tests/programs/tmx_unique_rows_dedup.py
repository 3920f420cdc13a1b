# Deduplicating edge lists / rows: torch.unique(dim=0/1, return_inverse, return_counts),
# unique_consecutive along a dim, and rebuilding the original from the inverse.
import torch

edges = torch.tensor([[0, 1], [2, 3], [0, 1], [1, 0], [2, 3], [0, 1], [4, 4]])
u, inv, cnt = torch.unique(edges, dim=0, return_inverse=True, return_counts=True)
print(u)
print(inv, cnt)
print(torch.equal(u[inv], edges), u.dtype, inv.dtype, cnt.dtype)

# columns
m = torch.tensor([[1, 2, 1, 3, 2], [5, 6, 5, 7, 6]])
uc, invc = torch.unique(m, dim=1, return_inverse=True)
print(uc, invc)

# float rows with -0.0 and repeated rows
fr = torch.tensor([[0.5, 1.0], [0.5, 1.0], [-1.0, 2.0], [0.5, 0.0]])
print(torch.unique(fr, dim=0, return_counts=True))

# 3-d unique over dim 0
t = torch.tensor([[[1, 2], [3, 4]], [[0, 0], [0, 0]], [[1, 2], [3, 4]]])
ut, it = torch.unique(t, dim=0, return_inverse=True)
print(ut.shape, it)

# unique_consecutive along dims: run-length encode frames
frames = torch.tensor([[1, 1, 2, 2, 2, 3, 1, 1], [0, 0, 0, 5, 5, 5, 0, 0]])
out, inv2, cnt2 = torch.unique_consecutive(frames, dim=1, return_inverse=True, return_counts=True)
print(out)
print(inv2, cnt2)
rows, rcnt = torch.unique_consecutive(torch.tensor([[1, 2], [1, 2], [3, 4], [1, 2]]), dim=0, return_counts=True)
print(rows, rcnt)

# flat unique with inverse on a 2-d tensor keeps the shape of the input
labels = torch.tensor([[3, 1, 3], [2, 1, 9]])
vals, inv3 = torch.unique(labels, return_inverse=True)
print(vals, inv3, inv3.shape)
vals, inv4, c4 = torch.unique(labels, sorted=True, return_inverse=True, return_counts=True)
print(c4)
vc, ic = labels.flatten().unique_consecutive(return_inverse=True)
print(vc, ic)

# empty input
e = torch.empty(0, 3, dtype=torch.long)
ue, ie, ce = torch.unique(e, dim=0, return_inverse=True, return_counts=True)
print(ue.shape, ie, ce)
ue2, ce2 = torch.unique(torch.tensor([], dtype=torch.float32), return_counts=True)
print(ue2, ce2)

# bool rows
b = torch.tensor([[True, False], [False, False], [True, False]])
print(torch.unique(b, dim=0))
try:
    torch.unique(edges, dim=2)
except Exception as e:
    print(type(e).__name__, e)
