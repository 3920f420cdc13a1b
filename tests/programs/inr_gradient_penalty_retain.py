# Gradient-penalty style training of a coordinate critic: the same forward graph is
# differentiated twice (retain_graph=True), a penalty on ||d f / d x|| is built with
# create_graph, and .grad accumulates across two backward calls before one optimizer step.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.ModuleList([nn.Linear(2, 12), nn.Linear(12, 12), nn.Linear(12, 1)])
        with torch.no_grad():
            for i, l in enumerate(self.fc):
                l.weight.copy_(torch.sin(torch.arange(l.weight.numel()) * 1.1 + i).view_as(l.weight) * 0.7)
                l.bias.copy_(torch.linspace(-0.2, 0.3, l.out_features))

    def forward(self, x):
        for l in self.fc[:-1]:
            x = torch.nn.functional.silu(l(x))
        return self.fc[-1](x)


t = torch.linspace(0, 2 * torch.pi, 10)
real = torch.stack([torch.cos(t), torch.sin(t)], 1)           # points on the unit circle
fake = torch.stack([0.5 * torch.cos(t + 0.3), 0.5 * torch.sin(t + 0.3)], 1)
alpha = torch.linspace(0, 1, 10).unsqueeze(1)

critic = Critic()
opt = torch.optim.Adam(critic.parameters(), lr=2e-3, betas=(0.5, 0.9))

x = real.clone().requires_grad_(True)
out = critic(x)
g1 = torch.autograd.grad(out.sum(), x, retain_graph=True)[0]
g2 = torch.autograd.grad(out.sum(), x)[0]
print("same grad twice:", torch.equal(g1, g2))
try:
    torch.autograd.grad(out.sum(), x)
except RuntimeError as e:
    print("third call:", type(e).__name__, str(e).split(".")[0])

for step in range(12):
    opt.zero_grad()
    w_loss = critic(fake).mean() - critic(real).mean()
    w_loss.backward()
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d = critic(interp)
    (gx,) = torch.autograd.grad(d, interp, grad_outputs=torch.ones_like(d), create_graph=True, retain_graph=True)
    gp = ((gx.norm(2, dim=1) - 1) ** 2).mean()
    (10 * gp).backward()
    opt.step()
    if step % 3 == 0 or step == 11:
        print(f"step {step:2d} w {w_loss.item():+.4f} gp {gp.item():.4f} "
              f"bias grad {critic.fc[-1].bias.grad.item():+.4f}")
print("interp grad is None:", interp.grad is None)
print("gx grad_fn:", type(gx.grad_fn).__name__)
