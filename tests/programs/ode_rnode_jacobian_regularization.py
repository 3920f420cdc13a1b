# Regularized neural ODE training ("How to train your neural ODE", RNODE): kinetic energy
# ||f||^2 and the Jacobian Frobenius norm ||df/dz||_F^2 integrated along an RK4 path, the
# Frobenius term by Hutchinson (e^T J via autograd.grad, create_graph=True) and exactly by
# torch.autograd.functional.jacobian(create_graph=True), plus an HVP-based Hessian trace.
import torch
import torch.nn as nn
from torch.autograd.functional import jacobian, hvp


class Field(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 24), nn.Softplus(), nn.Linear(24, 3))

    def forward(self, z):
        return self.net(z)


f = Field()
with torch.no_grad():
    for i, p in enumerate(f.parameters()):
        p.copy_(0.35 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.71 + 0.4 * i).reshape(p.shape))

z0 = torch.stack([torch.linspace(-1, 1, 12), torch.sin(torch.arange(12.0)), torch.cos(torch.arange(12.0) * 0.5)], 1)
zT = z0.flip(0) * 0.8
probe = torch.sign(torch.sin(torch.arange(36.0) * 2.7 + 0.2)).reshape(12, 3)


def reg_terms(z, exact=False):
    with torch.enable_grad():
        if not z.requires_grad:
            z = z.requires_grad_(True)
        dz = f(z)
        kinetic = (dz ** 2).sum(1)
        if exact:
            frob = torch.stack([(jacobian(f, zi, create_graph=True) ** 2).sum() for zi in z])
        else:
            eJ = torch.autograd.grad(dz, z, probe, create_graph=True)[0]
            frob = (eJ ** 2).sum(1)
    return dz, kinetic, frob


def integrate(z, exact=False, steps=4):
    h = 1.0 / steps
    ke = fro = 0.0
    for _ in range(steps):  # midpoint rule, regularizers by the rectangle rule
        k1, ke1, fr1 = reg_terms(z, exact)
        k2, _, _ = reg_terms(z + h / 2 * k1, exact)
        z = z + h * k2
        ke = ke + h * ke1.mean()
        fro = fro + h * fr1.mean()
    return z, ke, fro


zf, ke_h, fro_h = integrate(z0)
zf2, ke_e, fro_e = integrate(z0, exact=True)
print("same path:", torch.allclose(zf, zf2, atol=1e-6))
print(f"kinetic {ke_h.item():.5f} frob (hutchinson) {fro_h.item():.5f} frob (exact) {fro_e.item():.5f}")
print("frob grad_fn:", type(fro_e.grad_fn).__name__, "requires_grad:", fro_e.requires_grad)

opt = torch.optim.Adam(f.parameters(), lr=5e-3)
for it in range(10):
    opt.zero_grad()
    zf, ke, fro = integrate(z0)
    mse = ((zf - zT) ** 2).mean()
    loss = mse + 0.05 * ke + 0.05 * fro
    loss.backward()
    opt.step()
    if it % 3 == 0 or it == 9:
        print(f"it {it} mse {mse.item():.5f} ke {ke.item():.5f} frob {fro.item():.5f}")
print("last layer grad norm:", f"{f.net[2].weight.grad.norm().item():.5f}")

# Hutchinson estimate of the Hessian trace of the loss w.r.t. the first layer bias (sharpness)
b = f.net[0].bias.detach().clone()


W1, W2, b2 = f.net[0].weight.detach(), f.net[2].weight.detach(), f.net[2].bias.detach()


def loss_of_bias(bias):
    z = z0
    for _ in range(4):  # Euler steps of the trained field with its first bias swapped in
        z = z + 0.25 * (nn.functional.softplus(z @ W1.T + bias) @ W2.T + b2)
    return ((z - zT) ** 2).mean()


trace = 0.0
for k in range(6):
    v = torch.sign(torch.sin(torch.arange(24.0) * (1.3 + k) + k))
    _, Hv = hvp(loss_of_bias, b, v)
    trace += (v @ Hv).item() / 6
H = torch.autograd.functional.hessian(loss_of_bias, b)
print(f"hutchinson trace {trace:.6f} exact trace {torch.trace(H).item():.6f}")
