# Trajectory optimization by direct shooting, as in the "optimal control with autograd" posts:
# accelerations are the decision variables, velocities and positions come from torch.cumsum
# (and a trapezoidal rule), the cost mixes control effort, a terminal target and an obstacle
# penalty; gradients through cumsum, a few Adam steps and LBFGS, and the trajectory printed.
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, linewidth=100)

T, dt = 10, 0.1
target = torch.tensor([1.0, 0.5])
obstacle = torch.tensor([0.5, 0.3])


def rollout(acc):
    vel = torch.cumsum(acc * dt, dim=0)
    pos = torch.cumsum(vel * dt, dim=0)
    return vel, pos


def cost(acc):
    vel, pos = rollout(acc)
    effort = (acc ** 2).sum() * dt
    terminal = 100.0 * ((pos[-1] - target) ** 2).sum() + 10.0 * (vel[-1] ** 2).sum()
    dist = torch.linalg.vector_norm(pos - obstacle, dim=1)
    obstacle_pen = F.relu(0.2 - dist).pow(2).sum() * 50.0
    return effort + terminal + obstacle_pen, (effort, terminal, obstacle_pen)


acc = torch.zeros(T, 2)
acc[:, 0] = torch.linspace(1.0, -1.0, T)
acc.requires_grad_(True)
vel, pos = rollout(acc)
print(vel.grad_fn.name(), pos.grad_fn.name(), pos.shape)
print(pos[-1], vel[-1])

# the gradient of the final position w.r.t. each acceleration is dt^2 * (T - i)
pos[-1, 0].backward()
print(acc.grad[:, 0])
acc.grad = None

c, parts = cost(acc)
c.backward()
print(f"cost {c.item():.4f}", [f"{p.item():.4f}" for p in parts])
print(acc.grad[:3])

opt = torch.optim.Adam([acc], lr=0.5)
for it in range(8):
    opt.zero_grad()
    c, parts = cost(acc)
    c.backward()
    opt.step()
    if it % 2 == 0:
        print(it, f"{c.item():.4f}", f"{parts[2].item():.6f}")

lbfgs = torch.optim.LBFGS([acc], lr=1.0, max_iter=30, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    c, _ = cost(acc)
    c.backward()
    return c


for _ in range(2):
    lbfgs.step(closure)
c, parts = cost(acc)
print(f"final {c.item():.4f}")
vel, pos = rollout(acc.detach())
print(pos[-1], vel[-1].abs().max() < 0.5)

# trapezoidal integration and cumulative sums over a time axis
t = torch.linspace(0, 1, 11)
v = (t ** 2).requires_grad_(False).clone().requires_grad_(True)
dist = torch.trapezoid(v, t)
dist_dx = torch.trapezoid(v, dx=0.1)
cum = torch.cumulative_trapezoid(v, t)
print(dist, dist_dx, cum[-3:])
dist.backward()
print(v.grad)
print(torch.cumsum(torch.ones(2, 3), dim=1), torch.cumsum(torch.arange(5), 0).dtype)
print(torch.cumsum(torch.tensor([True, True, False]), 0), torch.diff(pos[:, 0])[:3])
print(torch.flip(torch.cumsum(torch.flip(t, [0]), 0), [0])[:4])
try:
    torch.cumsum(torch.ones(3), dim=1)
except IndexError as e:
    print("IndexError:", e)
