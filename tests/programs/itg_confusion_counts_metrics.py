# Classification metrics from integer counts, the way people write them before reaching for
# torchmetrics: confusion matrix via bincount(num_classes * y + p), bool-mask accuracy,
# per-class precision/recall with 0/0 handling, integer-division pitfalls, top-k hits.
import torch

num_classes = 4
target = torch.tensor([0, 1, 2, 3, 1, 2, 2, 0, 3, 3, 1, 0, 2, 2, 1, 3])
logits = torch.stack([torch.cos(torch.arange(16.) * (k + 1) * 0.7) for k in range(num_classes)], 1)
pred = logits.argmax(dim=1)
print("pred", pred, pred.dtype)

correct = pred == target
print("correct", correct.dtype, correct.sum(), correct.sum().dtype)
print("accuracy (int // int, wrong):", correct.sum() // target.numel())
print("accuracy (true div):", correct.sum() / target.numel(), (correct.sum() / target.numel()).dtype)
print("accuracy (float mean):", correct.float().mean().item())
print("accuracy %:", f"{100.0 * correct.sum().item() / len(target):.2f}")

cm = torch.bincount(num_classes * target + pred, minlength=num_classes ** 2).reshape(num_classes, num_classes)
print("confusion\n", cm, cm.dtype)
tp = cm.diag()
fp = cm.sum(0) - tp
fn = cm.sum(1) - tp
print("tp fp fn", tp, fp, fn)
precision = tp / (tp + fp)
recall = tp / (tp + fn)
print("precision", precision)
print("recall", recall)
print("nan classes", torch.isnan(precision).nonzero().flatten().tolist())
precision = torch.nan_to_num(precision, nan=0.0)
f1 = torch.where(precision + recall > 0, 2 * precision * recall / (precision + recall), torch.zeros(()))
print("f1", f1.round(decimals=4), "macro", f"{f1.mean().item():.4f}")
print("support", cm.sum(1), "weighted f1", f"{(f1 * cm.sum(1)).sum().item() / cm.sum().item():.4f}")
print("iou", (tp / (tp + fp + fn)).round(decimals=4))
print("clamped denominators", tp / (tp + fp).clamp(min=1), (tp + fp).clamp(min=1).dtype)

# building the matrix with index_put_ accumulate instead
cm2 = torch.zeros(num_classes, num_classes, dtype=torch.long)
cm2.index_put_((target, pred), torch.ones_like(target), accumulate=True)
print("index_put matches", torch.equal(cm, cm2))
cm3 = torch.zeros(num_classes, num_classes, dtype=torch.int32)
cm3.index_put_((target, pred), torch.tensor(1, dtype=torch.int32), accumulate=True)
print("int32 counts", cm3.dtype, cm3.sum())
try:
    torch.zeros(num_classes, num_classes, dtype=torch.int32).index_put_((target, pred), torch.tensor(1.0), accumulate=True)
except RuntimeError as e:
    print(type(e).__name__, e)

# top-k accuracy
top2 = logits.topk(2, dim=1).indices
hits = (top2 == target.unsqueeze(1)).any(dim=1)
print("top2 hits", hits.int(), hits.sum().item(), f"{hits.float().mean().item():.4f}")

# running totals across "batches" in integer tensors
total_correct = torch.tensor(0)
total_seen = 0
for batch in range(4):
    sl = slice(4 * batch, 4 * batch + 4)
    total_correct += (pred[sl] == target[sl]).sum()
    total_seen += target[sl].numel()
    print(f"batch {batch}: running acc {total_correct.item() / total_seen:.3f}", total_correct.dtype)
try:
    total_correct += 0.5
except RuntimeError as e:
    print(type(e).__name__, e)

# class balance weights from counts
counts = torch.bincount(target, minlength=num_classes)
weights = counts.sum() / (num_classes * counts)
print("class weights", weights, weights.dtype)
inv = 1.0 / counts
print("1/counts", inv, (counts.max() / counts).dtype, (counts.max() // counts))
loss = torch.nn.functional.cross_entropy(logits, target, weight=weights.float())
print("weighted ce", f"{loss.item():.4f}")
print("mode of preds", torch.mode(pred), "histc", torch.histc(pred.float(), bins=num_classes, min=0, max=num_classes - 1))
print("unique counts", torch.unique(pred, return_counts=True))
