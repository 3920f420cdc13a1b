# Neural ODE trained with a hand-written adjoint method (Chen et al. 2018, "torchdiffeq-from-
# scratch" tutorials): a custom autograd.Function whose forward integrates with RK4 under
# no_grad and whose backward integrates the augmented adjoint system backwards using
# torch.autograd.grad(f, (z, *params), -a, allow_unused=True), with params flattened by
# parameters_to_vector; compared against direct backprop through the solver.
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=6)


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(2, 8)
        self.l2 = nn.Linear(8, 2)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.5 * torch.cos(0.9 * torch.arange(p.numel()) + i).view_as(p))

    def forward(self, t, z):
        return self.l2(torch.tanh(self.l1(z)))


def rk4(f, z, t0, t1, n=10):
    h = (t1 - t0) / n
    t = t0
    for _ in range(n):
        k1 = f(t, z); k2 = f(t + h / 2, z + h / 2 * k1)
        k3 = f(t + h / 2, z + h / 2 * k2); k4 = f(t + h, z + h * k3)
        z = z + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t = t + h
    return z


class ODEAdjoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z0, flat_params, func, t0, t1):
        with torch.no_grad():
            zT = rk4(func, z0, t0, t1)
        ctx.func, ctx.t0, ctx.t1 = func, t0, t1
        ctx.save_for_backward(zT, flat_params)
        return zT

    @staticmethod
    def backward(ctx, grad_zT):
        zT, flat_params = ctx.saved_tensors
        func = ctx.func
        params = tuple(func.parameters())
        n_z = zT.numel()

        def aug_dynamics(t, s):
            z, a = s[:n_z].view_as(zT), s[n_z:2 * n_z].view_as(zT)
            with torch.enable_grad():
                z = z.detach().requires_grad_(True)
                fz = func(t, z)
                vjps = torch.autograd.grad(fz, (z,) + params, -a, allow_unused=True)
            vjp_z = vjps[0]
            vjp_p = torch.cat([g.reshape(-1) for g in vjps[1:]])
            return torch.cat([fz.detach().reshape(-1), vjp_z.reshape(-1), vjp_p])

        s = torch.cat([zT.reshape(-1), grad_zT.reshape(-1), torch.zeros_like(flat_params)])
        s = rk4(aug_dynamics, s, ctx.t1, ctx.t0, n=40)
        a0 = s[n_z:2 * n_z].view_as(zT)
        # the parameter adjoint was integrated as -int a^T df/dp from t1 to t0 -> gradient
        gp = s[2 * n_z:]
        return a0, gp, None, None, None


func = ODEFunc()
flat = parameters_to_vector(func.parameters())
print("n params", flat.numel(), flat.shape)
z0 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5]], requires_grad=True)
flat_leaf = flat.detach().requires_grad_(True)
zT = ODEAdjoint.apply(z0, flat_leaf, func, 0.0, 1.0)
print(zT)
print(type(zT.grad_fn).__name__)
loss = (zT ** 2).sum()
loss.backward()
adj_z, adj_p = z0.grad.clone(), flat_leaf.grad.clone()

z0.grad = None
zT_direct = rk4(func, z0, 0.0, 1.0)
loss_direct = (zT_direct ** 2).sum()
loss_direct.backward()
direct_p = torch.cat([p.grad.reshape(-1) for p in func.parameters()])
print("same forward:", torch.allclose(zT, zT_direct))
print("dL/dz0 adjoint", adj_z)
print("dL/dz0 direct ", z0.grad)
print("z0 grads agree (1e-5):", torch.allclose(adj_z, z0.grad, atol=1e-5))
print("param grads agree (1e-5):", torch.allclose(adj_p, direct_p, atol=1e-5))
print("max param diff < 1e-5:", (adj_p - direct_p).abs().max().item() < 1e-5)

# a few training steps with the adjoint gradients written back into .grad
target = torch.tensor([[0.0, 1.0], [-1.0, 0.0], [0.5, 0.5]])
opt = torch.optim.SGD(func.parameters(), lr=0.1)
for step in range(10):
    flat_leaf = parameters_to_vector(func.parameters()).detach().requires_grad_(True)
    loss = ((ODEAdjoint.apply(z0.detach(), flat_leaf, func, 0.0, 1.0) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    offset = 0
    for p in func.parameters():
        p.grad = flat_leaf.grad[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
    opt.step()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.6f}")
vector_to_parameters(torch.zeros(flat.numel()), func.parameters())
print(func.l2.bias, func(0.0, z0).abs().sum().item())
