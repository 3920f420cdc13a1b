# Segmentation metrics as in semseg repos: confusion matrix via torch.bincount(n*gt+pred, minlength=n*n),
# per-class IoU with nan for absent classes, nanmean mIoU, pixel accuracy, frequency-weighted IoU.
import torch

n_cls = 4
H, W = 8, 8
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
gt = ((xx // 3 + yy // 4) % 3).long()           # class 3 never present
gt[0, :3] = 255                                 # ignore
logits = torch.stack([torch.sin(xx * 0.5 + k) + torch.cos(yy * 0.3 * k) for k in range(n_cls)], 0).unsqueeze(0)
pred = logits.argmax(dim=1)[0]
print(pred)


def fast_hist(label, pred, n):
    k = (label >= 0) & (label < n)
    return torch.bincount(n * label[k].int() + pred[k], minlength=n ** 2).reshape(n, n)


hist = fast_hist(gt.flatten(), pred.flatten(), n_cls)
print(hist, hist.dtype, hist.sum())
iou = torch.diag(hist) / (hist.sum(1) + hist.sum(0) - torch.diag(hist))
print(iou)
print(f"mIoU={torch.nanmean(iou).item():.4f}")
acc = torch.diag(hist).sum() / hist.sum()
print(f"pixacc={acc.item():.4f}", acc.dtype)
cls_acc = torch.diag(hist).float() / hist.sum(dim=1).float()
print(cls_acc, cls_acc.nanmean())
freq = hist.sum(1) / hist.sum()
print(f"fwIoU={(freq[freq > 0] * iou[freq > 0]).sum().item():.4f}")

# accumulate over a "loader"
total = torch.zeros(n_cls, n_cls, dtype=torch.int64)
for shift in range(3):
    p = torch.roll(pred, shifts=shift, dims=1)
    total += fast_hist(gt.flatten(), p.flatten(), n_cls)
print(total)
inter = torch.diag(total)
union = total.sum(0) + total.sum(1) - inter
print(inter, union, (inter.float() / union.float().clamp(min=1)).round(decimals=3))
valid = union > 0
print(valid, (inter[valid].float() / union[valid]).mean())

# torchmetrics-style with weights and errors
print(torch.bincount(torch.tensor([0, 1, 1, 3]), weights=torch.tensor([0.5, 1.0, 2.0, 0.25])))
print(torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
for bad in [torch.tensor([-1, 2]), torch.tensor([[0, 1]]), torch.tensor([0.5, 1.0])]:
    try:
        torch.bincount(bad)
    except Exception as e:
        print(type(e).__name__, e)
