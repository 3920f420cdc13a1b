# Differentiable "stable fluids" style advection: a scalar field (smoke density) advected by a
# velocity field with semi-Lagrangian backtracing through F.grid_sample (bilinear, border padding,
# align_corners=True), the initial velocity optimised so the smoke reaches a target, and
# F.interpolate for multigrid-style up/down-sampling, as in differentiable-fluid notebooks.
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

N = 12
lin = torch.linspace(-1, 1, N)
gy, gx = torch.meshgrid(lin, lin, indexing="ij")
base_grid = torch.stack([gx, gy], dim=-1).unsqueeze(0)       # 1 x N x N x 2, (x, y) order
density0 = torch.exp(-((gx + 0.4) ** 2 + gy ** 2) / 0.05).view(1, 1, N, N)
target = torch.exp(-((gx - 0.3) ** 2 + (gy - 0.2) ** 2) / 0.05).view(1, 1, N, N)
print("grid", base_grid.shape, "density", density0.shape, "mass %.4f" % density0.sum().item())


def advect(field, vel, dt):
    # vel: 1 x 2 x N x N in grid units per unit time; sample the field at x - dt * v
    back = base_grid - dt * vel.permute(0, 2, 3, 1)
    return F.grid_sample(field, back, mode="bilinear", padding_mode="border", align_corners=True)


def simulate(vel, steps=6, dt=0.1):
    d = density0
    for _ in range(steps):
        d = advect(d, vel, dt)
    return d


vel = torch.zeros(1, 2, N, N, requires_grad=True)
out = simulate(vel)
print("no velocity -> unchanged:", torch.allclose(out, density0))
print("grad_fn", out.grad_fn.name())

shift = torch.zeros(1, 2, N, N)
shift[:, 0] = 1.0
moved = simulate(shift)
print("center of mass x before %.4f after %.4f" % ((density0 * gx).sum() / density0.sum(), (moved * gx).sum() / moved.sum()))

opt = torch.optim.Adam([vel], lr=0.1)
for it in range(25):
    opt.zero_grad()
    loss = F.mse_loss(simulate(vel), target)
    loss.backward()
    opt.step()
    if it % 6 == 0:
        print(f"it {it:2d} loss {loss.item():.6f} mean vel ({vel[:, 0].mean().item():+.4f}, {vel[:, 1].mean().item():+.4f})")

# modes users compare
probe = torch.tensor([[[[0.95, -0.95], [-0.3, 0.1], [1.3, 0.2]]]])       # 1 x 1 x 3 x 2
for mode, pad, ac in [("bilinear", "zeros", False), ("bilinear", "border", True), ("nearest", "zeros", True),
                      ("bilinear", "reflection", False)]:
    s = F.grid_sample(density0, probe, mode=mode, padding_mode=pad, align_corners=ac)
    print(mode, pad, ac, s.view(-1))
p = probe.clone().requires_grad_(True)
F.grid_sample(density0, p, align_corners=False).sum().backward()
print("d sample / d coords", p.grad.view(-1, 2))

coarse = F.interpolate(density0, scale_factor=0.5, mode="bilinear", align_corners=False)
fine = F.interpolate(coarse, size=(N, N), mode="bilinear", align_corners=True)
print(coarse.shape, fine.shape, "restriction error %.4f" % (fine - density0).abs().max().item())
print(F.avg_pool2d(density0, 2).shape, F.interpolate(density0, scale_factor=2, mode="nearest").shape)
theta = torch.tensor([[[1.0, 0.0, 0.1], [0.0, 1.0, 0.0]]])
print(F.affine_grid(theta, (1, 1, 3, 3), align_corners=False)[0, 0])
