# Classification report the torchmetrics-free way: confusion matrix via bincount(num_classes*t + p),
# per-class precision/recall with nan for empty classes, one-hot via scatter_, top-k accuracy.
import torch
import torch.nn.functional as F

num_classes = 4
target = torch.tensor([0, 1, 2, 2, 1, 0, 3, 3, 1, 2, 0, 1])
logits = torch.stack([torch.sin(torch.arange(12.0) * (k + 1) * 0.7) for k in range(num_classes)], dim=1)
pred = logits.argmax(dim=1)
print(pred)

cm = torch.bincount(num_classes * target + pred, minlength=num_classes ** 2).reshape(num_classes, num_classes)
print(cm, cm.dtype)
tp = cm.diagonal()
precision = tp / cm.sum(0)
recall = tp.float() / cm.sum(1).float()
print(precision)
print(recall)
f1 = 2 * precision * recall / (precision + recall)
print(f1, torch.nanmean(f1), f1.nan_to_num(0.0).mean())
print("accuracy", (tp.sum() / cm.sum()).item())

# the same matrix with index_put_ accumulate and with a one-hot matmul
cm2 = torch.zeros(num_classes, num_classes, dtype=torch.long)
cm2.index_put_((target, pred), torch.ones_like(target), accumulate=True)
oh_t = torch.zeros(len(target), num_classes).scatter_(1, target.unsqueeze(1), 1.0)
oh_p = F.one_hot(pred, num_classes).float()
print(torch.equal(cm, cm2), torch.equal(cm.float(), oh_t.T @ oh_p))
print(F.one_hot(torch.tensor([[0, 2], [1, 1]])), F.one_hot(torch.tensor([3, 0]), -1).shape)

# top-k accuracy with ties resolved by topk
for k in (1, 2, 3):
    topk = logits.topk(k, dim=1).indices
    hit = (topk == target.unsqueeze(1)).any(dim=1)
    print(f"top{k}", hit.float().mean().item(), hit.nonzero().flatten().tolist())

# per-class support and weighted mean of recall
support = torch.bincount(target, minlength=num_classes)
weighted = (recall * support).sum() / support.sum()
print(support, f"{weighted.item():.4f}")

# sample weights per class: inverse frequency, normalized
w = 1.0 / torch.bincount(target).float()
sample_w = w[target]
print(sample_w / sample_w.sum())
print(torch.bincount(target, weights=sample_w))

# classes never predicted / never seen
print(torch.isin(torch.arange(num_classes), pred, invert=True).nonzero(as_tuple=True)[0])
print(torch.argwhere(cm.sum(0) == 0).flatten())
try:
    F.one_hot(torch.tensor([0, 4]), num_classes)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([0.0, 1.0]))
except Exception as e:
    print(type(e).__name__, e)
