# nn.CrossEntropyLoss / F.nll_loss on dense (N,C,H,W) logits: reductions, class weights with
# ignore_index, label_smoothing, probability targets, all-ignored batches and bad targets.
import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 4, 3, 3
logits = (torch.sin(torch.arange(N * C * H * W, dtype=torch.float32) * 0.53) * 2).view(N, C, H, W)
target = (torch.arange(N * H * W) * 7 % C).view(N, H, W)
target[0, 0, :] = -100
target[1, 2, 2] = 3
w = torch.tensor([1.0, 0.5, 2.0, 0.25])

for red in ["mean", "sum", "none"]:
    l = F.cross_entropy(logits, target, reduction=red)
    print(red, l.shape, l if red == "none" else f"{l.item():.5f}")

print(f"{F.cross_entropy(logits, target, weight=w).item():.5f}")
print(f"{F.cross_entropy(logits, target, weight=w, label_smoothing=0.1).item():.5f}")
print(f"{F.cross_entropy(logits, target, label_smoothing=0.2, reduction='sum').item():.5f}")
print(F.cross_entropy(logits, target, weight=w, label_smoothing=0.1, reduction="none"))

t2 = target.clone()
t2[t2 == 1] = 255
t2[t2 == -100] = 255
print(f"{F.cross_entropy(logits, t2, ignore_index=255, weight=w).item():.5f}")

allign = torch.full((N, H, W), 255, dtype=torch.long)
print(F.cross_entropy(logits, allign, ignore_index=255))
print(F.cross_entropy(logits, allign, ignore_index=255, reduction="sum"))

x = logits.clone().requires_grad_()
F.cross_entropy(x, allign, ignore_index=255).backward()
print(x.grad.abs().sum())

probs = torch.softmax(torch.cos(torch.arange(N * C * H * W, dtype=torch.float32)).view(N, C, H, W), 1)
print(f"{F.cross_entropy(logits, probs).item():.5f}")
print(f"{F.cross_entropy(logits, probs, weight=w, label_smoothing=0.1).item():.5f}")
print(F.cross_entropy(logits, probs, reduction="none").shape)

x = logits.clone().requires_grad_()
loss = F.nll_loss(F.log_softmax(x, 1), target, weight=w, ignore_index=-100)
loss.backward()
print(f"{loss.item():.5f}", x.grad[0, :, 0], x.grad[1, :, 2, 2])
print(loss.grad_fn.name())

for bad, kw in [(target.float(), {}), (target[:, :2], {}), (target.clone().fill_(7), {}),
                (target, {"weight": torch.ones(3)})]:
    try:
        F.cross_entropy(logits, bad, **kw)
    except Exception as e:
        print(type(e).__name__, str(e)[:120])
