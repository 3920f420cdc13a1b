# Deep equilibrium / implicit layers as in the "Implicit layers" tutorial (Kolter, Duvenaud,
# Johnson): a fixed point z* = tanh(W z* + x) found by iteration under torch.no_grad(), a
# custom autograd.Function whose backward solves (I - J^T) g = grad via torch.linalg.solve,
# the hook-based variant (z.register_hook) with a fixed-point solve of the adjoint, and a
# comparison with unrolled backprop through the solver iterations.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=6)


def fixed_point(f, z0, tol=1e-10, max_iter=200):
    z = z0
    for k in range(max_iter):
        z_next = f(z)
        if (z_next - z).norm() < tol:
            return z_next, k + 1
        z = z_next
    return z, max_iter


class TanhLayer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.linear = nn.Linear(n, n, bias=False)
        with torch.no_grad():
            self.linear.weight.copy_(0.3 * torch.cos(torch.arange(n * n) * 0.9).reshape(n, n))

    def forward(self, z, x):
        return torch.tanh(self.linear(z) + x)


class ImplicitSolve(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, W):
        f = lambda z: torch.tanh(z @ W.T + x)
        with torch.no_grad():
            z, iters = fixed_point(f, torch.zeros_like(x))
        ctx.save_for_backward(z, W)
        ctx.iters = iters
        return z

    @staticmethod
    def backward(ctx, grad_z):
        z, W = ctx.saved_tensors
        d = 1 - z ** 2                                   # tanh' at the fixed point
        n = z.shape[-1]
        gx = torch.empty_like(grad_z)
        for b in range(z.shape[0]):
            J = d[b].unsqueeze(1) * W                    # df/dz
            gx[b] = torch.linalg.solve(torch.eye(n) - J.T, grad_z[b]) * d[b]
        gW = gx.T @ z
        return gx, gW


layer = TanhLayer(4)
x = torch.tensor([[0.5, -0.2, 0.1, 0.3], [-0.4, 0.6, 0.0, 0.2]], requires_grad=True)
with torch.no_grad():
    z_star, iters = fixed_point(lambda z: layer(z, x), torch.zeros_like(x))
print(z_star, iters, z_star.requires_grad)
print((layer(z_star, x) - z_star).abs().max() < 1e-9)

# implicit gradients via the custom Function
W = layer.linear.weight
z = ImplicitSolve.apply(x, W)
print(z.grad_fn.name(), type(z.grad_fn).__name__)
loss = (z ** 2).sum()
loss.backward()
gx_impl, gW_impl = x.grad.clone(), W.grad.clone()
print(gx_impl)
print(gW_impl[0])

# unrolled backprop through 60 iterations gives (almost) the same gradients
x.grad = None
W.grad = None
zu = torch.zeros_like(x)
for _ in range(60):
    zu = layer(zu, x)
(zu ** 2).sum().backward()
print(torch.allclose(x.grad, gx_impl, atol=1e-8), torch.allclose(W.grad, gW_impl, atol=1e-8))
print(zu.grad_fn.name())

# the DEQ hook trick: one differentiable step from z*, the hook replaces the gradient
x.grad = None
W.grad = None
with torch.no_grad():
    z_star, _ = fixed_point(lambda z: layer(z, x), torch.zeros_like(x))
z = layer(z_star, x)
z0 = z.clone().detach().requires_grad_()
f0 = layer(z0, x)
calls = []


def backward_hook(grad):
    g = grad
    for _ in range(100):
        g = torch.autograd.grad(f0, z0, g, retain_graph=True)[0] + grad
    calls.append(1)
    return g


h = z.register_hook(backward_hook)
(z ** 2).sum().backward()
h.remove()
print(len(calls), torch.allclose(x.grad, gx_impl, atol=1e-8), torch.allclose(W.grad, gW_impl, atol=1e-8))
print(type(h).__name__)

# gradient check of the implicit layer
xx = x.detach().clone().requires_grad_()
WW = W.detach().clone().requires_grad_()
print(torch.autograd.gradcheck(ImplicitSolve.apply, (xx, WW), eps=1e-6, atol=1e-5))
