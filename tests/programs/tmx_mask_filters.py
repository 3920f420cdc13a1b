# Filtering and writing back with masks: nonzero(as_tuple), argwhere, where(cond), count_nonzero over
# dims, isin(invert, assume_unique), masked_scatter / index_copy_ / index_fill_ with gradients.
import torch

grid = torch.tensor([[0.0, 1.5, 0.0, -2.0], [3.0, 0.0, 0.0, 4.0], [0.0, 0.0, 0.0, 0.0]])
print(torch.nonzero(grid))
rows, cols = grid.nonzero(as_tuple=True)
print(rows, cols, grid[rows, cols])
print(torch.argwhere(grid > 1))
print(torch.where(grid < 0))
print(torch.nonzero(torch.tensor(5.0)), torch.nonzero(torch.tensor(0.0), as_tuple=True))
print(torch.argwhere(torch.tensor([True, False, True])))
print(torch.count_nonzero(grid), torch.count_nonzero(grid, dim=0), grid.count_nonzero(dim=(0, 1)))
print(torch.count_nonzero(grid, dim=-1).dtype)

vocab = torch.tensor([3, 7, 11, 19])
tokens = torch.tensor([[3, 4, 11], [19, 19, 2]])
print(torch.isin(tokens, vocab))
print(torch.isin(tokens, vocab, invert=True))
print(torch.isin(tokens, vocab, assume_unique=True))
print(torch.isin(tokens, 19), torch.isin(7, vocab))
print(torch.isin(torch.tensor([1.0, 2.5]), torch.tensor([2.5, 3.0])))

# masked_scatter: fill masked slots in row-major order from a source
mask = grid != 0
src = torch.arange(10.0, 22.0).view(3, 4).requires_grad_(True)
base = torch.zeros(3, 4, requires_grad=True)
out = base.masked_scatter(mask, src)
print(out)
(out * torch.arange(12.0).view(3, 4)).sum().backward()
print(src.grad)
print(base.grad)
print(torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])))

# index_copy_ / index_fill_ (negative dim) with gradients
target = torch.ones(4, 3, requires_grad=True)
newrows = torch.tensor([[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]], requires_grad=True)
t2 = target.clone()
t2.index_copy_(0, torch.tensor([3, 1]), newrows)
print(t2, t2.grad_fn.name())
(t2 * torch.arange(12.0).view(4, 3)).sum().backward()
print(target.grad)
print(newrows.grad)
f = torch.arange(12.0).view(3, 4)
print(f.index_fill(-1, torch.tensor([0, 3]), -1.0))
print(f.index_fill(0, torch.tensor([1]), torch.tensor(9.5)))
w = torch.arange(6.0, requires_grad=True)
w.index_fill(0, torch.tensor([1, 4]), 0.0).pow(2).sum().backward()
print(w.grad)
try:
    torch.zeros(3, 2).index_copy_(0, torch.tensor([0, 1]), torch.ones(3, 2))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.zeros(2, 2).masked_scatter(torch.ones(2, 2, dtype=torch.bool), torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
# a row template broadcast against a 2-d mask, then the usual mistakes
print(torch.tensor([0.5, 0.5, 0.5, 0.5]).masked_scatter(mask, torch.arange(6.0)))
for bad_mask, bad_src in [(mask[:2, :3], torch.arange(6)), (mask[:2, :3].int(), torch.arange(6.0)),
                          (mask[:2], torch.arange(6.0))]:
    try:
        torch.zeros(2, 3).masked_scatter(bad_mask, bad_src)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        torch.zeros(2, 3).masked_scatter_(bad_mask, bad_src)
    except Exception as e:
        print(type(e).__name__, e)
