# Implicit layer whose forward runs Newton's method on g(z, theta) = 0 without tracking gradients
# and whose backward applies the implicit function theorem dz/dtheta = -(dg/dz)^-1 dg/dtheta,
# as a custom torch.autograd.Function; verified with torch.autograd.gradcheck in float64.
import torch


class KeplerSolve(torch.autograd.Function):
    """Solve Kepler's equation E - e sin(E) = M for the eccentric anomaly E."""

    @staticmethod
    def forward(ctx, M, e):
        E = M.clone()
        for _ in range(50):
            g = E - e * torch.sin(E) - M
            E = E - g / (1 - e * torch.cos(E))
        ctx.save_for_backward(E, e)
        return E

    @staticmethod
    def backward(ctx, grad_E):
        E, e = ctx.saved_tensors
        dg_dE = 1 - e * torch.cos(E)
        grad_M = grad_E / dg_dE
        grad_e = grad_E * torch.sin(E) / dg_dE
        return grad_M, grad_e


M = torch.linspace(0.1, 3.0, 6, dtype=torch.float64, requires_grad=True)
e = torch.full((6,), 0.3, dtype=torch.float64, requires_grad=True)
E = KeplerSolve.apply(M, e)
print(E)
print(E.grad_fn)
print("residual max", (E - e * torch.sin(E) - M).abs().max().item() < 1e-12)
E.sum().backward()
print("dE/dM", M.grad)
print("dE/de", e.grad)

print("gradcheck:", torch.autograd.gradcheck(KeplerSolve.apply, (M.detach().requires_grad_(), e.detach().requires_grad_()), eps=1e-6, atol=1e-8))


class BadKepler(KeplerSolve):
    @staticmethod
    def backward(ctx, grad_E):
        E, e = ctx.saved_tensors
        return grad_E, grad_E * torch.sin(E)   # forgot the 1/(dg/dE) factor


try:
    torch.autograd.gradcheck(BadKepler.apply, (M.detach().requires_grad_(), e.detach().requires_grad_()), eps=1e-6, atol=1e-8)
except Exception as ex:
    msg = str(ex)
    print(type(ex).__name__, msg.splitlines()[0])
print("raise_exception=False ->", torch.autograd.gradcheck(BadKepler.apply, (M.detach().requires_grad_(), e.detach().requires_grad_()), raise_exception=False))

# second-order: true positions from the solved anomaly, gradient through a downstream loss
a = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
Mt = torch.linspace(0, 2 * torch.pi, 8, dtype=torch.float64)[:-1]
ecc = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
Et = KeplerSolve.apply(Mt, ecc.expand(7))
x = a * (torch.cos(Et) - ecc)
y = a * torch.sqrt(1 - ecc ** 2) * torch.sin(Et)
obs_x = 1.2 * (torch.cos(Mt) - 0.1)
loss = ((x - obs_x) ** 2).mean() + (y ** 2).mean() * 0.01
loss.backward()
print(f"loss {loss.item():.6f} da {a.grad.item():.6f} decc {ecc.grad.item():.6f}")

# fit the eccentricity and semimajor axis with Adam
params = [a, ecc]
opt = torch.optim.Adam(params, lr=0.05)
for step in range(25):
    opt.zero_grad()
    Et = KeplerSolve.apply(Mt, ecc.expand(7))
    x = a * (torch.cos(Et) - ecc)
    loss = ((x - obs_x) ** 2).mean()
    loss.backward()
    opt.step()
    with torch.no_grad():
        ecc.clamp_(0.0, 0.9)
    if step % 6 == 0:
        print(f"{step:2d} loss={loss.item():.5f} a={a.item():.4f} e={ecc.item():.4f}")
print(torch.autograd.gradgradcheck(lambda m: torch.sin(m) * m, (M.detach().requires_grad_(),)))
