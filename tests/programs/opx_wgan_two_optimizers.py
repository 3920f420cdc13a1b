# WGAN training loop with two RMSprop optimizers: critic steps with weight clipping (p.data.clamp_),
# generator steps with the critic frozen, zero_grad(set_to_none=True) bookkeeping and grad-value clipping.
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
for k, net in enumerate((G, D)):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.91 + i + 3 * k).view_as(p))

opt_g = torch.optim.RMSprop(G.parameters(), lr=5e-3)
opt_d = torch.optim.RMSprop(D.parameters(), lr=5e-3)
clip = 0.05
n = 16
angles = torch.arange(n, dtype=torch.float32) * (2 * torch.pi / n)
real = torch.stack([torch.cos(angles), torch.sin(angles)], 1) * 2
noise = torch.stack([torch.linspace(-1, 1, n), torch.cos(torch.arange(n, dtype=torch.float32))], 1)

# before any backward there is nothing to clip
try:
    torch.nn.utils.clip_grad_value_(G.parameters(), 1.0)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:50])

for it in range(6):
    for _ in range(3):
        opt_d.zero_grad(set_to_none=True)
        fake = G(noise).detach()
        loss_d = -(D(real).mean() - D(fake).mean())
        loss_d.backward()
        opt_d.step()
        for p in D.parameters():
            p.data.clamp_(-clip, clip)
    print(it, "G grads after D step:", [p.grad is None for p in G.parameters()])

    for p in D.parameters():
        p.requires_grad_(False)
    opt_g.zero_grad(set_to_none=True)
    loss_g = -D(G(noise)).mean()
    loss_g.backward()
    torch.nn.utils.clip_grad_value_(G.parameters(), 0.5)
    opt_g.step()
    for p in D.parameters():
        p.requires_grad_(True)
    print(it, f"loss_d {loss_d.item():.5f}", f"loss_g {loss_g.item():.5f}",
          "D grads:", [p.grad is not None for p in D.parameters()][:2])

print(max(p.abs().max().item() for p in D.parameters()) <= clip)
print(sorted(opt_d.state[D[0].weight].keys()), opt_d.state[D[0].weight]["step"])
print(len(opt_g.state), len(opt_d.state))
try:
    torch.nn.utils.clip_grad_value_([p for p in D.parameters() if p.grad is None], 1.0)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:50])
opt_d.zero_grad(set_to_none=False)
print([p.grad.abs().sum().item() for p in D.parameters()])
