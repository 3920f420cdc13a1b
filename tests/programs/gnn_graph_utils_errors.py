# Mistakes people hit when hand-writing graph code, as asked on the forums: float edge_index,
# node ids out of range, mismatched lengths in bincount / repeat_interleave, wrong-shaped index
# for scatter / index_add, and what unique / masked_select do with tensors that require grad.
import torch

x = torch.arange(8.).view(4, 2)
edge_index = torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]])

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

# edge_index loaded from a float array (e.g. numpy.loadtxt)
ei_f = edge_index.float()
show(lambda: x[ei_f[0]])
show(lambda: x.index_select(0, ei_f[0]))
show(lambda: torch.zeros(4, 2).index_add_(0, ei_f[1], x))
show(lambda: torch.zeros(4, 2).scatter_add_(0, ei_f[1].long().view(-1, 1).expand(-1, 2), x))
show(lambda: torch.bincount(ei_f[1]))
print(ei_f.long().dtype, ei_f.to(torch.int64).equal(edge_index))

# node ids out of range: 1-based ids from a file
ei_1 = edge_index + 1
show(lambda: x[ei_1[0]])
show(lambda: x.index_select(0, ei_1[0]))
show(lambda: torch.zeros(4, 2).index_add_(0, ei_1[1], x))
show(lambda: torch.zeros(4).scatter_add_(0, ei_1[1], torch.ones(4)))
show(lambda: torch.zeros(4).scatter_reduce(0, ei_1[1], torch.ones(4), "amax", include_self=False))
# negative ids (e.g. -1 used as padding for "no neighbor")
pad = torch.tensor([1, 2, -1, -1])
show(lambda: x[pad])
show(lambda: x.index_select(0, pad))
show(lambda: torch.zeros(4, 2).index_add_(0, pad, x))
show(lambda: torch.zeros(4).scatter_add_(0, pad, torch.ones(4)))
print(x[pad[pad >= 0]], (pad >= 0).sum())

# index of the wrong shape
show(lambda: torch.zeros(4, 2).index_add_(0, edge_index, x))
show(lambda: torch.zeros(4, 2).index_add_(0, edge_index[1], x[:3]))
show(lambda: x.index_select(0, edge_index))
show(lambda: torch.zeros(4, 2).scatter_add_(0, edge_index[1].unsqueeze(-1), x))
show(lambda: torch.zeros(4, 2).scatter_add_(0, edge_index[1], x))

# counting / repeating with bad arguments
show(lambda: torch.bincount(edge_index[1], weights=torch.ones(3)))
show(lambda: torch.bincount(edge_index[1], minlength=-1))
show(lambda: torch.bincount(edge_index))
show(lambda: torch.bincount(torch.tensor([0, -1])))
show(lambda: torch.repeat_interleave(torch.arange(3), torch.tensor([2, 1])))
show(lambda: torch.repeat_interleave(torch.arange(3), torch.tensor([2, -1, 1])))
show(lambda: torch.repeat_interleave(torch.arange(3), torch.tensor([2., 1., 1.])))
show(lambda: torch.repeat_interleave(torch.arange(3), torch.tensor([[1, 1, 1]])))
show(lambda: torch.searchsorted(torch.tensor([[0, 3, 5]]), torch.tensor([1, 4])))
show(lambda: torch.searchsorted(torch.tensor([0, 3, 5]), torch.tensor([1, 4]), side="both"))
show(lambda: torch.scatter_reduce(torch.zeros(2), 0, torch.tensor([0, 1]), torch.ones(2), "avg"))
show(lambda: torch.repeat_interleave(torch.arange(3), torch.tensor([2, 1, 1]), output_size=5))
show(lambda: torch.repeat_interleave(torch.arange(3), 2, output_size=5))
sizes = torch.tensor([3, 1, 4])
show(lambda: sizes.cumsum())
show(lambda: torch.cumsum(sizes))
show(lambda: torch.bincount(edge_index[1], minlength=x.numel() / 2))
show(lambda: torch.unique(edge_index[0], dim=1))
show(lambda: torch.unique(edge_index, dim=2, return_inverse=True))

# unique / masked_select / bincount on tensors that require grad
w = torch.tensor([0.5, 2.0, 0.5, 1.0], requires_grad=True)
u = torch.unique(w)
print(u, u.requires_grad)
print(torch.unique(w, return_counts=True))
print(w.masked_select(w > 0.6), torch.masked_select(w, w < 0.6).grad_fn.name())
print(w[w > 0.6].grad_fn.name())
show(lambda: torch.bincount(edge_index[1], weights=w))
show(lambda: torch.unique(w).sum().backward())
