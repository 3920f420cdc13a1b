# Differentiable simulation of a spring-mass chain (DiffTaichi / "differentiable physics" blog
# style): semi-implicit Euler rollout kept in a Python list, loss on the final position of the
# last mass, gradient w.r.t. initial velocities and spring stiffness, clip_grad_norm_ and SGD.
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

n_masses, dt, steps = 4, 0.02, 40
rest = 1.0
mass = torch.ones(n_masses)
pos0 = torch.stack([torch.arange(n_masses, dtype=torch.float64) * rest, torch.zeros(n_masses)], dim=1)
springs = torch.tensor([[i, i + 1] for i in range(n_masses - 1)])
print("springs", springs.tolist())


def simulate(v0, log_k, damping=0.1, record=False):
    k = log_k.exp()
    x, v = pos0.clone(), v0
    traj = [x]
    for t in range(steps):
        d = x[springs[:, 1]] - x[springs[:, 0]]
        length = d.norm(dim=1, keepdim=True)
        f_spring = k.unsqueeze(1) * (length - rest) * d / length
        force = torch.zeros_like(x)
        force = force.index_add(0, springs[:, 0], f_spring)
        force = force.index_add(0, springs[:, 1], -f_spring)
        force = force + torch.tensor([0.0, -9.8]) * mass.unsqueeze(1)
        force[0] = 0.0  # first mass is pinned
        v = v * (1 - damping * dt) + dt * force / mass.unsqueeze(1)
        x = x + dt * v
        traj.append(x)
    return (torch.stack(traj) if record else x)


v0 = torch.zeros(n_masses, 2, requires_grad=True)
log_k = torch.full((n_masses - 1,), 3.0, requires_grad=True)
target = torch.tensor([2.5, 0.5])

traj = simulate(v0, log_k, record=True)
print("trajectory", traj.shape, traj.grad_fn.name())
print(traj[-1])
loss = ((traj[-1, -1] - target) ** 2).sum()
loss.backward()
print("loss %.5f" % loss.item())
print("dL/dv0", v0.grad)
print("dL/dlogk", log_k.grad)

opt = torch.optim.SGD([v0, log_k], lr=0.05, momentum=0.5)
losses = []
for it in range(25):
    opt.zero_grad()
    xT = simulate(v0, log_k)
    loss = ((xT[-1] - target) ** 2).sum() + 1e-3 * (v0 ** 2).sum()
    loss.backward()
    total_norm = torch.nn.utils.clip_grad_norm_([v0, log_k], max_norm=1.0)
    opt.step()
    losses.append(loss.item())
    if it % 5 == 0:
        print(f"iter {it:2d} loss {loss.item():.5f} |g| {total_norm.item():.4f}")
print("decreased:", losses[-1] < losses[0])
print("final tip", simulate(v0, log_k)[-1].detach())
print("stiffness", log_k.exp().detach())
with torch.no_grad():
    xT = simulate(v0, log_k)
print(xT.requires_grad, xT.grad_fn)
# gradient clipping by value, as some simulators do to tame exploding BPTT gradients
opt.zero_grad()
loss = ((simulate(v0 * 5, log_k)[-1] - target) ** 2).sum()
loss.backward()
torch.nn.utils.clip_grad_value_([v0, log_k], clip_value=0.5)
print(v0.grad.abs().max().item() <= 0.5, log_k.grad)
