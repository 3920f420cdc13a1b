# Label-smoothing cross-entropy written by hand (timm's LabelSmoothingCrossEntropy idiom)
# checked against nn.CrossEntropyLoss(label_smoothing=...), plus a sigmoid focal loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        assert smoothing < 1.0
        self.smoothing = smoothing
        self.confidence = 1. - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1))
        nll_loss = nll_loss.squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        loss = self.confidence * nll_loss + self.smoothing * smooth_loss
        return loss.mean()


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


x = torch.linspace(-2, 2, 15).reshape(3, 5).requires_grad_()
y = torch.tensor([4, 0, 2])
mine = LabelSmoothingCrossEntropy(0.1)(x, y)
ref = nn.CrossEntropyLoss(label_smoothing=0.1)(x, y)
print(mine, ref)
print(torch.allclose(mine, ref), mine.grad_fn.name(), ref.grad_fn.name())
g1, = torch.autograd.grad(mine, x)
g2, = torch.autograd.grad(ref, x)
print(g1)
print(torch.allclose(g1, g2, atol=1e-6))

crit = nn.CrossEntropyLoss(label_smoothing=0.2, reduction="none")
print(crit(x, y), crit)
w = torch.tensor([1., 2., 1., 1., 0.5])
print(F.cross_entropy(x, y, weight=w, label_smoothing=0.1))
print(F.cross_entropy(x, torch.tensor([4, -100, 2]), label_smoothing=0.1, ignore_index=-100))
soft = F.one_hot(y, 5).float() * 0.9 + 0.1 / 5
print(soft, F.cross_entropy(x, soft))
print(F.cross_entropy(x, soft, label_smoothing=0.1))
try:
    nn.CrossEntropyLoss(label_smoothing=1.5)(x, y)
except Exception as e:
    print(type(e).__name__, e)

logits = torch.tensor([[2.0, -1.0], [0.5, 0.0], [-3.0, 1.5]], requires_grad=True)
targets = torch.tensor([[1., 0.], [0., 1.], [0., 1.]])
fl = sigmoid_focal_loss(logits, targets)
print(fl)
total = sigmoid_focal_loss(logits, targets, reduction="sum")
total.backward()
print(total, logits.grad)
print(sigmoid_focal_loss(logits, targets, alpha=-1, gamma=0, reduction="mean"),
      F.binary_cross_entropy_with_logits(logits, targets))
