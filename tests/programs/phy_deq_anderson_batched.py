# Deep equilibrium layer with batched Anderson acceleration, following the "Deep Implicit Layers"
# tutorial (chapter 4): history buffers filled by slice assignment, a bordered least-squares
# system solved with torch.linalg.solve on a batch, and the implicit backward attached through
# a register_hook that solves the adjoint fixed point g = J^T g + grad with Anderson as well.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)


def anderson(f, x0, m=5, lam=1e-4, max_iter=50, tol=1e-10, beta=1.0):
    bsz, d = x0.shape
    X = torch.zeros(bsz, m, d)
    F = torch.zeros(bsz, m, d)
    X[:, 0], F[:, 0] = x0, f(x0)
    X[:, 1], F[:, 1] = F[:, 0], f(F[:, 0])
    H = torch.zeros(bsz, m + 1, m + 1)
    H[:, 0, 1:] = H[:, 1:, 0] = 1
    y = torch.zeros(bsz, m + 1, 1)
    y[:, 0] = 1
    res = []
    for k in range(2, max_iter):
        n = min(k, m)
        G = F[:, :n] - X[:, :n]
        H[:, 1:n + 1, 1:n + 1] = torch.bmm(G, G.transpose(1, 2)) + lam * torch.eye(n)[None]
        alpha = torch.linalg.solve(H[:, :n + 1, :n + 1], y[:, :n + 1])[:, 1:n + 1, 0]
        X[:, k % m] = beta * (alpha[:, None] @ F[:, :n])[:, 0] + (1 - beta) * (alpha[:, None] @ X[:, :n])[:, 0]
        F[:, k % m] = f(X[:, k % m])
        res.append(((F[:, k % m] - X[:, k % m]).norm() / (1e-5 + F[:, k % m].norm())).item())
        if res[-1] < tol:
            break
    return X[:, k % m], res


class DEQLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        with torch.no_grad():
            self.lin.weight.copy_(0.4 * torch.sin(torch.arange(d * d) * 0.61).view(d, d) / d ** 0.5)
            self.lin.bias.copy_(0.1 * torch.cos(torch.arange(d) * 1.0))

    def f(self, z, x):
        return torch.tanh(self.lin(z) + x)

    def forward(self, x):
        with torch.no_grad():
            z, self.res = anderson(lambda z: self.f(z, x), torch.zeros_like(x))
        z = self.f(z, x)                      # one differentiable step re-engages autograd
        z0 = z.clone().detach().requires_grad_()
        f0 = self.f(z0, x)

        def backward_hook(grad):
            g, self.bres = anderson(lambda y: torch.autograd.grad(f0, z0, y, retain_graph=True)[0] + grad, grad)
            return g

        if z.requires_grad:
            z.register_hook(backward_hook)
        return z


d = 6
layer = DEQLayer(d)
x = torch.stack([torch.linspace(-1, 1, d) * (b + 1) / 3 for b in range(3)])
z = layer(x)
print("z*", z.shape, z.grad_fn.name())
print(z[0])
print("fixed point residual < 1e-9:", (layer.f(z, x) - z).norm().item() < 1e-9, "iters", len(layer.res))
print("anderson converged:", layer.res[-1] < 1e-10)

loss = (z ** 2).sum()
loss.backward()
print("backward iters", len(layer.bres))
print(layer.lin.bias.grad)
g_implicit = layer.lin.weight.grad.clone()

# reference: unrolled naive iteration with 200 steps, backprop through all of it
layer.zero_grad()
zz = torch.zeros_like(x)
for _ in range(200):
    zz = layer.f(zz, x)
(zz ** 2).sum().backward()
print("unrolled vs implicit grads agree:", torch.allclose(layer.lin.weight.grad, g_implicit, atol=1e-8))
print(layer.lin.weight.grad[0])

opt = torch.optim.Adam(layer.parameters(), lr=0.05)
target = torch.full((3, d), 0.3)
for step in range(12):
    opt.zero_grad()
    loss = nn.functional.mse_loss(layer(x), target)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.6f} fwd iters {len(layer.res)}")
