# Compiled functions that take and return Python structures: dicts of tensors, tuples, None,
# keyword arguments, Python ints/floats; as in multi-task heads and metric helpers.
import torch
import torch.nn.functional as F


@torch.compile
def multitask_loss(outputs, targets, weights=None):
    cls = F.cross_entropy(outputs["logits"], targets["label"])
    reg = F.smooth_l1_loss(outputs["box"], targets["box"])
    w = weights if weights is not None else {"cls": 1.0, "reg": 1.0}
    total = w["cls"] * cls + w["reg"] * reg
    return total, {"cls": cls.detach(), "reg": reg.detach()}


logits = torch.sin(torch.arange(12, dtype=torch.float32)).view(4, 3).requires_grad_()
box = torch.linspace(0, 1, 16).view(4, 4).requires_grad_()
outputs = {"logits": logits, "box": box}
targets = {"label": torch.tensor([0, 2, 1, 2]), "box": torch.full((4, 4), 0.5)}

total, parts = multitask_loss(outputs, targets)
print(f"{total.item():.4f}", {k: round(v.item(), 4) for k, v in parts.items()})
print(total.requires_grad, parts["cls"].requires_grad)
total.backward()
print(torch.round(logits.grad, decimals=4))
print(torch.round(box.grad[0], decimals=4))

logits.grad = None
total, parts = multitask_loss(outputs, targets, weights={"cls": 0.5, "reg": 2.0})
print(f"{total.item():.4f}")


@torch.compile
def topk_stats(x, k: int, *, eps=1e-5):
    vals, idx = torch.topk(x, k, dim=-1)
    norm = vals / (vals.sum(-1, keepdim=True) + eps)
    return norm, idx, x.shape[-1] - k


x = torch.cos(torch.arange(10, dtype=torch.float32) * 0.7).view(2, 5) + 2
for k in (1, 2, 3):
    norm, idx, rest = topk_stats(x, k)
    print(k, torch.round(norm, decimals=4).tolist(), idx.tolist(), rest, idx.dtype)


@torch.compile
def running_mean(state, x, momentum=0.1):
    state["mean"] = (1 - momentum) * state["mean"] + momentum * x.mean(0)
    state["count"] += 1
    return state


state = {"mean": torch.zeros(5), "count": 0}
for i in range(3):
    state = running_mean(state, x * (i + 1))
print(torch.round(state["mean"], decimals=4), state["count"])
