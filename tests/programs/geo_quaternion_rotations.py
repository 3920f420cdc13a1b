# Quaternion utilities in the style of pytorch3d/kornia: quaternion -> matrix, matrix -> quaternion
# (Shepperd's method with argmax over candidates), Hamilton product, slerp, standardize sign,
# and gradient of a quaternion loss through F.normalize.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def quaternion_to_matrix(q):
    r, i, j, k = torch.unbind(q, -1)
    two_s = 2.0 / (q * q).sum(-1)
    o = torch.stack((
        1 - two_s * (j * j + k * k), two_s * (i * j - k * r), two_s * (i * k + j * r),
        two_s * (i * j + k * r), 1 - two_s * (i * i + k * k), two_s * (j * k - i * r),
        two_s * (i * k - j * r), two_s * (j * k + i * r), 1 - two_s * (i * i + j * j),
    ), -1)
    return o.reshape(q.shape[:-1] + (3, 3))


def _sqrt_positive_part(x):
    ret = torch.zeros_like(x)
    positive_mask = x > 0
    ret[positive_mask] = torch.sqrt(x[positive_mask])
    return ret


def matrix_to_quaternion(m):
    batch_dim = m.shape[:-2]
    m00, m01, m02, m10, m11, m12, m20, m21, m22 = torch.unbind(m.reshape(batch_dim + (9,)), dim=-1)
    q_abs = _sqrt_positive_part(torch.stack([
        1.0 + m00 + m11 + m22, 1.0 + m00 - m11 - m22,
        1.0 - m00 + m11 - m22, 1.0 - m00 - m11 + m22], dim=-1))
    quat_by_rijk = torch.stack([
        torch.stack([q_abs[..., 0] ** 2, m21 - m12, m02 - m20, m10 - m01], dim=-1),
        torch.stack([m21 - m12, q_abs[..., 1] ** 2, m10 + m01, m02 + m20], dim=-1),
        torch.stack([m02 - m20, m10 + m01, q_abs[..., 2] ** 2, m12 + m21], dim=-1),
        torch.stack([m10 - m01, m20 + m02, m21 + m12, q_abs[..., 3] ** 2], dim=-1),
    ], dim=-2)
    flr = torch.tensor(0.1).to(dtype=q_abs.dtype)
    quat_candidates = quat_by_rijk / (2.0 * q_abs[..., None].max(flr))
    idx = q_abs.argmax(dim=-1)
    out = quat_candidates[F.one_hot(idx, num_classes=4) > 0.5, :]
    return out.reshape(batch_dim + (4,))


def standardize(q):
    return torch.where(q[..., 0:1] < 0, -q, q)


def quaternion_raw_multiply(a, b):
    aw, ax, ay, az = torch.unbind(a, -1)
    bw, bx, by, bz = torch.unbind(b, -1)
    return torch.stack((aw * bw - ax * bx - ay * by - az * bz,
                        aw * bx + ax * bw + ay * bz - az * by,
                        aw * by - ax * bz + ay * bw + az * bx,
                        aw * bz + ax * by - ay * bx + az * bw), -1)


def slerp(q0, q1, t):
    dot = (q0 * q1).sum(-1, keepdim=True)
    q1 = torch.where(dot < 0, -q1, q1)
    dot = dot.abs().clamp(max=1.0 - 1e-7)
    omega = torch.acos(dot)
    so = torch.sin(omega)
    return (torch.sin((1 - t) * omega) / so) * q0 + (torch.sin(t * omega) / so) * q1


n = torch.arange(6, dtype=torch.float32)
q = F.normalize(torch.stack([torch.cos(n) + 1.5, torch.sin(n), 0.5 * torch.cos(2 * n), n / 6 - 0.5], -1), dim=-1)
print(q)
R = quaternion_to_matrix(q)
print(R.shape, R[2])
q_back = standardize(matrix_to_quaternion(R))
print(q_back)
print("roundtrip", torch.allclose(q_back, standardize(q), atol=1e-5))
print("one_hot dtype", F.one_hot(torch.tensor([2, 0]), 4).dtype)

qm = quaternion_raw_multiply(q[0], q[1])
print("hamilton", qm, qm.norm())
print("composition", torch.allclose(quaternion_to_matrix(qm), R[0] @ R[1], atol=1e-5))
conj = q * torch.tensor([1.0, -1, -1, -1])
print("q * q^-1", quaternion_raw_multiply(q, conj)[:, 0])

ts = torch.linspace(0, 1, 5).unsqueeze(-1)
path = slerp(q[0].expand(5, 4), q[3].expand(5, 4), ts)
print("slerp\n", path)
print("unit norms", path.norm(dim=-1))

# gradient through normalization into a rotation-alignment loss
raw = torch.tensor([[1.0, 0.2, -0.1, 0.3], [0.5, 0.5, 0.5, -0.5]], requires_grad=True)
target = quaternion_to_matrix(q[:2])
loss = (quaternion_to_matrix(F.normalize(raw, dim=-1)) - target).square().mean()
loss.backward()
print(f"loss {loss.item():.5f}")
print(raw.grad)

# quaternion loss invariant to sign
qa = F.normalize(raw.detach(), dim=-1)
print("1-|dot|", 1 - (qa * q[:2]).sum(-1).abs())
