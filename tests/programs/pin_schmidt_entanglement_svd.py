# Entanglement entropy of a parametrised two-qubit state via the Schmidt decomposition:
# torch.linalg.svdvals / svd of the complex 2x2 coefficient matrix, von Neumann entropy of the
# squared singular values, and its gradient w.r.t. the circuit angle (maximal at pi/4).
import torch

torch.set_default_dtype(torch.float64)


def state(theta, phi):
    c, s = torch.cos(theta), torch.sin(theta)
    e = torch.polar(torch.ones(()), phi)
    psi = torch.stack([c + 0j, torch.zeros((), dtype=torch.complex128),
                       torch.zeros((), dtype=torch.complex128), s * e])
    return psi.reshape(2, 2)


def entropy(psi):
    sv = torch.linalg.svdvals(psi)
    p = sv ** 2
    p = p / p.sum()
    return -(torch.special.xlogy(p, p)).sum()


for th in [0.0, 0.3, torch.pi / 4]:
    theta = torch.tensor(th, requires_grad=True)
    S = entropy(state(theta, torch.tensor(0.7)))
    S.backward()
    print(f"theta={th:.3f} S={S.item():.4f} dS/dtheta={theta.grad.item():.4f}")

psi = state(torch.tensor(0.5), torch.tensor(1.2))
U, Sv, Vh = torch.linalg.svd(psi)
print("singular values:", Sv)
print("reconstruct:", torch.allclose(U @ torch.diag(Sv).to(psi.dtype) @ Vh, psi))
print("U unitary:", torch.allclose(U.mH @ U, torch.eye(2, dtype=psi.dtype)))
print("schmidt coefficients sum of squares:", round((Sv ** 2).sum().item(), 6))
