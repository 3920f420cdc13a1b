# Mini-batching graphs the PyG way: a `batch` vector assigns each node to its graph, `ptr` holds
# cumulative node counts; global mean / max / add pooling with scatter ops, to_dense_batch by hand,
# and unbatching with split.
import torch
import torch.nn.functional as F

num_nodes = torch.tensor([3, 1, 4])
batch = torch.repeat_interleave(torch.arange(len(num_nodes)), num_nodes)
print(batch, batch.dtype)
print(torch.arange(3).repeat_interleave(num_nodes).equal(batch), torch.repeat_interleave(num_nodes))
ptr = torch.cat([torch.zeros(1, dtype=torch.long), num_nodes.cumsum(0)])
print(ptr, ptr.dtype, F.pad(num_nodes.cumsum(0), (1, 0)))
print(torch.searchsorted(ptr, torch.arange(8), right=True) - 1)
print(torch.bucketize(torch.arange(8), ptr[1:], right=True))

x = torch.arange(16.).view(8, 2) - 5
B = int(batch.max()) + 1
add_pool = torch.zeros(B, 2).index_add_(0, batch, x)
cnt = torch.bincount(batch, minlength=B).clamp(min=1).to(x.dtype).unsqueeze(-1)
mean_pool = add_pool / cnt
idx = batch.unsqueeze(-1).expand(-1, x.size(1))
max_pool = x.new_full((B, 2), float("-inf")).scatter_reduce(0, idx, x, "amax", include_self=True)
print(add_pool, mean_pool, max_pool, sep="\n")
print(torch.zeros(B, 2).scatter_reduce(0, idx, x, "mean", include_self=False))
print(torch.stack([x[batch == b].max(0).values for b in range(B)]))
print(torch.stack([seg.mean(0) for seg in x.split(num_nodes.tolist())]))
print([t.shape for t in torch.split(x, num_nodes.tolist(), dim=0)])
print(x.tensor_split(ptr[1:-1]), x.tensor_split(ptr[1:-1].tolist())[1])

# to_dense_batch: position of each node inside its graph
pos = torch.arange(batch.size(0)) - ptr[batch]
print(pos)
max_n = int(num_nodes.max())
dense = x.new_zeros(B, max_n, 2)
dense[batch, pos] = x
mask = torch.zeros(B, max_n, dtype=torch.bool)
mask[batch, pos] = True
print(dense)
print(mask, mask.sum(1))
print(dense.masked_fill(~mask.unsqueeze(-1), float("-inf")).amax(1))
print((dense * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True))

# gradient of the pooled readout
xg = x.clone().requires_grad_(True)
readout = torch.zeros(B, 2).scatter_reduce(0, idx, xg, "amax", include_self=False)
mean_r = torch.zeros(B, 2).index_add(0, batch, xg) / cnt
(readout.sum() + (mean_r * torch.tensor([1., 2.])).sum()).backward()
print(xg.grad)
print(readout.grad_fn.name(), mean_r.grad_fn.name())

# ties inside a segment for amax: gradient is split evenly
t = torch.tensor([1., 3., 3., 2.], requires_grad=True)
m = torch.zeros(1).scatter_reduce(0, torch.zeros(4, dtype=torch.long), t, "amax", include_self=False)
m.backward()
print(m, t.grad)
t.grad = None
torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 1, 1]), t, "amin", include_self=False).sum().backward()
print(t.grad)
# empty graph in the batch: include_self=False leaves the initial value untouched
empty = torch.zeros(4, 2).scatter_reduce(0, idx, x, "amax", include_self=False)
print(empty)
print(torch.full((4, 2), 7.).scatter_reduce(0, idx, x, "mean", include_self=False))
# the built-in segment reduction over contiguous segments, given the per-graph node counts
print(torch.segment_reduce(x, "max", lengths=num_nodes), torch.segment_reduce(x, "mean", lengths=num_nodes, axis=0))
