# Quantum optimal control (GRAPE-style) for a qubit: piecewise-constant controls, propagators
# U_k = torch.linalg.matrix_exp(-1j * dt * H_k) on complex128 Hamiltonians, gate fidelity
# |tr(U_target^H U)|^2 / d^2 maximised by Adam on the real control amplitudes.
import torch

torch.set_default_dtype(torch.float64)

sx = torch.tensor([[0, 1], [1, 0]], dtype=torch.complex128)
sy = torch.tensor([[0, -1j], [1j, 0]], dtype=torch.complex128)
sz = torch.tensor([[1, 0], [0, -1]], dtype=torch.complex128)
H_drift = 0.5 * sz
U_target = sx  # NOT gate (up to global phase)

n_steps, T = 6, 3.0
dt = T / n_steps
controls = torch.stack([0.3 * torch.cos(torch.arange(n_steps) * 0.8),
                        0.2 * torch.sin(torch.arange(n_steps) * 0.5)], dim=1).requires_grad_(True)


def propagate(ctrl):
    U = torch.eye(2, dtype=torch.complex128)
    for k in range(n_steps):
        H = H_drift + ctrl[k, 0] * sx + ctrl[k, 1] * sy
        U = torch.linalg.matrix_exp(-1j * dt * H) @ U
    return U


def fidelity(U):
    return (torch.trace(U_target.mH @ U).abs() ** 2) / 4


U0 = propagate(controls)
print("U dtype:", U0.dtype, "unitary:", torch.allclose(U0.mH @ U0, torch.eye(2, dtype=torch.complex128)))
print("det U on unit circle:", round(torch.linalg.det(U0).abs().item(), 8))
print("initial fidelity:", round(fidelity(U0).item(), 4))
print("grad_fn:", type(U0.grad_fn).__name__)

opt = torch.optim.Adam([controls], lr=0.1)
for it in range(25):
    opt.zero_grad()
    loss = 1 - fidelity(propagate(controls))
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(f"iter {it:2d} infidelity {loss.item():.4f} |grad| {controls.grad.norm().item():.4f}")
final = fidelity(propagate(controls)).item()
print("final fidelity > 0.9:", final > 0.9, round(final, 3))

# batched propagators and the exact single-step gradient check
Hs = torch.stack([H_drift + a * sx for a in torch.linspace(0, 1, 3)])
Us = torch.linalg.matrix_exp(-1j * dt * Hs)
print("batched:", tuple(Us.shape), Us.dtype)
print("U(a=0) diag:", torch.round(torch.view_as_real(torch.diagonal(Us[0])), decimals=4))

a = torch.tensor(0.4, requires_grad=True)
phase = torch.linalg.matrix_exp(-1j * (a * sz))[0, 0]
phase.real.backward()
print(f"d Re(e^(-ia))/da = {a.grad.item():.6f} vs -sin(a) = {-torch.sin(torch.tensor(0.4)).item():.6f}")

# real skew-symmetric generator through complex path gives same result
W = torch.tensor([[0.0, 0.7], [-0.7, 0.0]])
print("complex vs real expm agree:",
      torch.allclose(torch.linalg.matrix_exp(W.to(torch.complex128)).real, torch.linalg.matrix_exp(W)))
sign, logabs = torch.linalg.slogdet(U0.detach())
print("slogdet of unitary: |sign| =", round(sign.abs().item(), 6), "logabs ~ 0:", abs(logabs.item()) < 1e-10)
