# DINO: student/teacher with a center buffer updated by EMA, teacher temperature sharpening, multi-crop
# cross-entropy sum(-t * log_softmax(s)), teacher EMA via torch._foreach_mul_/_foreach_add_ and
# torch._foreach_lerp_, param_k.requires_grad_(False), and gradient-norm clipping of the student.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class DINOLoss(nn.Module):
    def __init__(self, out_dim, ncrops, teacher_temp=0.04, student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.student_temp = student_temp
        self.teacher_temp = teacher_temp
        self.center_momentum = center_momentum
        self.ncrops = ncrops
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_output, teacher_output):
        student_out = (student_output / self.student_temp).chunk(self.ncrops)
        teacher_out = F.softmax((teacher_output - self.center) / self.teacher_temp, dim=-1)
        teacher_out = teacher_out.detach().chunk(2)
        total_loss, n_loss_terms = 0, 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)
                total_loss += loss.mean()
                n_loss_terms += 1
        total_loss /= n_loss_terms
        self.update_center(teacher_output)
        return total_loss

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = torch.sum(teacher_output, dim=0, keepdim=True)
        batch_center = batch_center / len(teacher_output)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


student = nn.Sequential(nn.Linear(6, 10), nn.GELU(), nn.Linear(10, 5))
with torch.no_grad():
    for i, p in enumerate(student.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.53 + i).float().view_as(p) * 0.6)
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)

dino = DINOLoss(5, ncrops=4)
opt = torch.optim.AdamW(student.parameters(), lr=0.01, weight_decay=0.04)
base = torch.linspace(-1, 1, 3 * 6).view(3, 6)
crops = [base, base.flip(1), torch.roll(base, 2, dims=1), base * 0.5]

for it in range(6):
    s_out = torch.cat([student(c) for c in crops])
    t_out = teacher(torch.cat(crops[:2]))
    loss = dino(s_out, t_out)
    opt.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(student.parameters(), 0.5)
    opt.step()
    m = 0.9 + 0.05 * it / 5
    with torch.no_grad():
        t_params = list(teacher.parameters())
        s_params = [p.detach() for p in student.parameters()]
        if it % 2 == 0:
            torch._foreach_mul_(t_params, m)
            torch._foreach_add_(t_params, s_params, alpha=1 - m)
        else:
            torch._foreach_lerp_(t_params, s_params, 1 - m)
    print(it, f"loss={loss.item():.4f}", f"gnorm={norm.item():.4f}", f"m={m:.3f}")

print("center", dino.center.round(decimals=4))
print("center is buffer", "center" in dict(dino.named_buffers()))
print("teacher requires_grad", {p.requires_grad for p in teacher.parameters()})
print("teacher w0", teacher[0].weight[0].round(decimals=4))
print("student grad", student[2].bias.grad.round(decimals=4))
