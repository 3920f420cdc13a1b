# Mean-teacher / EMA weights with a compiled update: `@torch.no_grad() @torch.compile def ema_update`
# doing ema_p.lerp_(p, weight=1 - decay) over parameter lists and copying BN buffers,
# next to a compiled module that keeps running statistics in registered buffers updated in place.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class Normalizer(nn.Module):
    """Keeps a running mean/var of its inputs (like RL observation normalizers)."""

    def __init__(self, dim, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("var", torch.ones(dim))
        self.register_buffer("count", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        if self.training:
            self.mean.mul_(1 - self.momentum).add_(x.mean(0), alpha=self.momentum)
            self.var.lerp_(x.var(0, unbiased=False), self.momentum)
            self.count += x.shape[0]
        return (x - self.mean) / (self.var + 1e-5).sqrt()


student = nn.Sequential(Normalizer(3), nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))
with torch.no_grad():
    for i, p in enumerate(student.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)
teacher = copy.deepcopy(student)
teacher.requires_grad_(False)


@torch.no_grad()
@torch.compile
def ema_update(ema_params, params, ema_bufs, bufs, decay: float):
    for e, p in zip(ema_params, params):
        e.lerp_(p, weight=1.0 - decay)  # timm ModelEmaV3 style
    for eb, b in zip(ema_bufs, bufs):
        eb.copy_(b)


cstudent = torch.compile(student)
opt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9, nesterov=True)
X = torch.stack([torch.cos(torch.linspace(0, 1, 3) * (k + 1)) * (1 + 0.1 * k) for k in range(10)])
Y = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1, 1, 0])

for step in range(8):
    opt.zero_grad()
    loss = F.cross_entropy(cstudent(X), Y)
    loss.backward()
    opt.step()
    decay = min(0.99, (1 + step) / (10 + step))
    ema_update(list(teacher.parameters()), list(student.parameters()),
               list(teacher.buffers()), list(student.buffers()), decay)
    if step % 2 == 1:
        print(f"step {step} loss {loss.item():.4f} decay {decay:.3f}")

print("normalizer count", student[0].count.item(), teacher[0].count.item(), student[0].count.dtype)
print("normalizer mean", torch.round(student[0].mean, decimals=4))
print("normalizer var", torch.round(teacher[0].var, decimals=4))
print("bn tracked", teacher[2].num_batches_tracked.item())
print("teacher w", torch.round(teacher[1].weight[0], decimals=4))
print("student w", torch.round(student[1].weight[0], decimals=4))
print("teacher grads", [p.grad for p in teacher.parameters()][:2], teacher[1].weight.requires_grad)

teacher.eval()
cteacher = torch.compile(teacher)
with torch.inference_mode():
    t_out = cteacher(X[:3])
print(torch.round(t_out, decimals=4), t_out.is_inference())
print("count unchanged in eval", teacher[0].count.item())
print([k for k in cstudent.state_dict() if k.startswith("_orig_mod.0")])
