# sklearn-style roc_curve / average_precision re-implemented in torch: tied scores collapse to
# distinct thresholds (diff + nonzero), then AUROC by trapezoid and AP by step sums.
import torch


def binary_clf_curve(scores, target):
    order = torch.argsort(scores, descending=True, stable=True)
    scores, target = scores[order], target[order].float()
    distinct = torch.where(scores[1:] - scores[:-1] != 0)[0]
    threshold_idxs = torch.cat([distinct, torch.tensor([target.numel() - 1])])
    tps = torch.cumsum(target, 0)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    return fps, tps, scores[threshold_idxs]


def roc_curve(scores, target):
    fps, tps, thr = binary_clf_curve(scores, target)
    tps = torch.cat([torch.zeros(1), tps])
    fps = torch.cat([torch.zeros(1), fps])
    thr = torch.cat([torch.tensor([float("inf")]), thr])
    return fps / fps[-1], tps / tps[-1], thr


def average_precision(scores, target):
    fps, tps, _ = binary_clf_curve(scores, target)
    precision = tps / (tps + fps)
    recall = tps / tps[-1]
    precision = torch.cat([precision.flip(0), torch.ones(1)])
    recall = torch.cat([recall.flip(0), torch.zeros(1)])
    return -torch.sum(torch.diff(recall) * precision[:-1])


i = torch.arange(24)
scores = torch.round(torch.sin(i * 0.9) * 0.5 + 0.5, decimals=1)
target = ((i * 7) % 5 < 2).long()
print(scores)
fpr, tpr, thr = roc_curve(scores, target)
print("fpr", fpr.round(decimals=3))
print("tpr", tpr.round(decimals=3))
print("thr", thr)
print(f"AUROC {torch.trapezoid(tpr, fpr).item():.4f}")
print(f"AP    {average_precision(scores, target).item():.4f}")
j = torch.argmax(tpr - fpr)
print(f"Youden J best threshold {thr[j].item():.2f} J={(tpr - fpr)[j].item():.3f}")
vals, inv, counts = torch.unique(scores, return_inverse=True, return_counts=True)
pos_per = torch.zeros_like(vals).index_add_(0, inv, target.float())
print(torch.stack([vals, counts.float(), pos_per / counts], 1))
print(torch.sort(scores, descending=True))
# confidence-accuracy curve: accuracy when abstaining below each threshold
keep = scores.unsqueeze(0) >= vals.unsqueeze(1)
acc_at = (keep & target.bool().unsqueeze(0)).sum(1) / keep.sum(1)
cov_at = keep.float().mean(1)
for v, a, c in zip(vals.tolist(), acc_at.tolist(), cov_at.tolist()):
    print(f"thr {v:.1f} coverage {c:.3f} precision {a:.3f}")
