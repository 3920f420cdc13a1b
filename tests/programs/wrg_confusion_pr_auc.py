# Classifier evaluation without sklearn: confusion matrix via bincount / index_put_(accumulate),
# per-class precision/recall/F1, ROC AUC by sorting scores, PR curve and best threshold.
import torch

torch.set_printoptions(precision=4)
num_classes = 3
logits = torch.stack([torch.sin(torch.arange(3, dtype=torch.float32) * (i + 1) + i * 0.3) for i in range(15)])
target = torch.tensor([0, 1, 2, 2, 1, 0, 0, 1, 2, 1, 0, 2, 2, 1, 0])
pred = logits.argmax(dim=1)
print("pred", pred)

cm = torch.bincount(target * num_classes + pred, minlength=num_classes ** 2).reshape(num_classes, num_classes)
print(cm)
cm2 = torch.zeros(num_classes, num_classes, dtype=torch.long)
cm2.index_put_((target, pred), torch.ones_like(target), accumulate=True)
print(torch.equal(cm, cm2))
tp = cm.diag()
precision = tp / cm.sum(0).clamp(min=1)
recall = tp / cm.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall)
print("precision", precision)
print("recall", recall)
print("f1", torch.nan_to_num(f1))
print("macro f1", torch.nan_to_num(f1).mean().item())
print("accuracy", (tp.sum() / cm.sum()).item())

# binary ROC AUC from scores of class 1
probs = logits.softmax(dim=1)[:, 1]
y = (target == 1).long()
sorted_scores, order = torch.sort(probs, descending=True, stable=True)
y_sorted = y[order]
tps = torch.cumsum(y_sorted, dim=0)
fps = torch.cumsum(1 - y_sorted, dim=0)
tpr = torch.cat([torch.zeros(1), tps / y.sum()])
fpr = torch.cat([torch.zeros(1), fps / (1 - y).sum()])
print("tpr", tpr)
print("fpr", fpr)
auc = torch.trapezoid(tpr, fpr)
print(f"auc {auc.item():.4f}")
# rank-based AUC (Mann-Whitney)
ranks = torch.empty_like(probs)
ranks[probs.argsort()] = torch.arange(1, len(probs) + 1, dtype=probs.dtype)
n_pos, n_neg = y.sum(), (1 - y).sum()
auc2 = (ranks[y.bool()].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
print(f"auc2 {auc2.item():.4f}")

# precision-recall at thresholds
thresholds = torch.linspace(0.1, 0.6, 6)
predicted = probs.unsqueeze(0) >= thresholds.unsqueeze(1)
tp_t = (predicted & y.bool()).sum(1)
prec_t = tp_t / predicted.sum(1).clamp(min=1)
rec_t = tp_t / y.sum()
print(prec_t, rec_t)
best = torch.argmax(2 * prec_t * rec_t / (prec_t + rec_t + 1e-8))
print("best threshold", thresholds[best].item())

# top-2 accuracy
_, top2 = logits.topk(2, dim=1)
print("top2 acc", (top2 == target.unsqueeze(1)).any(1).float().mean())
# multilabel confusion via one_hot
oh_t = torch.nn.functional.one_hot(target, num_classes)
oh_p = torch.nn.functional.one_hot(pred, num_classes)
print(oh_t.dtype, oh_t.shape)
print("per-class tp", (oh_t & oh_p).sum(0), "fp", ((1 - oh_t) * oh_p).sum(0))
print(torch.nn.functional.one_hot(torch.tensor([[0, 2], [1, 1]])))
try:
    torch.nn.functional.one_hot(torch.tensor([0, 3]), 3)
except RuntimeError as e:
    print(type(e).__name__, e)
