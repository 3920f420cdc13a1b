# Semi-gradient TD(lambda) with eligibility traces done by hand: torch.autograd.grad of V(s)
# w.r.t. parameters, traces z = gamma*lambda*z + grad kept in a list, in-place p.add_(alpha*delta*z)
# under no_grad; also the lambda-return computed backwards and the TD error of the target network.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)
value_net = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 1))
with torch.no_grad():
    for i, p in enumerate(value_net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view_as(p) * 0.5)
params = list(value_net.parameters())
gamma, lam, lr = 0.95, 0.8, 0.05

states = torch.stack([torch.sin(torch.arange(2) + 0.4 * t) for t in range(9)])
rewards = torch.tensor([0., 0., 1., 0., -1., 0., 0., 1.])
dones = torch.tensor([0., 0., 0., 0., 0., 0., 0., 1.])

traces = [torch.zeros_like(p) for p in params]
print([z.shape for z in traces], traces[0].requires_grad)
for t in range(8):
    v = value_net(states[t]).squeeze()
    grads = torch.autograd.grad(v, params)
    with torch.no_grad():
        v_next = value_net(states[t + 1]).squeeze() * (1 - dones[t])
        delta = rewards[t] + gamma * v_next - v
        for z, g in zip(traces, grads):
            z.mul_(gamma * lam).add_(g)
        for p, z in zip(params, traces):
            p.add_(lr * delta * z)
    print(t, f"v={v.item():.4f} delta={delta.item():.4f}", v.grad_fn.name(), delta.requires_grad,
          f"{sum(z.abs().sum() for z in traces).item():.4f}")

# lambda-returns backward, then a regression step against them
with torch.no_grad():
    values = value_net(states).squeeze(-1)
lam_returns = torch.zeros(8)
G = values[8]
for t in reversed(range(8)):
    G = rewards[t] + gamma * (1 - dones[t]) * ((1 - lam) * values[t + 1] + lam * G)
    lam_returns[t] = G
print(values, lam_returns)
pred = value_net(states[:8]).squeeze(-1)
loss = 0.5 * (lam_returns - pred).pow(2).mean()
grads = torch.autograd.grad(loss, params, retain_graph=True)
print(f"{loss.item():.5f}", [g.norm().round(decimals=4).item() for g in grads])
g_all = torch.autograd.grad(loss, params, allow_unused=True, retain_graph=True)
print(all(torch.equal(a, b) for a, b in zip(grads, g_all)))
flat = torch.cat([g.reshape(-1) for g in grads])
print(flat.shape, f"{flat.norm().item():.4f}", nn.utils.parameters_to_vector(params).shape)
try:
    torch.autograd.grad(value_net(states[0]), params)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.autograd.grad(loss, params)
    torch.autograd.grad(loss, params)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:80])
