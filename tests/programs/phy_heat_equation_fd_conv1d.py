# Differentiable finite-difference PDE solver: the 1D heat equation u_t = kappa u_xx stepped with
# a Laplacian stencil applied by F.conv1d on a periodic (F.pad mode="circular") grid, the
# diffusivity recovered by gradient descent through the rollout; torch.gradient / torch.diff /
# torch.trapezoid used for diagnostics, as in "differentiable physics with PyTorch" notebooks.
import math
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5, sci_mode=False)

nx, L = 32, 2 * math.pi
dx = L / nx
x = torch.arange(nx) * dx
u0 = torch.sin(x) + 0.5 * torch.sin(3 * x)
stencil = torch.tensor([[[1.0, -2.0, 1.0]]]) / dx ** 2
print("stencil", stencil.shape, "dx", round(dx, 5))


def laplacian(u):
    return F.conv1d(F.pad(u.view(1, 1, -1), (1, 1), mode="circular"), stencil).view(-1)


def solve(kappa, u, dt=0.01, steps=50):
    for _ in range(steps):
        u = u + dt * kappa * laplacian(u)
    return u


# compare the stencil to torch.roll and to the exact second derivative
lap_roll = (torch.roll(u0, -1) - 2 * u0 + torch.roll(u0, 1)) / dx ** 2
print("conv == roll:", torch.allclose(laplacian(u0), lap_roll))
exact = -torch.sin(x) - 4.5 * torch.sin(3 * x)
print("max stencil error %.4f" % (laplacian(u0) - exact).abs().max().item())

kappa_true = torch.tensor(0.3)
with torch.no_grad():
    u_obs = solve(kappa_true, u0)
analytic = torch.exp(-kappa_true * 0.5) * torch.sin(x) + 0.5 * torch.exp(-9 * kappa_true * 0.5) * torch.sin(3 * x)
print("solver vs analytic: %.4f" % (u_obs - analytic).abs().max().item())

log_kappa = torch.tensor(math.log(0.05), requires_grad=True)
opt = torch.optim.Adam([log_kappa], lr=0.1)
for it in range(30):
    opt.zero_grad()
    u_T = solve(log_kappa.exp(), u0)
    loss = F.mse_loss(u_T, u_obs)
    loss.backward()
    opt.step()
    if it % 6 == 0:
        print(f"it {it:2d} loss {loss.item():.6f} kappa {log_kappa.exp().item():.4f} grad {log_kappa.grad.item():+.4f}")
print("kappa close to 0.3:", abs(log_kappa.exp().item() - 0.3) < 0.03)

# diagnostics users compute on the solution
u_T = solve(kappa_true, u0)
du_np = torch.gradient(u_T, spacing=dx)[0]
print("torch.gradient", du_np.shape, du_np[:4])
print("torch.diff", torch.diff(u_T)[:4] / dx)
energy = torch.trapezoid(u_T ** 2, dx=dx)
print("energy %.5f" % energy.item(), energy.grad_fn is None)
xs = torch.cat([x, x[:1] + L])
print("trapz with x %.5f" % torch.trapezoid(torch.cat([u0, u0[:1]]) ** 2, xs).item())
print(torch.cumulative_trapezoid(u0[:6], dx=dx))

# gradient of the energy w.r.t. the initial condition (adjoint of the diffusion operator)
u_init = u0.clone().requires_grad_(True)
E = torch.trapezoid(solve(kappa_true, u_init) ** 2, dx=dx)
E.backward()
print(u_init.grad[:6])
# padding modes used for Dirichlet / Neumann style boundaries
v = torch.arange(5.0).view(1, 1, 5)
for mode in ["circular", "replicate", "reflect", "constant"]:
    print(mode, F.pad(v, (2, 2), mode=mode).view(-1).tolist())
