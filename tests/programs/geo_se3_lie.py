# SE(3) exponential and logarithm maps used by SLAM / NeRF pose refinement: twist (rho, phi) ->
# 4x4 transform via the left Jacobian V, log map with acos, pose composition and inversion,
# and optimizing a pose correction (delta twist) with Adam on point alignment.
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def skew(w):
    wx, wy, wz = w.unbind(-1)
    o = torch.zeros_like(wx)
    return torch.stack([o, -wz, wy, wz, o, -wx, -wy, wx, o], -1).reshape(w.shape[:-1] + (3, 3))


def se3_exp(xi):
    rho, phi = xi[..., :3], xi[..., 3:]
    theta = torch.linalg.norm(phi, dim=-1, keepdim=True).unsqueeze(-1)
    W = skew(phi)
    W2 = W @ W
    I = torch.eye(3, dtype=xi.dtype)
    A = torch.sin(theta) / theta
    B = (1 - torch.cos(theta)) / theta ** 2
    C = (theta - torch.sin(theta)) / theta ** 3
    R = I + A * W + B * W2
    V = I + B * W + C * W2
    t = (V @ rho.unsqueeze(-1)).squeeze(-1)
    T = torch.cat([R, t.unsqueeze(-1)], -1)
    bottom = torch.tensor([0, 0, 0, 1], dtype=xi.dtype).expand(xi.shape[:-1] + (1, 4))
    return torch.cat([T, bottom], -2)


def se3_log(T):
    R, t = T[..., :3, :3], T[..., :3, 3]
    cos = ((R.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) / 2).clamp(-1, 1)
    theta = torch.acos(cos)[..., None, None]
    lnR = theta / (2 * torch.sin(theta)) * (R - R.transpose(-1, -2))
    phi = torch.stack([lnR[..., 2, 1], lnR[..., 0, 2], lnR[..., 1, 0]], -1)
    W = skew(phi)
    I = torch.eye(3, dtype=T.dtype)
    Vinv = I - 0.5 * W + (1 / theta ** 2) * (1 - (theta * torch.sin(theta)) / (2 * (1 - torch.cos(theta)))) * (W @ W)
    rho = (Vinv @ t.unsqueeze(-1)).squeeze(-1)
    return torch.cat([rho, phi], -1)


def inverse(T):
    R, t = T[..., :3, :3], T[..., :3, 3:]
    Rt = R.transpose(-1, -2)
    top = torch.cat([Rt, -Rt @ t], -1)
    return torch.cat([top, T[..., 3:, :]], -2)


k = torch.arange(3, dtype=torch.float64)
xi = torch.stack([0.5 * torch.sin(k + 1), 0.2 * k - 0.1, torch.cos(k), 0.3 * torch.cos(k), -0.2 * (k + 1), 0.4 * torch.sin(2 * k + 1)], -1)
print("twists\n", xi)
T = se3_exp(xi)
print(T[1])
print("log(exp(xi)) ok", torch.allclose(se3_log(T), xi, atol=1e-10))
print("inverse ok", torch.allclose(inverse(T) @ T, torch.eye(4, dtype=torch.float64).expand(3, 4, 4), atol=1e-12))
print("linalg.inv ok", torch.allclose(torch.linalg.inv(T), inverse(T), atol=1e-12))
T01 = T[0] @ T[1]
print("composed log", se3_log(T01))
rel = inverse(T[:-1]) @ T[1:]
print("relative twists\n", se3_log(rel))
print("translation norms", torch.linalg.vector_norm(rel[:, :3, 3], dim=-1))

# pose refinement: find a delta twist aligning transformed points
g = torch.arange(12, dtype=torch.float64)
P = torch.stack([torch.sin(g), torch.cos(0.5 * g), 0.1 * g], -1)
Ph = torch.cat([P, torch.ones(12, 1, dtype=torch.float64)], -1)
target = (T[2] @ Ph.T).T[:, :3]
delta = torch.full((6,), 1e-3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([delta], lr=0.05)
for it in range(50):
    opt.zero_grad()
    Test = se3_exp(delta) @ T[1]
    pred = (Test @ Ph.T).T[:, :3]
    loss = torch.nn.functional.mse_loss(pred, target)
    loss.backward()
    opt.step()
    if it % 10 == 0 or it == 49:
        print(it, f"{loss.item():.6f}", f"{delta.grad.norm().item():.5f}")
print("delta", delta.detach())
