# Fitting a rigid pose (quaternion + translation) to point correspondences with torch.optim.LBFGS
# and a closure, as in calibration / registration scripts: strong-Wolfe line search, a robust
# Huber loss on residuals, and comparing against the closed-form SVD solution.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=5, sci_mode=False)
dt = torch.float64


def quat_to_rot(q):
    w, x, y, z = F.normalize(q, dim=-1).unbind(-1)
    return torch.stack([
        torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)]),
        torch.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)]),
        torch.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]),
    ])


k = torch.arange(15, dtype=dt)
src = torch.stack([torch.sin(k), torch.cos(1.3 * k), 0.2 * k - 1.4], -1)
q_true = F.normalize(torch.tensor([0.9, 0.2, -0.3, 0.25], dtype=dt), dim=0)
t_true = torch.tensor([0.3, -0.5, 1.2], dtype=dt)
dst = src @ quat_to_rot(q_true).T + t_true + 0.01 * torch.stack([torch.cos(3 * k), torch.sin(5 * k), torch.cos(7 * k)], -1)
dst[4] += torch.tensor([1.0, -1.0, 0.5], dtype=dt)  # an outlier

q = torch.tensor([1.0, 0.0, 0.0, 0.0], dtype=dt, requires_grad=True)
t = torch.zeros(3, dtype=dt, requires_grad=True)
opt = torch.optim.LBFGS([q, t], lr=1.0, max_iter=50, history_size=10, line_search_fn="strong_wolfe")
calls = []


def closure():
    opt.zero_grad()
    pred = src @ quat_to_rot(q).T + t
    loss = F.huber_loss(pred, dst, delta=0.1, reduction="sum")
    loss.backward()
    calls.append(loss.item())
    return loss


for outer in range(3):
    loss = opt.step(closure)
    print(outer, f"{loss.item():.6f}", "evals so far", len(calls))
print("first losses", [round(c, 4) for c in calls[:4]])
q_fit = F.normalize(q.detach(), dim=0)
q_fit = q_fit * torch.sign(q_fit[0])
print("q", q_fit, "true", q_true)
print("t", t.detach())
print("angle err deg", torch.rad2deg(2 * torch.acos((q_fit * q_true).sum().abs().clamp(max=1.0))).item() < 1.0)
state = opt.state_dict()
print("state keys", sorted(state["state"][0].keys())[:6], state["param_groups"][0]["line_search_fn"])

# closed form on the inliers
inl = torch.ones(15, dtype=torch.bool)
inl[4] = False
a, b = src[inl], dst[inl]
H = (a - a.mean(0)).T @ (b - b.mean(0))
U, S, Vh = torch.linalg.svd(H)
D = torch.diag(torch.tensor([1.0, 1.0, torch.sign(torch.linalg.det(Vh.T @ U.T))], dtype=dt))
R_cf = Vh.T @ D @ U.T
print("closed form vs LBFGS rot diff", (R_cf - quat_to_rot(q.detach())).abs().max().item() < 1e-2)
res = (src @ quat_to_rot(q.detach()).T + t.detach() - dst).norm(dim=1)
print("residuals", res.round(decimals=3))
print("outlier flagged", (res > 0.5).nonzero().flatten().tolist())
