# Fine-tuning recipe: layer-wise lr decay (LLRD) param groups, LambdaLR with one lambda per group,
# GradScaler (CPU) with unscale_ before clip_grad_norm_, and manual lr edits mid-training.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, n_layers=3, d=6):
        super().__init__()
        self.embed = nn.Linear(2, d)
        self.layers = nn.ModuleList([nn.Sequential(nn.Linear(d, d), nn.LayerNorm(d), nn.GELU()) for _ in range(n_layers)])
        self.head = nn.Linear(d, 1)

    def forward(self, x):
        h = self.embed(x)
        for layer in self.layers:
            h = h + layer(h)
        return self.head(h)


model = Encoder()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + i).view_as(p))

base_lr, decay = 1e-2, 0.5
groups = [{"params": list(model.head.parameters()), "lr": base_lr, "name": "head"}]
for depth, layer in enumerate(reversed(model.layers), start=1):
    groups.append({"params": list(layer.parameters()), "lr": base_lr * decay ** depth, "name": f"layer{len(model.layers) - depth}"})
groups.append({"params": list(model.embed.parameters()), "lr": base_lr * decay ** (len(model.layers) + 1), "name": "embed"})
opt = torch.optim.AdamW(groups, lr=base_lr, weight_decay=0.01)
print([(g["name"], g["lr"], len(g["params"])) for g in opt.param_groups])

warm = 3
lambdas = [lambda s: min(1.0, (s + 1) / warm)] + [lambda s: 1.0] * (len(groups) - 1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambdas)
print([f"{lr:.6f}" for lr in sched.get_last_lr()])

scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8, growth_interval=3)
print(scaler.is_enabled(), scaler.get_scale())
t = torch.linspace(-1, 1, 32)
x = torch.stack([t, torch.cos(3 * t)], 1)
y = (t * torch.cos(3 * t)).unsqueeze(1)
for step in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    scaler.step(opt)
    scaler.update()
    sched.step()
    if step % 2 == 1:
        print(step, f"{loss.item():.4f}", f"{norm.item():.4f}", scaler.get_scale(), [f"{lr:.5f}" for lr in sched.get_last_lr()[:2]])

# a manual lr edit is overwritten by LambdaLR on the next step (it multiplies base_lrs)
for g in opt.param_groups:
    g["lr"] = g["lr"] * 0.1
print([f"{g['lr']:.6f}" for g in opt.param_groups][:2])
opt.step()
sched.step()
print([f"{g['lr']:.6f}" for g in opt.param_groups][:2], sched.base_lrs[:2])

# inf gradient: the scaler skips the step and backs off
before = model.head.weight.detach().clone()
opt.zero_grad()
loss = nn.functional.mse_loss(model(x), y)
scaler.scale(loss).backward()
model.head.weight.grad[0, 0] = float("inf")
scaler.step(opt)
scaler.update()
print(torch.equal(before, model.head.weight), scaler.get_scale(), sorted(scaler.state_dict().keys()))
try:
    scaler.unscale_(opt)
    scaler.unscale_(opt)
except RuntimeError as e:
    print(type(e).__name__, e)
