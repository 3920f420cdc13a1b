# Confusion matrix the sparse way, as in many evaluation scripts:
# torch.sparse_coo_tensor(stack([y_true, y_pred]), ones, (k, k)).to_dense() (duplicates summed),
# then per-class precision / recall / F1 and a coalesced view of the nonzero cells.
import torch

num_classes = 4
y_true = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 1, 2, 3, 3, 2, 1])
logits = torch.stack([torch.cos(torch.arange(20) * 0.9 + c) for c in range(num_classes)], dim=1)
y_pred = logits.argmax(dim=1)
print("pred:", y_pred.tolist())


def confusion_matrix(target, pred, k):
    idx = torch.stack([target, pred])
    ones = torch.ones(target.numel(), dtype=torch.long)
    return torch.sparse_coo_tensor(idx, ones, (k, k)).to_dense()


cm = confusion_matrix(y_true, y_pred, num_classes)
print(cm)
print(cm.dtype, cm.sum().item(), cm.trace().item())

tp = cm.diag().float()
precision = tp / cm.sum(0).clamp(min=1).float()
recall = tp / cm.sum(1).clamp(min=1).float()
f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-8)
for c in range(num_classes):
    print(f"class {c}: precision={precision[c]:.3f} recall={recall[c]:.3f} f1={f1[c]:.3f}")
print(f"accuracy: {(tp.sum() / cm.sum()).item():.4f}")

# the sparse tensor itself: uncoalesced until coalesce() sums duplicates
sp = torch.sparse_coo_tensor(torch.stack([y_true, y_pred]), torch.ones(20), (num_classes, num_classes))
print(sp._nnz(), sp.is_coalesced())
sp = sp.coalesce()
print(sp)
print(sp._nnz(), sp.is_coalesced(), sp.values().sum())
print(torch.sparse.sum(sp, dim=0).to_dense(), torch.sparse.sum(sp, dim=1).to_dense())
print(torch.sparse.sum(sp))

# normalized confusion matrix, rows summing to one
row_sums = torch.sparse.sum(sp, dim=1).to_dense()
normalized = sp.to_dense() / row_sums.unsqueeze(1)
print(normalized)

# batches accumulated: sparse + sparse
batches = [(y_true[:10], y_pred[:10]), (y_true[10:], y_pred[10:])]
total = None
for t, p in batches:
    part = torch.sparse_coo_tensor(torch.stack([t, p]), torch.ones(len(t)), (4, 4)).coalesce()
    total = part if total is None else total + part
print(total.is_coalesced(), total._nnz())
print(torch.equal(total.to_dense(), cm.float()))
