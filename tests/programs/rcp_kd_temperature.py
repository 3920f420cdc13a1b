# Knowledge distillation loop (Hinton et al.): teacher/student, KL divergence on
# temperature-softened logits with F.kl_div(log_target=True), reduction variants, T^2 scaling.
import torch
import torch.nn as nn
import torch.nn.functional as F


def init(model, scale):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(scale * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p))


teacher = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
init(teacher, 0.5)
init(student, 0.3)
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)

x = torch.stack([torch.linspace(-1, 1, 24), torch.cos(torch.arange(24.0)),
                 torch.sin(torch.arange(24.0) * 0.5), torch.linspace(1, -0.5, 24)], 1)
y = torch.arange(24) % 3

T = 4.0
alpha = 0.7
opt = torch.optim.Adam(student.parameters(), lr=0.01)
ce = nn.CrossEntropyLoss()
kl = nn.KLDivLoss(reduction="batchmean", log_target=True)

for step in range(30):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    soft_loss = kl(F.log_softmax(s_logits / T, dim=-1), F.log_softmax(t_logits / T, dim=-1)) * T * T
    hard_loss = ce(s_logits, y)
    loss = alpha * soft_loss + (1 - alpha) * hard_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{soft_loss.item():.4f}", f"{hard_loss.item():.4f}", f"{loss.item():.4f}")

print(loss.grad_fn.name(), soft_loss.grad_fn.name())

# the same divergence written the other ways users write it
with torch.no_grad():
    t = F.softmax(teacher(x) / T, dim=-1)
    log_s = F.log_softmax(student(x) / T, dim=-1)
    print(f"{F.kl_div(log_s, t, reduction='batchmean').item():.6f}")
    print(f"{F.kl_div(log_s, t.log(), reduction='batchmean', log_target=True).item():.6f}")
    print(f"{F.kl_div(log_s, t, reduction='sum').item():.6f}")
    print(f"{F.kl_div(log_s, t, reduction='mean').item():.6f}")
    print(f"{(t * (t.log() - log_s)).sum(-1).mean().item():.6f}")
    per = F.kl_div(log_s, t, reduction="none")
    print(per.shape, per.dtype, f"{per.sum().item():.6f}")
    # soft-target cross entropy equals KL + entropy of the targets
    soft_ce = F.cross_entropy(student(x) / T, t)
    ent = -(t * t.log()).sum(-1).mean()
    print(f"{soft_ce.item():.6f}", f"{(F.kl_div(log_s, t, reduction='batchmean') + ent).item():.6f}")
    # zero targets contribute zero (0 * log 0 convention)
    z = torch.tensor([[0.0, 1.0, 0.0]])
    print(F.kl_div(torch.log_softmax(torch.tensor([[1.0, 2.0, 3.0]]), -1), z, reduction="none"))

s_acc = (student(x).argmax(1) == y).float().mean()
t_acc = (teacher(x).argmax(1) == y).float().mean()
agree = (student(x).argmax(1) == teacher(x).argmax(1)).sum()
print(f"{s_acc.item():.3f}", f"{t_acc.item():.3f}", agree.item())
print([p.grad is None for p in teacher.parameters()], sum(p.numel() for p in student.parameters()))
