# Fine-tuning recipe: freeze a backbone (requires_grad_(False), eval BatchNorm), train the head
# with gradient accumulation and clip_grad_norm_, then unfreeze with add_param_group at a lower lr.
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

backbone = nn.Sequential(nn.Linear(3, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 4), nn.ReLU())
head = nn.Linear(4, 2)
model = nn.Sequential(backbone, head)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 2 * i).view_as(p))

for p in backbone.parameters():
    p.requires_grad_(False)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable, sum(p.numel() for p in model.parameters() if p.requires_grad))
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1, momentum=0.9)

t = torch.linspace(0, 1, 32)
x = torch.stack([t, torch.sin(6 * t), torch.cos(4 * t)], 1)
y = (torch.sin(6 * t) > 0).long()
accum = 4
micro = 4
for epoch in range(3):
    model.train()
    backbone.eval()
    opt.zero_grad()
    norms = []
    for i in range(0, 32, micro):
        out = model(x[i:i + micro])
        loss = nn.functional.cross_entropy(out, y[i:i + micro]) / accum
        loss.backward()
        if (i // micro + 1) % accum == 0:
            norms.append(round(clip_grad_norm_(model.parameters(), max_norm=0.5).item(), 5))
            opt.step()
            opt.zero_grad()
    print(epoch, norms, backbone[1].num_batches_tracked.item(), [p.grad is None for p in backbone.parameters()])

print(head.weight.grad, backbone[0].weight.grad)

# unfreeze and add the backbone at a tenth of the lr
for p in backbone.parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": backbone.parameters(), "lr": 0.01})
model.train()
for step in range(6):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    total = clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=2.0)
    inf_norm = clip_grad_norm_(backbone.parameters(), max_norm=10.0, norm_type="inf")
    clip_grad_value_(head.parameters(), clip_value=0.05)
    opt.step()
    print(step, f"{loss.item():.5f}", f"{total.item():.5f}", f"{inf_norm.item():.5f}",
          f"{head.weight.grad.abs().max().item():.4f}")
print(backbone[1].num_batches_tracked.item(), len(opt.param_groups), len(opt.state))

# clipping corner cases
w = nn.Parameter(torch.tensor([3.0, 4.0]))
w.grad = torch.tensor([3.0, 4.0])
print(clip_grad_norm_([w], 1.0), w.grad)
w.grad = torch.tensor([float("nan"), 1.0])
try:
    clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", e)
print(clip_grad_norm_([w], 1.0), w.grad)
print(clip_grad_norm_([nn.Parameter(torch.ones(2))], 1.0))
print(clip_grad_norm_([], 1.0))
v = nn.Parameter(torch.zeros(3))
v.grad = torch.tensor([0.5, -2.0, 0.1])
print(clip_grad_norm_(v, max_norm=1.0, norm_type=1), v.grad)
print(torch.nn.utils.get_total_norm([torch.tensor([3.0, 4.0]), torch.tensor([12.0])]))
