# 6D continuous rotation representation (Zhou et al.) used by pose-regression networks:
# Gram-Schmidt via F.normalize and torch.linalg.cross, matrix -> 6D, a small head that regresses
# rotations trained with a geodesic loss, and an SVD-orthogonalization alternative.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def rotation_6d_to_matrix(d6):
    a1, a2 = d6[..., :3], d6[..., 3:]
    b1 = F.normalize(a1, dim=-1)
    b2 = a2 - (b1 * a2).sum(-1, keepdim=True) * b1
    b2 = F.normalize(b2, dim=-1)
    b3 = torch.linalg.cross(b1, b2, dim=-1)
    return torch.stack((b1, b2, b3), dim=-2)


def matrix_to_rotation_6d(m):
    return m[..., :2, :].clone().reshape(*m.size()[:-2], 6)


def svd_orthogonalize(m):
    U, _, Vh = torch.linalg.svd(m)
    det = torch.det(U @ Vh)
    Vh = torch.cat([Vh[..., :2, :], Vh[..., 2:, :] * det[..., None, None]], dim=-2)
    return U @ Vh


def geodesic_loss(R1, R2, eps=1e-7):
    m = R1 @ R2.transpose(-1, -2)
    cos = (m.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) / 2
    return torch.acos(torch.clamp(cos, -1 + eps, 1 - eps))


x = torch.linspace(-1, 1, 12).reshape(2, 6)
R = rotation_6d_to_matrix(x)
print(R)
print("orthonormal", torch.allclose(R @ R.transpose(-1, -2), torch.eye(3).expand(2, 3, 3), atol=1e-6))
print("det", torch.linalg.det(R))
print("to 6d\n", matrix_to_rotation_6d(R))
print("idempotent", torch.allclose(rotation_6d_to_matrix(matrix_to_rotation_6d(R)), R, atol=1e-6))

M = torch.tensor([[1.0, 0.2, 0.1], [0.1, 0.9, -0.3], [0.0, 0.4, 1.1]])
Ro = svd_orthogonalize(M)
print("svd orth\n", Ro, torch.linalg.det(Ro))
print("cross old api", torch.cross(R[0, 0], R[0, 1], dim=0), torch.cross(R[0, :1], R[0, 1:2], dim=-1).shape)


class PoseHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.fc2 = nn.Linear(16, 6)

    def forward(self, feat):
        return rotation_6d_to_matrix(self.fc2(torch.tanh(self.fc1(feat))))


model = PoseHead()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (i + 1.3)).reshape(p.shape))
    model.fc2.bias.copy_(torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]))

feats = torch.stack([torch.cos(torch.arange(4.0) * k) for k in range(1, 7)])
targets = rotation_6d_to_matrix(torch.stack([torch.cat([torch.cos(torch.arange(3.0) + k), torch.sin(torch.arange(3.0) * k + 1)]) for k in range(6)]))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(40):
    opt.zero_grad()
    loss = geodesic_loss(model(feats), targets).mean()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 39:
        print(step, f"{loss.item():.4f}", f"{model.fc2.weight.grad.norm().item():.2f}")
with torch.no_grad():
    err = torch.rad2deg(geodesic_loss(model(feats), targets))
print("deg errors", err.round(decimals=1))
