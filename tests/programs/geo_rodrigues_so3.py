# Axis-angle <-> rotation matrix as in 3D vision repos: skew-symmetric hat operator,
# Rodrigues' formula with a small-angle guard, SO(3) log map via acos with clamping,
# comparison against torch.linalg.matrix_exp, and gradients through the whole chain.
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def hat(v):
    zero = torch.zeros_like(v[..., 0])
    x, y, z = v.unbind(-1)
    return torch.stack([
        torch.stack([zero, -z, y], dim=-1),
        torch.stack([z, zero, -x], dim=-1),
        torch.stack([-y, x, zero], dim=-1),
    ], dim=-2)


def axis_angle_to_matrix(aa, eps=1e-6):
    theta = aa.norm(dim=-1, keepdim=True).clamp_min(eps)
    k = aa / theta
    K = hat(k)
    theta = theta.unsqueeze(-1)
    I = torch.eye(3, dtype=aa.dtype).expand_as(K)
    return I + torch.sin(theta) * K + (1 - torch.cos(theta)) * (K @ K)


def matrix_to_axis_angle(R):
    trace = R.diagonal(dim1=-2, dim2=-1).sum(-1)
    cos = ((trace - 1) / 2).clamp(-1 + 1e-7, 1 - 1e-7)
    theta = torch.acos(cos)
    w = torch.stack([R[..., 2, 1] - R[..., 1, 2],
                     R[..., 0, 2] - R[..., 2, 0],
                     R[..., 1, 0] - R[..., 0, 1]], dim=-1)
    return w * (theta / (2 * torch.sin(theta))).unsqueeze(-1)


t = torch.arange(5, dtype=torch.float32)
aa = torch.stack([0.3 * torch.sin(t + 1), 0.2 * torch.cos(2 * t), 0.1 * (t - 2)], dim=-1)
print("axis-angle:\n", aa)
R = axis_angle_to_matrix(aa)
print("R shape", R.shape)
print(R[1])
print("det", torch.linalg.det(R))
RtR = R.transpose(-1, -2) @ R
print("orthogonality err", (RtR - torch.eye(3)).abs().max().item() < 1e-5)

R_exp = torch.linalg.matrix_exp(hat(aa))
print("matrix_exp agrees", torch.allclose(R, R_exp, atol=1e-5))
print(R_exp[3])

aa_back = matrix_to_axis_angle(R)
print("roundtrip ok", (aa_back - aa).abs().max().item() < 1e-4)
print(aa_back)

# geodesic distance between consecutive rotations
R_rel = R[:-1].transpose(-1, -2) @ R[1:]
tr = R_rel.diagonal(dim1=-2, dim2=-1).sum(-1)
ang = torch.acos(((tr - 1) / 2).clamp(-1, 1))
print("geodesic deg", torch.rad2deg(ang))

# gradient of a rotation-alignment loss w.r.t. axis-angle
aa_var = aa.clone().requires_grad_(True)
target = torch.eye(3).expand(5, 3, 3)
loss = ((axis_angle_to_matrix(aa_var) - target) ** 2).sum()
loss.backward()
print(f"loss {loss.item():.5f}")
print("grad\n", aa_var.grad)

# optimize a single rotation towards a target rotation
target_R = axis_angle_to_matrix(torch.tensor([0.4, -0.3, 0.5]))
w = torch.tensor([0.1, 0.1, 0.1], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(30):
    opt.zero_grad()
    l = (axis_angle_to_matrix(w) - target_R).pow(2).sum()
    l.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(step, f"{l.item():.6f}", w.detach())
print("recovered", w.detach(), "grad_fn", l.grad_fn.__class__.__name__)
