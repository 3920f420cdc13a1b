# FitNets-style feature distillation with forward hooks + attention transfer
# (Zagoruyko & Komodakis) between a teacher and a student CNN.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv1 = nn.Conv2d(1, width, 3, padding=1)
        self.conv2 = nn.Conv2d(width, width, 3, padding=1)
        self.head = nn.Linear(width, 3)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.head(x.mean(dim=(2, 3)))


def init_det(model, scale):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape) * scale)


teacher, student = Net(8), Net(4)
init_det(teacher, 0.3)
init_det(student, 0.25)
teacher.requires_grad_(False)

feats = {}


def save_to(key):
    def hook(module, inp, out):
        feats[key] = out
    return hook


handles = [
    teacher.conv2.register_forward_hook(save_to("t_conv2")),
    student.conv2.register_forward_hook(save_to("s_conv2")),
]
regressor = nn.Conv2d(4, 8, kernel_size=1, bias=False)
with torch.no_grad():
    regressor.weight.copy_(torch.linspace(-0.5, 0.5, 32).reshape(8, 4, 1, 1))


def attention_map(f, p=2):
    return F.normalize(f.pow(p).mean(1).flatten(1), dim=1)


def at_loss(fs, ft):
    return (attention_map(fs) - attention_map(ft)).pow(2).mean()


x = torch.sin(torch.arange(6 * 36, dtype=torch.float32) * 0.21).reshape(6, 1, 6, 6)
y = torch.tensor([0, 1, 2, 0, 1, 2])
params = list(student.parameters()) + list(regressor.parameters())
opt = torch.optim.Adam(params, lr=0.01)
for step in range(20):
    with torch.no_grad():
        t_out = teacher(x)
    s_out = student(x)
    hint = F.mse_loss(regressor(feats["s_conv2"]), feats["t_conv2"])
    at = at_loss(feats["s_conv2"], feats["t_conv2"])
    ce = F.cross_entropy(s_out, y)
    loss = ce + 0.5 * hint + 100.0 * at
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"{step:2d} ce={ce.item():.4f} hint={hint.item():.4f} at={at.item():.6f}")

print(sorted(feats), feats["t_conv2"].shape, feats["s_conv2"].shape)
print("teacher feat requires_grad:", feats["t_conv2"].requires_grad)
print("student feat grad_fn:", type(feats["s_conv2"].grad_fn).__name__)
am = attention_map(feats["s_conv2"])
print(am.shape, f"{am.norm(dim=1).mean().item():.4f}")
for h in handles:
    h.remove()
feats.clear()
student(x)
print("after remove:", feats, len(student.conv2._forward_hooks))
