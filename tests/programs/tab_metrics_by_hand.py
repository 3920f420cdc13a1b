# Classification and regression metrics computed by hand, as in course notebooks: accuracy,
# precision/recall/F1 from boolean sums, confusion matrix via bincount, ROC-AUC by sorting, R^2.
import torch

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.3, 0.2], [-0.5, 1.5, 0.0], [1.0, 1.0, 0.0],
                       [0.0, -1.0, 2.5], [0.3, 0.2, 0.1], [-2.0, 0.5, 0.4], [0.0, 0.0, 3.0]])
target = torch.tensor([0, 1, 1, 1, 2, 2, 1, 2])
pred = logits.argmax(dim=1)
print(pred, pred.dtype)
correct = (pred == target)
acc = correct.float().mean()
print(correct, correct.sum(), correct.sum().item() / len(target))
print(f"accuracy: {acc.item():.2%}", f"{acc:.3f}", f"{correct.sum()}/{target.numel()}")
print(f"acc={acc}", "{:.1f}".format(acc.item() * 100), str(acc), repr(acc.item()))

K = 3
cm = torch.bincount(target * K + pred, minlength=K * K).reshape(K, K)
print(cm)
tp = cm.diag()
fp = cm.sum(0) - tp
fn = cm.sum(1) - tp
precision = tp / (tp + fp)
recall = tp / (tp + fn)
f1 = 2 * precision * recall / (precision + recall)
print(tp, fp, fn)
print(precision, recall, f1, sep="\n")
print(torch.nan_to_num(f1).mean(), f1.nanmean(), precision.dtype)
for c in range(K):
    print(f"class {c}: P={precision[c]:.3f} R={recall[c]:.3f} F1={f1[c]:.3f} support={cm[c].sum()}")
macro = f1.mean().item()
weighted = (f1 * cm.sum(1)).sum() / cm.sum()
print(round(macro, 4), weighted)
print(cm.float() / cm.sum(1, keepdim=True))
print(torch.bincount(pred), torch.bincount(target, minlength=5))
print(torch.bincount(target, weights=torch.linspace(0, 1, 8)))
try:
    torch.bincount(torch.tensor([0, -1]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([[0, 1]]))
except RuntimeError as e:
    print(type(e).__name__, e)

y = torch.tensor([1, 0, 1, 1, 0, 0, 1, 0])
scores = torch.tensor([0.9, 0.4, 0.65, 0.3, 0.2, 0.7, 0.8, 0.1])
yhat = (scores >= 0.5).long()
tp = ((yhat == 1) & (y == 1)).sum()
fp = ((yhat == 1) & (y == 0)).sum()
fn = ((yhat == 0) & (y == 1)).sum()
tn = ((yhat == 0) & (y == 0)).sum()
print(tp, fp, fn, tn, tp.dtype)
p, r = tp / (tp + fp), tp / (tp + fn)
print(p, r, 2 * p * r / (p + r), f"{(tp + tn) / len(y):.2f}")
order = torch.argsort(scores, descending=True)
y_sorted = y[order]
tpr = torch.cumsum(y_sorted, 0) / y.sum()
fpr = torch.cumsum(1 - y_sorted, 0) / (1 - y).sum()
print(order, y_sorted)
print(tpr, fpr, sep="\n")
tpr = torch.cat([torch.zeros(1), tpr])
fpr = torch.cat([torch.zeros(1), fpr])
print(f"AUC (trapz) = {torch.trapz(tpr, fpr):.4f}", torch.trapezoid(tpr, x=fpr))
ranks = torch.empty_like(scores).scatter_(0, torch.argsort(scores), torch.arange(1., 9.))
n1, n0 = y.sum(), (1 - y).sum()
auc = (ranks[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)
print(ranks, auc, auc.dtype)

y_true = torch.tensor([3.0, -0.5, 2.0, 7.0, 4.2])
y_pred = torch.tensor([2.5, 0.0, 2.1, 7.8, 3.9])
err = y_pred - y_true
mae, mse = err.abs().mean(), (err ** 2).mean()
rmse = mse.sqrt()
r2 = 1 - ((y_true - y_pred) ** 2).sum() / ((y_true - y_true.mean()) ** 2).sum()
print(f"MAE {mae:.4f} MSE {mse:.4f} RMSE {rmse:.4f} R2 {r2:.4f}")
print(mae, mse, rmse, r2, torch.nn.functional.mse_loss(y_pred, y_true), torch.nn.L1Loss()(y_pred, y_true))
print(f"{r2:8.3f}|{mae:<8.2f}|{mse:+.2e}|{rmse!r}")
mape = (err.abs() / y_true.abs()).mean() * 100
print(f"MAPE: {mape:.2f}%", [round(v, 3) for v in err.tolist()])
