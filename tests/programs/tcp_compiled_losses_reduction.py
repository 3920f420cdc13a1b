# A compiled loss helper called with different string options (reduction=, label_smoothing=,
# ignore_index=, class weights) — each new constant argument is a new specialization.
import torch
import torch.nn.functional as F


@torch.compile
def classification_loss(logits, target, reduction="mean", smoothing=0.0, weight=None):
    return F.cross_entropy(logits, target, weight=weight, reduction=reduction,
                           label_smoothing=smoothing, ignore_index=-100)


@torch.compile(dynamic=False)
def regression_losses(pred, target, kind: str, beta: float = 1.0):
    if kind == "huber":
        return F.huber_loss(pred, target, delta=beta)
    if kind == "smooth_l1":
        return F.smooth_l1_loss(pred, target, beta=beta)
    if kind == "bce":
        return F.binary_cross_entropy_with_logits(pred, target, pos_weight=torch.full_like(pred[0], 2.0))
    return F.mse_loss(pred, target)


logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [1.0, 1.0, 1.0]],
                      requires_grad=True)
target = torch.tensor([0, 2, 1, -100])

for red in ("mean", "sum", "none"):
    out = classification_loss(logits, target, reduction=red)
    print(red, torch.round(out, decimals=4))
print("smooth", torch.round(classification_loss(logits, target, smoothing=0.1), decimals=4))
w = torch.tensor([1.0, 2.0, 0.5])
loss = classification_loss(logits, target, "mean", 0.0, w)
print("weighted", f"{loss.item():.4f}")
loss.backward()
print(torch.round(logits.grad[:3], decimals=4))
print("ignored row has zero grad:", bool((logits.grad[3] == 0).all()))

pred = torch.linspace(-1.5, 1.5, 8).view(2, 4)
tgt = torch.tensor([[0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
for kind, beta in (("huber", 1.0), ("huber", 0.5), ("smooth_l1", 0.5), ("bce", 1.0), ("mse", 1.0)):
    print(kind, beta, f"{regression_losses(pred, tgt, kind, beta).item():.5f}")

try:
    classification_loss(logits, target, reduction="avg")
except (ValueError, RuntimeError) as e:  # eager raises ValueError; under compile it may be wrapped
    print("rejected:", "avg is not a valid value for reduction" in str(e))
