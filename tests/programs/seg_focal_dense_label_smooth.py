# Dense focal loss variants (from cross_entropy reduction="none", with per-class alpha via indexing),
# label-smoothed CE written by hand vs F.cross_entropy(label_smoothing=), 3D volumes (N,C,D,H,W).
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=None, ignore_index=255, reduction="mean"):
        super().__init__()
        self.gamma, self.ignore_index, self.reduction = gamma, ignore_index, reduction
        self.register_buffer("alpha", alpha)

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, reduction="none", ignore_index=self.ignore_index)
        pt = torch.exp(-ce)
        loss = (1 - pt) ** self.gamma * ce
        if self.alpha is not None:
            a = self.alpha[target.clamp(max=len(self.alpha) - 1)]
            loss = a * loss
        valid = target != self.ignore_index
        if self.reduction == "mean":
            return loss[valid].mean()
        return loss.sum() if self.reduction == "sum" else loss


N, C, H, W = 2, 3, 4, 4
logits = (torch.sin(torch.arange(N * C * H * W, dtype=torch.float32) * 1.3) * 2).view(N, C, H, W).requires_grad_()
target = (torch.arange(N * H * W) * 5 % C).view(N, H, W)
target[0, 0, 0] = 255
fl = FocalLoss(alpha=torch.tensor([0.25, 0.5, 0.25]))
print(fl, list(fl.state_dict().keys()))
l = fl(logits, target)
l.backward()
print(f"{l.item():.5f}", logits.grad[0, :, 0, 1].numpy().round(5), logits.grad[0, :, 0, 0])
for g in [0.0, 1.0, 2.5]:
    print(g, f"{FocalLoss(gamma=g)(logits, target).item():.5f}")
print(FocalLoss(reduction="none")(logits, target).shape)


def smooth_ce(logits, target, eps=0.1, ignore_index=255):
    logp = F.log_softmax(logits, dim=1)
    valid = target != ignore_index
    t = target.masked_fill(~valid, 0)
    nll = -logp.gather(1, t.unsqueeze(1)).squeeze(1)
    smooth = -logp.mean(dim=1)
    loss = (1 - eps) * nll + eps * smooth
    return loss[valid].mean()


a = smooth_ce(logits, target)
b = F.cross_entropy(logits, target, label_smoothing=0.1, ignore_index=255)
print(f"{a.item():.5f} {b.item():.5f}", torch.allclose(a, b))
crit = nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=255)
print(crit, crit.label_smoothing)

vol = (torch.cos(torch.arange(2 * C * 3 * 4 * 4, dtype=torch.float32) * 0.3)).view(2, C, 3, 4, 4).requires_grad_()
vt = (torch.arange(2 * 3 * 4 * 4) % C).view(2, 3, 4, 4)
vl = F.cross_entropy(vol, vt, weight=torch.tensor([1.0, 2.0, 0.5]), label_smoothing=0.05)
vl.backward()
print(f"{vl.item():.5f}", vol.grad.shape, vol.grad[1, :, 2, 3, 3].numpy().round(5))
print(F.nll_loss(F.log_softmax(vol, 1), vt, reduction="none").shape)
try:
    F.cross_entropy(vol, vt[:, 0])
except Exception as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, target, label_smoothing=1.5)
except Exception as e:
    print(type(e).__name__, e)
