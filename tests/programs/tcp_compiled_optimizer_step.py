# The "compiling the optimizer" recipe: `@torch.compile(fullgraph=False) def fn(): opt.step()`,
# with an LR scheduler whose LR is a tensor, next to a compiled model; and LBFGS with a closure
# that calls a compiled model.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.4, 0.6, p.numel()).view_as(p) * (1 + 0.5 * i))

x = torch.stack([torch.linspace(0, 1, 3) + 0.2 * k for k in range(6)])
y = (x.sum(dim=1, keepdim=True) - 1.5).sin()

opt = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.02))
sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=1.0, end_factor=0.25, total_iters=8)


@torch.compile(fullgraph=False)
def opt_step():
    opt.step()


for step in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt_step()
    sched.step()
    print(step, f"{loss.item():.3f}", f"{float(opt.param_groups[0]['lr']):.4f}")
print(type(opt.param_groups[0]["lr"]).__name__)
print(sorted(opt.state_dict()["state"][0].keys()))

model2 = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model2.parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).view_as(p) + 0.1 * i)
cmodel2 = torch.compile(model2)
lbfgs = torch.optim.LBFGS(model2.parameters(), lr=0.5, max_iter=5, history_size=4)


def closure():
    lbfgs.zero_grad()
    l = nn.functional.mse_loss(cmodel2(x), y)
    l.backward()
    return l


for it in range(3):
    l = lbfgs.step(closure)
    print("lbfgs", it, f"{l.item():.4f}")
print("final", f"{nn.functional.mse_loss(model2(x), y).item():.4f}")
