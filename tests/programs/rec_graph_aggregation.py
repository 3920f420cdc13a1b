# Neighborhood aggregation over a user-item interaction list (LightGCN-style) with
# index_select / index_add_ / scatter_add / scatter_reduce, degree normalization via bincount.
import torch

n_users, n_items, d = 3, 4, 2
edges = torch.tensor([[0, 0], [0, 2], [1, 1], [1, 2], [2, 3], [2, 0], [2, 2]])
u, i = edges[:, 0], edges[:, 1]
deg_u = torch.bincount(u, minlength=n_users).float()
deg_i = torch.bincount(i, minlength=n_items).float()
print(deg_u, deg_i)
norm = (deg_u[u] * deg_i[i]).rsqrt()
print(norm.round(decimals=4))

E_u = torch.arange(n_users * d, dtype=torch.float32).view(n_users, d).requires_grad_()
E_i = (torch.arange(n_items * d, dtype=torch.float32).view(n_items, d) / 10).requires_grad_()
msg_to_u = E_i.index_select(0, i) * norm.unsqueeze(1)
agg_u = torch.zeros(n_users, d).index_add(0, u, msg_to_u)
msg_to_i = E_u[u] * norm[:, None]
agg_i = torch.zeros(n_items, d).scatter_add(0, i.unsqueeze(1).expand(-1, d), msg_to_i)
print(agg_u)
print(agg_i)
print(agg_u.grad_fn.name(), agg_i.grad_fn.name())
(agg_u.sum() + (agg_i ** 2).sum()).backward()
print(E_u.grad)
print(E_i.grad)

inplace = torch.zeros(n_users, d)
inplace.index_add_(0, u, msg_to_u.detach(), alpha=0.5)
print(inplace)
mean_u = torch.zeros(n_users, d).scatter_reduce(0, u[:, None].expand(-1, d), E_i.detach()[i], reduce="mean", include_self=False)
max_u = torch.zeros(n_users, d).scatter_reduce(0, u[:, None].expand(-1, d), E_i.detach()[i], reduce="amax", include_self=False)
print(mean_u)
print(max_u)
print(torch.zeros(n_items).scatter_add_(0, i, torch.ones(len(i))))
print(torch.zeros(n_items, dtype=torch.long).index_add_(0, i, torch.ones(len(i), dtype=torch.long)))
cnt = torch.zeros(n_items).index_put_((i,), torch.ones(len(i)), accumulate=True)
print(cnt)

# index_fill / index_copy for cold-start resets
W = torch.ones(4, 2)
print(W.index_fill(0, torch.tensor([1, 3]), 0.0))
print(W.index_copy(0, torch.tensor([0, 2]), torch.tensor([[5., 6.], [7., 8.]])))
print(torch.take_along_dim(E_i.detach(), torch.tensor([[0], [1], [0], [1]]), dim=1))
try:
    torch.zeros(3, 2).index_add_(0, torch.tensor([0, 1]), torch.ones(3, 2))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, 2).index_select(0, torch.tensor([0.0]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, 2).index_select(0, torch.tensor([3]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, 2).scatter_add(0, torch.tensor([[0, 5]]), torch.ones(1, 2))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.gather(torch.zeros(3, 2), 1, torch.tensor([[0, 2]]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, 2).index_add_(0, torch.tensor([0, 1]), torch.ones(2, 2, dtype=torch.float64))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
