# Mean-teacher / feature distillation recipe: an EMA teacher kept by AveragedModel with a custom
# avg_fn, intermediate features captured with forward hooks, an MSE + cosine feature loss,
# a consistency loss on softened outputs, and a per-group lr warmup written with LambdaLR.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import LambdaLR
from torch.optim.swa_utils import AveragedModel


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8))
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        return self.head(self.body(x))


student = Net()
with torch.no_grad():
    for i, p in enumerate(student.parameters()):
        p.copy_(0.45 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + 0.5 * i).view_as(p))
teacher = AveragedModel(student, avg_fn=lambda avg, cur, n: 0.8 * avg + 0.2 * cur)
teacher.update_parameters(student)

feats = {}


def keep(name):
    def hook(module, inputs, output):
        feats[name] = output
    return hook


handles = [student.body.register_forward_hook(keep("student")),
           teacher.module.body.register_forward_hook(keep("teacher"))]

t = torch.arange(32, dtype=torch.float32)
x = torch.stack([torch.sin(t * 0.3), torch.cos(t * 0.2), t / 32, torch.sin(t * 0.05) ** 2], 1)
y = (t.long() * 7) % 3
labeled = torch.arange(32) % 4 == 0

opt = torch.optim.Adam([{"params": student.body.parameters(), "lr": 0.01},
                        {"params": student.head.parameters(), "lr": 0.02}])
sched = LambdaLR(opt, [lambda s: min(1.0, (s + 1) / 5), lambda s: 0.97 ** s])
T = 2.0
for step in range(20):
    s_out = student(x)
    with torch.no_grad():
        t_out = teacher(x)
    sup = F.cross_entropy(s_out[labeled], y[labeled])
    cons = F.mse_loss(F.softmax(s_out / T, 1), F.softmax(t_out / T, 1), reduction="sum") / x.size(0)
    f_s, f_t = feats["student"], feats["teacher"].detach()
    feat = F.mse_loss(f_s, f_t) + (1 - F.cosine_similarity(f_s, f_t, dim=1)).mean()
    loss = sup + 2.0 * cons + 0.5 * feat
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    teacher.update_parameters(student)
    if step % 4 == 0 or step == 19:
        print(step, f"{sup.item():.4f}", f"{cons.item():.6f}", f"{feat.item():.6f}",
              [round(v, 5) for v in sched.get_last_lr()])

for h in handles:
    h.remove()
print(len(student.body._forward_hooks), len(teacher.module.body._forward_hooks), teacher.n_averaged)
with torch.no_grad():
    acc_s = (student(x).argmax(1) == y).float().mean().item()
    acc_t = (teacher(x).argmax(1) == y).float().mean().item()
    gap = max((a - b).abs().max().item() for a, b in zip(student.parameters(), teacher.parameters()))
print(f"{acc_s:.4f}", f"{acc_t:.4f}", f"{gap:.4f}", teacher.module.body[2].weight.requires_grad)
print(sorted(sched.state_dict().keys()), sched.state_dict()["lr_lambdas"])
