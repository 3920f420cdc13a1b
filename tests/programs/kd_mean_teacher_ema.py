# Self-distillation with an EMA "mean teacher" (torch.optim.swa_utils.AveragedModel with
# an exponential-moving-average avg_fn) and a consistency loss between noisy views.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

student = nn.Sequential(nn.Linear(3, 12), nn.Tanh(), nn.Linear(12, 2))
with torch.no_grad():
    for i, p in enumerate(student.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape) * 0.4)
teacher = AveragedModel(student, multi_avg_fn=get_ema_multi_avg_fn(0.9))
print(type(teacher).__name__, teacher.n_averaged, [n for n, _ in teacher.named_buffers()])
print([n for n, _ in teacher.named_parameters()][:2])

x = torch.stack([torch.linspace(-1, 1, 16), torch.sin(torch.linspace(0, 3, 16)), torch.cos(torch.linspace(0, 2, 16))], 1)
y = (x[:, 0] + x[:, 1] > 0).long()
noise1 = 0.05 * torch.sin(torch.arange(48.0) * 1.7).reshape(16, 3)
noise2 = 0.05 * torch.cos(torch.arange(48.0) * 2.3).reshape(16, 3)
labeled = torch.arange(16) < 6

opt = torch.optim.SGD(student.parameters(), lr=0.2, momentum=0.5)
for step in range(20):
    s_out = student(x + noise1)
    with torch.no_grad():
        t_out = teacher(x + noise2)
    sup = F.cross_entropy(s_out[labeled], y[labeled])
    cons = F.mse_loss(F.softmax(s_out, 1), F.softmax(t_out, 1))
    loss = sup + 2.0 * cons
    opt.zero_grad()
    loss.backward()
    opt.step()
    teacher.update_parameters(student)
    if step % 4 == 0:
        print(f"{step:2d} sup {sup.item():.4f} cons {cons.item():.5f} n_avg {int(teacher.n_averaged)}")

with torch.no_grad():
    sw = student[0].weight
    tw = teacher.module[0].weight
    print("teacher lags student:", f"{(sw - tw).abs().mean().item():.4f}")
    acc_s = (student(x).argmax(1) == y).float().mean().item()
    acc_t = (teacher(x).argmax(1) == y).float().mean().item()
    print(f"acc student {acc_s:.4f} teacher {acc_t:.4f}")
print(teacher.module[0].weight.requires_grad, teacher.n_averaged.dtype)
print(sorted(teacher.state_dict().keys()))
