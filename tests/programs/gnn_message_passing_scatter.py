# MessagePassing written by hand: gather source features with index_select, build messages,
# aggregate at targets with index_add_, scatter_add_, scatter_reduce ("sum", "mean", "amax",
# "amin") and include_self=False; gradients flow back to node features and edge weights.
import torch

x = torch.tensor([[1., 0.], [0., 2.], [3., 1.], [-1., 4.]], requires_grad=True)
edge_index = torch.tensor([[0, 1, 2, 2, 3, 0],
                           [1, 2, 1, 3, 1, 3]])
src, dst = edge_index
E, N = edge_index.size(1), x.size(0)
x_j = x.index_select(0, src)
x_i = x[dst]
print(x_j, x_j.grad_fn.name(), x_i.grad_fn.name())
msg = x_j - x_i
print(msg)

agg_sum = torch.zeros(N, 2).index_add_(0, dst, msg)
print(agg_sum, agg_sum.grad_fn.name())
agg_sum2 = torch.zeros_like(x).scatter_add_(0, dst.view(-1, 1).expand(-1, 2), msg)
print(torch.equal(agg_sum, agg_sum2), agg_sum2.grad_fn.name())
index = dst.unsqueeze(-1).expand_as(msg)
agg_mean = torch.zeros(N, 2).scatter_reduce(0, index, msg, reduce="mean", include_self=False)
agg_max = torch.zeros(N, 2).scatter_reduce(0, index, msg, reduce="amax", include_self=False)
agg_min = x.new_zeros(N, 2).scatter_reduce(0, index, msg, reduce="amin", include_self=False)
print(agg_mean, agg_mean.grad_fn.name())
print(agg_max)
print(agg_min)
# include_self=True (the default) mixes in the initial zeros: a common bug
print(torch.zeros(N, 2).scatter_reduce(0, index, msg, reduce="amax"))
print(torch.full((N, 2), float("-inf")).scatter_reduce(0, index, msg.detach(), reduce="amax"))

(agg_sum.sum() + agg_max.pow(2).sum() + agg_mean.sum()).backward()
print(x.grad)

# edge weights
w = torch.tensor([0.5, 1.0, 2.0, 0.1, 1.0, 0.25], requires_grad=True)
h = torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.]])
out = torch.zeros(N, 2).index_add(0, dst, h[src] * w.view(-1, 1))
print(out)
out[1].sum().backward()
print(w.grad)

# mean via scatter_add / degree, as many tutorials do
deg = torch.zeros(N).scatter_add_(0, dst, torch.ones(E)).clamp_(min=1)
mean2 = torch.zeros(N, 2).scatter_add_(0, index, msg.detach()) / deg.unsqueeze(1)
print(deg, torch.allclose(mean2, agg_mean.detach()))

# in-place aggregation on a leaf that requires grad is an error
leaf = torch.zeros(N, 2, requires_grad=True)
try:
    leaf.index_add_(0, dst, msg)
except RuntimeError as e:
    print(type(e).__name__, e)
# 1-D index with 2-D src for scatter_add_
try:
    torch.zeros(N, 2).scatter_add_(0, dst, msg.detach())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(N, 2).index_add_(0, dst.float(), msg.detach())
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    x.detach().index_select(0, torch.tensor([0, 4]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    x.detach().index_select(0, torch.tensor([[0, 1]]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
