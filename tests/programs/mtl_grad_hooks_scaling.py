# Per-parameter and per-tensor gradient hooks in multi-task training: scaling one task's gradient
# flowing into the shared trunk (a gradient-reversal / task-balancing trick), recording per-task
# gradient norms at the shared feature with tensor hooks, and removing hooks via their handles.
import torch
import torch.nn as nn
import torch.nn.functional as F

trunk = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 6))
head_a = nn.Linear(6, 1)
head_b = nn.Linear(6, 2)
for i, p in enumerate(list(trunk.parameters()) + list(head_a.parameters()) + list(head_b.parameters())):
    with torch.no_grad():
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 - i).view(p.shape) * 0.45)

x = torch.stack([torch.linspace(-1, 1, 12), torch.sin(torch.arange(12.0)), torch.ones(12) * 0.5], 1)
ya = x[:, 0] * 2
yb = (torch.arange(12) % 2)


class GradScale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.scale, None


recorded = {}


def record(name):
    def hook(grad):
        recorded[name] = round(grad.norm().item(), 4)
    return hook


param_scale = {"weight": 0.5}
handles = [p.register_hook(lambda g, s=param_scale["weight"]: g * s) for n, p in trunk.named_parameters() if n.endswith("weight")]
opt = torch.optim.SGD(list(trunk.parameters()) + list(head_a.parameters()) + list(head_b.parameters()), lr=0.1)

for step in range(12):
    opt.zero_grad()
    h = trunk(x)
    ha = h.clone()
    hb = GradScale.apply(h, -0.3)
    ha.register_hook(record("a"))
    hb.register_hook(record("b"))
    loss_a = F.mse_loss(head_a(ha).squeeze(1), ya)
    loss_b = F.cross_entropy(head_b(hb), yb)
    (loss_a + loss_b).backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step:2d} loss_a {loss_a.item():.4f} loss_b {loss_b.item():.4f} hook norms {recorded}")
        print("   trunk grad norms", [round(p.grad.norm().item(), 4) for p in trunk.parameters()])

print(hb.grad_fn.__class__.__name__, ha.grad_fn)
w = trunk[0].weight
opt.zero_grad()
F.mse_loss(head_a(trunk(x)).squeeze(1), ya).backward()
scaled = w.grad.clone()
for hd in handles:
    hd.remove()
opt.zero_grad()
F.mse_loss(head_a(trunk(x)).squeeze(1), ya).backward()
print("ratio after removing hooks:", torch.allclose(scaled * 2, w.grad))
print("bias untouched by hooks:", trunk[0].bias.grad is not None)

# post-accumulate-grad hook: per-parameter grad clipping at accumulation time
counts = []


def clip_on_accumulate(p):
    counts.append(p.grad.shape)
    p.grad.clamp_(-0.05, 0.05)


hh = head_b.weight.register_post_accumulate_grad_hook(clip_on_accumulate)
opt.zero_grad()
F.cross_entropy(head_b(trunk(x)), yb).backward()
print(counts, head_b.weight.grad.abs().max().item() <= 0.05)
hh.remove()
