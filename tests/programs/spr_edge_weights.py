# Learnable edge weights on a sparse adjacency (GAT-lite / weighted message passing): the
# values of torch.sparse_coo_tensor come from a parameter, torch.sparse.mm(adj, h) propagates,
# and the gradient reaches both the edge weights and the node features.
import torch

src = torch.tensor([0, 1, 2, 3, 4, 0, 2])
dst = torch.tensor([1, 2, 3, 4, 0, 2, 4])
n, e = 5, src.numel()
edge_logits = torch.linspace(-1.0, 1.0, e).requires_grad_()
h = torch.stack([torch.sin(torch.arange(n) + k * 0.5) for k in range(3)], dim=1).requires_grad_()
print(edge_logits, h.shape)

weights = torch.sigmoid(edge_logits)
adj = torch.sparse_coo_tensor(torch.stack([dst, src]), weights, (n, n))
print(adj)
print(adj.requires_grad, adj.is_leaf, type(adj.grad_fn).__name__)
print([type(f).__name__ for f, _ in adj.grad_fn.next_functions])

out = torch.sparse.mm(adj, h)
print(out)
print(type(out.grad_fn).__name__, [type(f).__name__ if f else None for f, _ in out.grad_fn.next_functions])
loss = (out ** 2).sum()
loss.backward()
print(f"loss {loss.item():.4f}")
print(edge_logits.grad)
print(h.grad)

# same thing with the dense adjacency: the gradients agree
logits2 = edge_logits.detach().clone().requires_grad_()
h2 = h.detach().clone().requires_grad_()
dense_adj = torch.zeros(n, n).index_put((dst, src), torch.sigmoid(logits2), accumulate=True)
((dense_adj @ h2) ** 2).sum().backward()
print(torch.allclose(logits2.grad, edge_logits.grad, atol=1e-6), torch.allclose(h2.grad, h.grad, atol=1e-6))

# a few steps of gradient descent on the edge weights only
opt = torch.optim.SGD([edge_logits], lr=0.1)
target = torch.ones(n, 3)
for step in range(15):
    opt.zero_grad()
    adj = torch.sparse_coo_tensor(torch.stack([dst, src]), torch.sigmoid(edge_logits), (n, n))
    loss = ((torch.sparse.mm(adj, h.detach()) - target) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.5f}")
print(torch.sigmoid(edge_logits).detach())

# to_dense and coalesce are differentiable too
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = torch.sparse_coo_tensor([[0, 1, 0], [1, 1, 1]], w, (2, 2))
c = s.coalesce()
print(c, c.values())
(c.to_dense() * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(w.grad)
w.grad = None
torch.sparse.sum(torch.sparse_coo_tensor([[0, 1, 0], [1, 1, 1]], w * 2, (2, 2)), dim=0).to_dense().sum().backward()
print(w.grad)
