# Stability analysis of coupled damped oscillators: spectral abscissa max Re(eig(A)) of the
# non-symmetric state matrix via torch.linalg.eig (complex), differentiated w.r.t. damping and
# stiffness, and a gradient step that makes the system decay faster; linalg.eigvals for checks.
import torch

torch.set_default_dtype(torch.float64)


def state_matrix(k, c):
    n = k.shape[0]
    K = torch.diag(k + torch.roll(k, -1)) - torch.diag(k[1:], 1) - torch.diag(k[1:], -1)
    K = K.clone()
    K[-1, -1] = k[-1]
    C = torch.diag(c)
    top = torch.cat([torch.zeros(n, n), torch.eye(n)], dim=1)
    bottom = torch.cat([-K, -C], dim=1)
    return torch.cat([top, bottom], dim=0)


k = torch.tensor([2.0, 1.5, 1.0], requires_grad=True)
c = torch.tensor([0.3, 0.2, 0.1], requires_grad=True)
A = state_matrix(k, c)
print("A shape:", A.shape)

evals, evecs = torch.linalg.eig(A)
print("eigenvalue dtype:", evals.dtype, "eigvec dtype:", evecs.dtype)
order = torch.argsort(evals.imag)
print("eigenvalues:", evals[order].detach())
ev_only = torch.linalg.eigvals(A.detach())
print("eigvals agree:", torch.allclose(torch.sort(ev_only.real).values, torch.sort(evals.real).values.detach()))

# reconstruct A from the eigen-decomposition
recon = evecs @ torch.diag(evals) @ torch.linalg.inv(evecs)
print("reconstruction error < 1e-10:", (recon.real - A).abs().max().item() < 1e-10,
      "imag part ~ 0:", recon.imag.abs().max().item() < 1e-10)

abscissa = evals.real.max()
abscissa.backward()
print(f"spectral abscissa: {abscissa.item():.5f}")
print("d/dk:", k.grad)
print("d/dc:", c.grad)

# sum of all real parts = trace(A) = -sum(c): gradient is exactly -1 for c, 0 for k
k.grad = None
c.grad = None
evals, _ = torch.linalg.eig(state_matrix(k, c))
evals.real.sum().backward()
print("trace identity: dk ~ 0:", k.grad.abs().max().item() < 1e-12, "dc:", [round(v, 6) for v in c.grad.tolist()])

# gradient of |lambda|^2 through complex abs
k.grad = None
c.grad = None
evals = torch.linalg.eigvals(state_matrix(k, c))
(evals.abs() ** 2).sum().backward()
print("d sum|lambda|^2 / dk:", k.grad)

# improve damping: descend on the spectral abscissa
c_opt = c.detach().clone().requires_grad_(True)
for it in range(5):
    lam = torch.linalg.eigvals(state_matrix(k.detach(), c_opt))
    alpha = lam.real.max()
    g, = torch.autograd.grad(alpha, c_opt)
    with torch.no_grad():
        c_opt -= 0.5 * g
    print(f"iter {it} abscissa {alpha.item():.4f}")
print("damping:", c_opt.detach())

try:
    torch.linalg.eig(torch.ones(2, 3))
except RuntimeError as e:
    print(type(e).__name__, e)
