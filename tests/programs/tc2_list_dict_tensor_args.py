# Compiled helpers that take Python containers of tensors, as detection / multi-task code does:
# a list of feature-pyramid levels (the list length changes between calls), a dict of per-task
# losses with weights, and a dict of named outputs passed back in; gradients flow through all.
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.compile
def fpn_pool(features: list, out_size: int):
    pooled = [F.adaptive_avg_pool2d(f, out_size) for f in features]
    return torch.cat(pooled, dim=1), [p.mean().item() for p in pooled]


@torch.compile
def weighted_total(losses: dict, weights: dict):
    total = 0
    parts = {}
    for name in sorted(losses):
        w = weights.get(name, 1.0)
        parts[name] = w * losses[name]
        total = total + parts[name]
    return total, parts


def level(c, h, k):
    return torch.sin(torch.arange(2 * c * h * h, dtype=torch.float32).view(2, c, h, h) * 0.11 * k)


feats = [level(2, 8, 1), level(3, 4, 2), level(1, 2, 3)]
out, means = fpn_pool(feats, 2)
print(out.shape, [round(m, 4) for m in means])
out4, means4 = fpn_pool(feats[:2], 2)
print(out4.shape, [round(m, 4) for m in means4])
feats_g = [f.clone().requires_grad_() for f in feats]
fpn_pool(feats_g, 2)[0].pow(2).sum().backward()
print("grads", [tuple(f.grad.shape) for f in feats_g], f"{feats_g[0].grad.abs().sum().item():.4f}")

heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "box": nn.Linear(4, 4), "obj": nn.Linear(4, 1)})
with torch.no_grad():
    for i, p in enumerate(heads.parameters()):
        p.copy_(torch.linspace(-0.3, 0.4, p.numel()).view_as(p) * (1 + 0.2 * i))
x = torch.cos(torch.arange(20, dtype=torch.float32).view(5, 4) * 0.5)
cls_t = torch.tensor([0, 2, 1, 1, 0])
box_t = torch.linspace(0, 1, 20).view(5, 4)
obj_t = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0]).unsqueeze(1)

opt = torch.optim.SGD(heads.parameters(), lr=0.2, momentum=0.9)
weights = {"cls": 1.0, "box": 5.0, "obj": 0.5}
for step in range(6):
    outs = {name: head(x) for name, head in heads.items()}
    losses = {
        "cls": F.cross_entropy(outs["cls"], cls_t),
        "box": F.smooth_l1_loss(outs["box"], box_t),
        "obj": F.binary_cross_entropy_with_logits(outs["obj"], obj_t),
    }
    total, parts = weighted_total(losses, weights)
    opt.zero_grad()
    total.backward()
    opt.step()
    print(step, f"{total.item():.4f}", {k: round(v.item(), 4) for k, v in parts.items()})

weights["box"] = 1.0  # the user re-weights after a few steps
total, parts = weighted_total(losses, weights)
print("reweighted", f"{total.item():.4f}", list(parts))
total, parts = weighted_total({"cls": losses["cls"]}, {})
print("only cls", f"{total.item():.4f}", type(parts).__name__, total.requires_grad)
