# Hand-written evaluation metrics from a training repo: accumulate predictions over a DataLoader,
# confusion matrix via bincount, per-class precision/recall/F1 (with empty classes), macro/weighted F1,
# top-k accuracy, balanced accuracy and a running-average meter.
import torch
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def confusion_matrix(pred, target, num_classes):
    idx = target * num_classes + pred
    return torch.bincount(idx, minlength=num_classes ** 2).reshape(num_classes, num_classes)


def prf(cm):
    tp = cm.diag().float()
    precision = tp / cm.sum(0).float()
    recall = tp / cm.sum(1).float()
    f1 = 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def topk_accuracy(logits, target, ks=(1, 2)):
    maxk = max(ks)
    _, pred = logits.topk(maxk, dim=1, largest=True, sorted=True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / target.size(0)) for k in ks]


n, C = 20, 4
t = torch.arange(n, dtype=torch.float32)
logits = torch.stack([torch.sin(t * 0.7), torch.cos(t * 0.3), torch.sin(t * 1.3 + 1), 0.2 * torch.cos(t)], 1)
target = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 1, 1, 2, 0, 0, 2, 1, 0])
loader = DataLoader(TensorDataset(logits, target), batch_size=6)

meter, top1m = AverageMeter(), AverageMeter()
all_pred, all_t = [], []
for lb, tb in loader:
    loss = torch.nn.functional.cross_entropy(lb, tb)
    meter.update(loss.item(), lb.size(0))
    top1, top2 = topk_accuracy(lb, tb)
    top1m.update(top1.item(), lb.size(0))
    all_pred.append(lb.argmax(dim=1))
    all_t.append(tb)
    print(f"batch loss {loss.item():.4f} top1 {top1.item():.2f} top2 {top2.item():.2f}")
print(f"avg loss {meter.avg:.4f} top1 {top1m.avg:.2f}")

pred, tgt = torch.cat(all_pred), torch.cat(all_t)
cm = confusion_matrix(pred, tgt, C)
print(cm)
print(cm.dtype, cm.sum().item(), (pred == tgt).float().mean())
precision, recall, f1 = prf(cm)
print("precision", precision)
print("recall", recall)
print("f1", f1)
f1_clean = torch.nan_to_num(f1, nan=0.0)
support = cm.sum(1)
print(f"macro F1 {f1_clean[support > 0].mean().item():.4f}",
      f"weighted F1 {(f1_clean * support).sum().item() / support.sum().item():.4f}")
print(f"balanced acc {recall[support > 0].mean().item():.4f}")
print("per-class counts", torch.unique(tgt, return_counts=True))
print("pred hist", torch.bincount(pred, minlength=C), torch.histc(pred.float(), bins=C, min=0, max=C - 1))
wrong = (pred != tgt).nonzero(as_tuple=True)[0]
print("misclassified idx", wrong.tolist())
conf = logits.softmax(1).max(1).values
print("mean confidence correct/wrong", f"{conf[pred == tgt].mean().item():.4f}", f"{conf[pred != tgt].mean().item():.4f}")
weights = torch.linspace(0.5, 1.5, n)
print("weighted bincount", torch.bincount(tgt, weights=weights).round(decimals=3))
norm_cm = cm.float() / cm.sum(1, keepdim=True).clamp(min=1)
print(norm_cm.round(decimals=2))
try:
    torch.bincount(torch.tensor([-1, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except RuntimeError as e:
    print(type(e).__name__, e)
