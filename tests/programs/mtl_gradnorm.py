# GradNorm (Chen et al. 2018): per-task gradient norms of the last shared layer computed with
# torch.autograd.grad(create_graph=True), a L1 loss pulling them toward a common target, and the
# task weights renormalized after every step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(3, 10), nn.Tanh(), nn.Linear(10, 10), nn.Tanh())
        self.heads = nn.ModuleList([nn.Linear(10, 1) for _ in range(3)])

    def forward(self, x):
        h = self.shared(x)
        return [head(h).squeeze(-1) for head in self.heads]


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + 0.3 * i).view_as(p))

t = torch.linspace(0, 3, 32)
x = torch.stack([torch.sin(t), torch.cos(t), t / 3], dim=1)
targets = [torch.sin(2 * t), 5.0 * torch.cos(t), 0.1 * t]

task_weights = nn.Parameter(torch.ones(3))
alpha = 1.5
opt = torch.optim.SGD(net.parameters(), lr=0.05)
w_opt = torch.optim.Adam([task_weights], lr=0.025)
last_shared = net.shared[2].weight
initial_losses = None

for step in range(25):
    outs = net(x)
    losses = torch.stack([F.mse_loss(o, y) for o, y in zip(outs, targets)])
    if initial_losses is None:
        initial_losses = losses.detach()
    weighted = (task_weights * losses).sum()
    opt.zero_grad()
    weighted.backward(retain_graph=True)

    norms = []
    for i in range(3):
        g, = torch.autograd.grad(task_weights[i] * losses[i], last_shared, retain_graph=True, create_graph=True)
        norms.append(torch.norm(g))
    norms = torch.stack(norms)
    loss_ratio = losses.detach() / initial_losses
    inverse_rate = loss_ratio / loss_ratio.mean()
    target = (norms.mean() * inverse_rate ** alpha).detach()
    gradnorm_loss = torch.abs(norms - target).sum()
    w_opt.zero_grad()
    task_weights.grad = torch.autograd.grad(gradnorm_loss, task_weights)[0]
    opt.step()
    w_opt.step()
    with torch.no_grad():
        task_weights.mul_(3 / task_weights.sum())
    if step % 4 == 0:
        print(f"step {step:2d} losses {[round(v, 4) for v in losses.tolist()]} "
              f"norms {[round(v, 4) for v in norms.tolist()]} gn_loss {gradnorm_loss.item():.4f}")
        print("   weights", [round(v, 4) for v in task_weights.tolist()])

print("norms grad_fn:", norms.grad_fn)
print("weights sum:", f"{task_weights.sum().item():.4f}", task_weights.requires_grad, task_weights.is_leaf)
print("shared grad norm:", f"{last_shared.grad.norm().item():.4f}")
