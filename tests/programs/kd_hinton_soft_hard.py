# Hinton-style knowledge distillation: frozen teacher, student trained on
# alpha * KL(student/T || teacher/T) * T^2 + (1 - alpha) * cross-entropy.
import torch
import torch.nn as nn
import torch.nn.functional as F


def init_det(model, scale):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            n = p.numel()
            p.copy_(torch.sin(torch.arange(n, dtype=torch.float32) * (0.37 + 0.11 * i)).reshape(p.shape) * scale)


teacher = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
student = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 4))
init_det(teacher, 0.4)
init_det(student, 0.3)
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)

x = torch.stack([torch.sin(torch.arange(6.0) * (k + 1) * 0.3) for k in range(24)])
y = torch.arange(24) % 4


def distillation_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=-1),
                    F.softmax(teacher_logits / T, dim=-1),
                    reduction="batchmean") * (T * T)
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard, soft, hard


opt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
for step in range(30):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    loss, soft, hard = distillation_loss(s_logits, t_logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f} soft {soft.item():.4f} hard {hard.item():.4f}")

# the same soft term through the module API, with log_target
crit = nn.KLDivLoss(reduction="batchmean", log_target=True)
with torch.no_grad():
    s = F.log_softmax(student(x) / 2.0, dim=1)
    t = F.log_softmax(teacher(x) / 2.0, dim=1)
    print("KLDivLoss log_target:", f"{crit(s, t).item():.5f}")
    print("manual:", f"{(t.exp() * (t - s)).sum(1).mean().item():.5f}")
    print("sum reduction:", f"{F.kl_div(s, t, reduction='sum', log_target=True).item():.5f}")
    print("none shape:", F.kl_div(s, t, reduction="none", log_target=True).shape)
    agree = (student(x).argmax(1) == teacher(x).argmax(1)).float().mean()
    print("teacher/student agreement:", agree.item())
    print("student acc:", (student(x).argmax(1) == y).float().mean().item())
print(teacher[0].weight.requires_grad, student[0].weight.grad.shape)
print(loss.grad_fn.name())
