# CrossEntropyLoss(label_smoothing=...) as used in image/translation recipes: with class weights,
# ignore_index, probability targets, K-dimensional (segmentation) input and reduction='none'.
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.stack([torch.sin(torch.arange(5.0) * (i + 1) * 0.6) * 2 for i in range(6)])
target = torch.tensor([0, 3, 4, 1, 2, 3])
w = torch.tensor([1.0, 2.0, 0.5, 1.5, 1.0])

for ls in [0.0, 0.1, 0.25]:
    crit = nn.CrossEntropyLoss(label_smoothing=ls)
    print(ls, f"{crit(logits, target).item():.6f}", crit)

print(f"{F.cross_entropy(logits, target, weight=w, label_smoothing=0.1).item():.6f}")
print(f"{F.cross_entropy(logits, target, weight=w, label_smoothing=0.1, reduction='sum').item():.6f}")
t_ign = torch.tensor([0, -100, 4, 1, -100, 3])
print(f"{F.cross_entropy(logits, t_ign, label_smoothing=0.2).item():.6f}")
print(f"{F.cross_entropy(logits, t_ign, weight=w, label_smoothing=0.2).item():.6f}")
print(F.cross_entropy(logits, t_ign, label_smoothing=0.2, reduction="none"))
print(f"{F.cross_entropy(logits, torch.tensor([0, 2, 2, 1, 2, 3]), ignore_index=2, label_smoothing=0.3).item():.6f}")

# manual smoothing equals the built-in
n_cls = 5
eps = 0.1
soft = torch.full((6, n_cls), eps / n_cls)
soft.scatter_(1, target.unsqueeze(1), 1 - eps + eps / n_cls)
manual = -(soft * F.log_softmax(logits, -1)).sum(-1).mean()
print(f"{manual.item():.6f}", f"{F.cross_entropy(logits, soft).item():.6f}")
# probability targets with smoothing too
print(f"{F.cross_entropy(logits, soft, label_smoothing=0.1).item():.6f}")
print(f"{F.cross_entropy(logits, soft, weight=w, label_smoothing=0.1).item():.6f}")
print(F.cross_entropy(logits, soft, weight=w, label_smoothing=0.1, reduction="none"))

# segmentation-shaped input (N, C, H, W)
seg = torch.cos(torch.arange(2 * 3 * 2 * 2, dtype=torch.float32) * 0.45).view(2, 3, 2, 2)
seg_t = torch.tensor([[[0, 1], [2, -100]], [[1, 1], [0, 2]]])
print(f"{F.cross_entropy(seg, seg_t, label_smoothing=0.1).item():.6f}")
print(F.cross_entropy(seg, seg_t, label_smoothing=0.1, reduction="none"))

# gradient
x = logits.clone().requires_grad_(True)
loss = F.cross_entropy(x, target, weight=w, label_smoothing=0.15)
loss.backward()
print(loss.grad_fn.name(), [n.name() for n, _ in loss.grad_fn.next_functions])
print(x.grad)

# an ignored row whose logits overflowed to -inf or nan does not poison the smoothed loss
bad_rows = torch.tensor([[1.0, 2.0, 3.0, 0.0, 0.5], [float("-inf"), 0.0, 1.0, 0.0, 0.0],
                         [float("nan"), 0.0, 1.0, 0.0, 0.0]])
print(F.cross_entropy(bad_rows, torch.tensor([0, -100, -100]), label_smoothing=0.1))
print(F.cross_entropy(bad_rows, torch.tensor([0, -100, -100]), label_smoothing=0.1, reduction="none"))

for bad in [-0.1, 1.5]:
    try:
        F.cross_entropy(logits, target, label_smoothing=bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    nn.CrossEntropyLoss(label_smoothing=0.1)(logits, torch.tensor([0, 1, 5, 1, 2, 3]))
except Exception as e:
    print(type(e).__name__, e)
