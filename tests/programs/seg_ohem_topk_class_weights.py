# OHEM cross-entropy (keep hardest pixels via sort/topk/kthvalue on per-pixel loss) and class weights
# from label statistics (inverse log frequency, median frequency balancing) as in semseg trainers.
import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 5, 6, 6
logits = (torch.sin(torch.arange(N * C * H * W, dtype=torch.float32) * 0.77) * 3).view(N, C, H, W).requires_grad_()
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
target = torch.stack([(xx * yy) % 4, (xx + 2 * yy) % 3], 0)
target[:, -1, -2:] = 255

counts = torch.bincount(target[target != 255].flatten(), minlength=C).float()
print(counts)
freq = counts / counts.sum()
inv_log = 1.0 / torch.log(1.02 + freq)
print(inv_log.numpy().round(4))
present = freq > 0
med = torch.median(freq[present])
mfb = torch.where(present, med / freq.clamp(min=1e-12), torch.zeros_like(freq))
print(med, mfb)
print(torch.quantile(freq[present], 0.5), freq[present].sort().values)


class OhemCE(nn.Module):
    def __init__(self, thresh=0.7, min_kept=20, ignore_index=255, weight=None):
        super().__init__()
        self.thresh = -torch.log(torch.tensor(thresh, dtype=torch.float))
        self.min_kept = min_kept
        self.crit = nn.CrossEntropyLoss(weight=weight, ignore_index=ignore_index, reduction="none")

    def forward(self, logits, labels):
        loss = self.crit(logits, labels).view(-1)
        loss, _ = torch.sort(loss, descending=True)
        if loss[self.min_kept] > self.thresh:
            loss = loss[loss > self.thresh]
        else:
            loss = loss[:self.min_kept]
        return loss.mean()


for w in [None, inv_log, mfb]:
    crit = OhemCE(weight=w)
    l = crit(logits, target)
    print(f"{l.item():.5f}", crit.thresh)

pix = F.cross_entropy(logits, target, ignore_index=255, reduction="none")
print(pix.shape, (pix == 0).sum())
k = 10
top, idx = pix.flatten().topk(k)
print(top.detach().numpy().round(4), idx)
kth = pix.flatten().kthvalue(pix.numel() - k + 1)
print(f"{kth.values.item():.4f}", kth.indices)
hard = top.mean()
hard.backward()
print(logits.grad.nonzero().shape, logits.grad.sum(dim=1).abs().max() < 1e-6)
print(logits.grad[0, :, 0, 0].numpy().round(5))
