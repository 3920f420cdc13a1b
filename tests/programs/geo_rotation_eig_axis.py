# Recovering a rotation's axis and angle from its eigen-decomposition (torch.linalg.eig gives
# complex eigenpairs), matrix_power for repeated rotations, the Cayley transform with
# torch.linalg.solve, and QR-based random-free orthogonalization of a batch of matrices.
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def axis_angle(axis, angle):
    axis = axis / torch.linalg.vector_norm(axis)
    K = torch.zeros(3, 3, dtype=axis.dtype)
    K[0, 1], K[0, 2], K[1, 2] = -axis[2], axis[1], -axis[0]
    K = K - K.T
    return torch.eye(3, dtype=axis.dtype) + torch.sin(angle) * K + (1 - torch.cos(angle)) * K @ K


axis = torch.tensor([1.0, 2.0, 2.0], dtype=torch.float64)
R = axis_angle(axis, torch.tensor(0.7, dtype=torch.float64))
evals, evecs = torch.linalg.eig(R)
print(evals.dtype, evecs.dtype, evals.shape)
print("|lambda|", evals.abs())
real_idx = torch.argmin((evals - 1).abs())
v = evecs[:, real_idx].real
v = v / v.norm() * torch.sign(v[0])
print("axis", v)
angle = torch.angle(evals).abs().max()
print("angle", f"{angle.item():.6f}")
print("eigvals sorted by angle", torch.sort(torch.angle(evals)).values)
print("trace check", f"{torch.trace(R).item():.6f}", f"{(1 + 2 * torch.cos(angle)).item():.6f}")
print("eigvals only", torch.linalg.eigvals(R).real.sort().values)

# matrix_power: rotating 9 times by 0.7 rad
R9 = torch.linalg.matrix_power(R, 9)
ev9 = torch.linalg.eigvals(R9)
print("angle R^9", f"{torch.angle(ev9).abs().max().item():.6f}", f"{(9 * 0.7 - 2 * torch.pi):.6f}")
print("R^-1 = R^T", torch.allclose(torch.linalg.matrix_power(R, -1), R.T))
print("R^0\n", torch.linalg.matrix_power(R, 0))

# Cayley transform: skew S -> (I - S)^-1 (I + S) is a rotation
S = torch.tensor([[0.0, -0.3, 0.2], [0.3, 0.0, -0.1], [-0.2, 0.1, 0.0]], dtype=torch.float64)
I = torch.eye(3, dtype=torch.float64)
Rc = torch.linalg.solve(I - S, I + S)
print("cayley\n", Rc)
print("det", torch.linalg.det(Rc).item().__round__(10), "orth", torch.allclose(Rc.T @ Rc, I))
S_back = torch.linalg.solve(Rc + I, Rc - I)
print("inverse cayley", torch.allclose(S_back, S))

# orthogonalize a batch with QR, fixing signs so that diag(R) > 0
M = torch.stack([I + 0.2 * k * torch.sin(torch.arange(9, dtype=torch.float64) + k).reshape(3, 3) for k in range(4)])
Q, Rr = torch.linalg.qr(M)
sgn = torch.sign(torch.diagonal(Rr, dim1=-2, dim2=-1))
Q = Q * sgn.unsqueeze(-2)
print("Q dets", torch.linalg.det(Q))
print("Q[3]\n", Q[3])
print("qr modes", [tuple(t.shape) for t in torch.linalg.qr(M[:, :, :2], mode="complete")], torch.linalg.qr(M, mode="r")[0].shape)

# gradient through eigvalsh of a symmetric "inertia tensor"
pts = torch.stack([torch.cos(torch.arange(10.0)), torch.sin(torch.arange(10.0) * 0.5), torch.arange(10.0) / 10], -1).double()
pts.requires_grad_(True)
c = pts - pts.mean(0)
inertia = (c.pow(2).sum(-1)[:, None, None] * I - c[:, :, None] * c[:, None, :]).sum(0)
principal = torch.linalg.eigvalsh(inertia)
print("principal moments", principal)
principal[0].backward()
print("grad", pts.grad[:3])
print("cond", torch.linalg.cond(inertia).item().__round__(6))
