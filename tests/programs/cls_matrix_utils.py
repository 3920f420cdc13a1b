# The small matrix utilities classic-ML code leans on: matrix_power (Markov chains, graph walks),
# cross products, outer/ger/addr, kron, trace, diag / diagonal / diag_embed / diagflat,
# block_diag, tensordot, mv, inner, vdot; their shapes, grad_fns, gradients and error messages.
import torch

# Markov chain: stationary distribution by repeated squaring
P = torch.tensor([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]])
print(torch.linalg.matrix_power(P, 2))
print(torch.matrix_power(P, 64)[0], P.matrix_power(0))
state = torch.tensor([1., 0., 0.])
for _ in range(3):
    state = state @ P
print(state, state.sum())
print(torch.linalg.matrix_power(torch.tensor([[2., 1.], [1., 1.]]), -1))
adj = torch.tensor([[0, 1, 1], [1, 0, 0], [1, 0, 0]])
print(torch.linalg.matrix_power(adj, 3), torch.linalg.matrix_power(adj, 3).dtype)
Pg = P.clone().requires_grad_(True)
Pk = torch.linalg.matrix_power(Pg, 3)
Pk.sum().backward()
print(Pk.grad_fn.name(), Pg.grad)

# cross products
a = torch.tensor([[1., 0., 0.], [0., 1., 0.]])
b = torch.tensor([[0., 1., 0.], [0., 0., 1.]])
print(torch.linalg.cross(a, b), torch.cross(a, b, dim=1), a.cross(b, dim=-1))
try:
    torch.linalg.cross(a, torch.tensor([0., 0., 1.]))    # no broadcasting of the rank
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.linalg.cross(a, torch.tensor([[0., 0., 1.]])))
try:
    torch.linalg.cross(torch.ones(2, 2), torch.ones(2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)

# outer / ger / addr
u, v = torch.tensor([1., 2., 3.]), torch.tensor([4., 5.])
print(torch.outer(u, v), torch.ger(u, v).shape, u.outer(v).grad_fn)
print(torch.addr(torch.ones(3, 2), u, v, beta=0.5, alpha=2))
print(torch.inner(u, u), torch.vdot(u, u), torch.mv(torch.outer(u, v), v))

# kron
I2 = torch.eye(2)
K = torch.kron(I2, torch.tensor([[1., 2.], [3., 4.]]))
print(K, K.shape)
print(torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10, 100])))
kx = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
torch.kron(kx, torch.tensor([[1., -1.], [0., 2.]])).sum().backward()
print(kx.grad)

# diag family
m = torch.arange(1., 10.).view(3, 3)
print(torch.diag(m, 1), torch.diag(m, -1), m.diagonal(offset=1), torch.diagonal(m, 0, 1, 0))
print(torch.diag_embed(torch.tensor([[1., 2.], [3., 4.]])))
print(torch.diag_embed(torch.tensor([1., 2.]), offset=1))
print(torch.diagflat(torch.tensor([[1., 2.], [3., 4.]])))
print(torch.linalg.diagonal(torch.arange(8.).view(2, 2, 2)))
print(torch.trace(m), m.trace().dtype, torch.trace(torch.arange(9).view(3, 3)).dtype)
bd = torch.block_diag(torch.ones(2, 2), torch.tensor([[5.]]), torch.tensor([[7., 8.]]))
print(bd, bd.shape)
dm = m.clone().requires_grad_(True)
(torch.diagonal(dm) * torch.tensor([1., 2., 3.])).sum().backward()
print(dm.grad, torch.diagonal(dm).grad_fn.name(), torch.diag_embed(dm[0]).grad_fn.name())

# tensordot
x = torch.arange(24.).view(2, 3, 4)
y = torch.arange(12.).view(4, 3)
print(torch.tensordot(x, y, dims=([1, 2], [1, 0])))
print(torch.tensordot(x, y, dims=1).shape, torch.tensordot(u, u, dims=0).shape)

try:
    torch.trace(torch.ones(2, 2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.linalg.matrix_power(torch.ones(2, 3), 2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.outer(torch.ones(2, 2), u)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.mv(torch.ones(2, 3), torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
