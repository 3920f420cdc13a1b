# Advanced-indexing puzzles: gather/scatter, one-argument torch.where, nonzero(as_tuple=True),
# boolean masks, index_put_ with accumulate, take_along_dim, index_add_/index_copy_.
import torch

scores = torch.tensor([[0.1, 0.7, 0.2, 0.0],
                       [0.5, 0.1, 0.3, 0.1],
                       [0.0, 0.2, 0.2, 0.6]])
labels = torch.tensor([1, 2, 3])

# pick the correct-class score per row three ways
print(scores[torch.arange(3), labels])
print(scores.gather(1, labels[:, None]).squeeze(1))
print(torch.take_along_dim(scores, labels[:, None], dim=1))
print(torch.take_along_dim(scores, scores.argsort(dim=1, descending=True)))
print(torch.take_along_dim(scores, torch.tensor([0, 5, 11])))

# one-argument where / nonzero
m = scores > 0.15
print(torch.where(m))
print(m.nonzero())
print(m.nonzero(as_tuple=True))
print(torch.nonzero(torch.tensor(5)), torch.nonzero(torch.tensor(0)).shape)
print(torch.where(torch.tensor([0.0, 2.0, 0.0, -1.0])))
print(scores[m], scores[m].shape)
print(torch.argwhere(m).shape, torch.count_nonzero(m, dim=1))

# boolean mask assignment
s2 = scores.clone()
s2[~m] = -1.0
print(s2)
s2[s2 < 0] = torch.tensor([9.0])
print(s2.sum())
try:
    scores[torch.tensor([True, False])]
except IndexError as e:
    print("IndexError", e)

# scatter puzzles
oh = torch.zeros(3, 4).scatter_(1, labels[:, None], 1.0)
print(oh)
print(torch.zeros(3, 4, dtype=torch.long).scatter(1, labels[:, None], 7))
src = torch.arange(1, 7, dtype=torch.float32).reshape(2, 3)
print(torch.zeros(3, 3).scatter_(0, torch.tensor([[0, 1, 2], [2, 0, 1]]), src))
print(torch.zeros(2, 5).scatter_add(1, torch.tensor([[0, 0, 4], [1, 1, 1]]), src))
print(torch.zeros(5).scatter_reduce(0, torch.tensor([0, 1, 0, 1, 2, 2]),
                                    torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), reduce="amax", include_self=False))
print(torch.ones(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), reduce="prod"))
print(torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), reduce="mean"))

# index_put_ with accumulate, duplicates
acc = torch.zeros(5)
idx = torch.tensor([0, 1, 1, 3, 3, 3])
acc.index_put_((idx,), torch.ones(6), accumulate=True)
print(acc)
acc2 = torch.zeros(5)
acc2[idx] += 1
print("no accumulate with +=:", acc2)
grid = torch.zeros(3, 3, dtype=torch.long)
grid.index_put_((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 2])), torch.tensor(5), accumulate=True)
print(grid)
print(torch.zeros(4, 2).index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 2), alpha=2))
print(torch.zeros(4, 2).index_copy(0, torch.tensor([3, 1]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(torch.arange(6).index_fill(0, torch.tensor([1, 4]), -1))
print(torch.arange(12).reshape(3, 4).index_select(1, torch.tensor([3, 0])))
print(torch.arange(10).take(torch.tensor([[0, 9], [3, 3]])))

# gather backward = scatter_add
w = scores.clone().requires_grad_()
g = w.gather(1, torch.tensor([[0, 0], [1, 3], [2, 2]]))
g.sum().backward()
print(w.grad)
print(g.grad_fn.name(), type(g.grad_fn).__name__)
x = torch.zeros(4, requires_grad=True)
y = x.index_put((torch.tensor([1, 1]),), torch.tensor([2.0, 3.0]), accumulate=True)
(y * torch.arange(4.0)).sum().backward()
print(y, x.grad)

# errors
try:
    scores.gather(1, torch.tensor([[4]]))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    scores.gather(1, torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.zeros(3).scatter_(0, torch.tensor([0]), torch.tensor([1]))
except RuntimeError as e:
    print("RuntimeError", e)
