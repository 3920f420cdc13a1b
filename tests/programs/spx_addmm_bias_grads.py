# torch.sparse.addmm / torch.sparse.mm as a sparse linear layer: bias + alpha * A @ W, with the
# gradients flowing into the dense weight, the bias and the sparse values.
import torch

idx = torch.tensor([[0, 0, 1, 2, 3, 3], [0, 3, 1, 2, 0, 3]])
vals = torch.tensor([1.0, -0.5, 2.0, 0.25, 1.5, -1.0], requires_grad=True)
A = torch.sparse_coo_tensor(idx, vals, (4, 4))
print(A.requires_grad, A.is_leaf, A.grad_fn)

W = (torch.arange(12.0).view(4, 3) / 10).requires_grad_()
bias = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)

out = torch.sparse.addmm(bias.expand(4, 3), A, W, beta=0.5, alpha=2.0)
print(out)
print(type(out.grad_fn).__name__)
out.pow(2).sum().backward()
print(W.grad)
print(bias.grad)
print(vals.grad)

# the plain product and its gradient w.r.t. a sparse leaf
S = torch.sparse_coo_tensor(idx, torch.ones(6), (4, 4)).coalesce().requires_grad_()
y = torch.sparse.mm(S, W.detach())
y.sum().backward()
print(S.grad)
print(S.grad.is_sparse, S.grad.layout)

# addmm with a full bias matrix and default scalars
M = torch.linspace(-1, 1, 12).view(4, 3)
print(torch.sparse.addmm(M, A.detach(), W.detach()))
print(torch.allclose(torch.sparse.addmm(M, A.detach(), W.detach()),
                     M + A.detach().to_dense() @ W.detach()))

# one SGD step on W through torch.sparse.mm
opt = torch.optim.SGD([W], lr=0.1)
for step in range(5):
    opt.zero_grad()
    pred = torch.sparse.mm(A.detach(), W)
    loss = ((pred - 1.0) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
