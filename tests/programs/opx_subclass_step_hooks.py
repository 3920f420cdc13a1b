# Comparing a baseline AdamW with a subclass that adds gradient centralization in step() and then calls
# super().step(); a step post-hook counts steps and logs lr. (PyTorch hooks each class's step once an
# instance of it exists, so the order in which optimizers are created shows in the hook counts.)
import torch
import torch.nn as nn


class AdamWGC(torch.optim.AdamW):
    """AdamW with gradient centralization for weight matrices."""

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None and p.grad.dim() > 1:
                    p.grad.sub_(p.grad.mean(dim=tuple(range(1, p.grad.dim())), keepdim=True))
        return super().step(closure)


def make_model():
    m = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p))
    return m


x = torch.stack([torch.linspace(-1, 1, 12), torch.sin(torch.arange(12.0)), torch.cos(torch.arange(12.0) * 0.5)], 1)
y = (x[:, 0] * x[:, 1] + x[:, 2]).unsqueeze(1)


def run(opt_cls, label):
    model = make_model()
    opt = opt_cls(model.parameters(), lr=0.02, weight_decay=0.01)
    log = []
    opt.register_step_post_hook(lambda o, args, kwargs: log.append(o.param_groups[0]["lr"]))
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    for it in range(6):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
    print(f"{label:22s} loss {loss.item():.5f} hook calls {len(log)} lrs {sorted(set(log))}")
    return model


run(AdamWGC, "AdamWGC (first)")
run(torch.optim.AdamW, "AdamW baseline")
run(AdamWGC, "AdamWGC (after AdamW)")
m = make_model()
for p in m.parameters():
    p.grad = torch.ones_like(p)
opt = AdamWGC(m.parameters())
opt.step()
print(m[0].weight.grad.mean(1).abs().max().item() < 1e-7, m[0].bias.grad.tolist()[:2])
print(AdamWGC.__mro__[1].__name__, "step" in vars(AdamWGC), opt.param_groups[0]["decoupled_weight_decay"])
