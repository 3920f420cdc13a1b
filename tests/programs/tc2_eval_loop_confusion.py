# A compiled validation loop over a DataLoader: `@torch.no_grad()` + `@torch.compile` evaluate
# function returning (loss_sum, correct, preds), a confusion matrix built with bincount, per-class
# recall, top-2 accuracy, and model.eval()/model.train() toggling BatchNorm1d between calls.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 3
model = nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, NUM_CLASSES))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view_as(p) * 0.5 + (0.8 if i == 2 else 0.0))
    model[1].running_mean.copy_(torch.linspace(-0.2, 0.2, 8))
    model[1].running_var.copy_(torch.linspace(0.5, 1.5, 8))

X = torch.stack([torch.sin(torch.linspace(0, 3, 5) * (1 + k % 3) + 0.1 * k) for k in range(22)])
Y = torch.tensor([k % 3 for k in range(22)])
loader = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=False)  # last batch has 6
cmodel = torch.compile(model)


@torch.no_grad()
@torch.compile
def evaluate_batch(xb, yb):
    logits = cmodel(xb)
    loss_sum = F.cross_entropy(logits, yb, reduction="sum")
    preds = logits.argmax(dim=1)
    top2 = logits.topk(2, dim=1).indices
    top2_hit = (top2 == yb[:, None]).any(dim=1).sum()
    return loss_sum, (preds == yb).sum(), top2_hit, preds


def run_eval():
    model.eval()
    total_loss, correct, top2, n = 0.0, 0, 0, 0
    all_preds = []
    for xb, yb in loader:
        l, c, t2, preds = evaluate_batch(xb, yb)
        total_loss += l.item()
        correct += int(c)
        top2 += int(t2)
        n += yb.numel()
        all_preds.append(preds)
    preds = torch.cat(all_preds)
    cm = torch.bincount(Y * NUM_CLASSES + preds, minlength=NUM_CLASSES ** 2).view(NUM_CLASSES, NUM_CLASSES)
    return total_loss / n, correct / n, top2 / n, cm


loss, acc, top2, cm = run_eval()
print(f"before: loss {loss:.4f} acc {acc:.3f} top2 {top2:.3f}")
print(cm)
recall = cm.diag().float() / cm.sum(dim=1).clamp(min=1).float()
print("recall", torch.round(recall, decimals=3))
print("bn tracked (eval)", model[1].num_batches_tracked.item())

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
model.train()
for epoch in range(3):
    for xb, yb in loader:
        opt.zero_grad()
        F.cross_entropy(cmodel(xb), yb).backward()
        opt.step()
print("bn tracked (train)", model[1].num_batches_tracked.item(), model.training)

loss, acc, top2, cm = run_eval()
print(f"after: loss {loss:.4f} acc {acc:.3f} top2 {top2:.3f}")
print(cm, cm.dtype)
print("eval mode", model.training, cmodel.training)
l, c, t2, preds = evaluate_batch(X[:4], Y[:4])
print(l.requires_grad, c.dtype, preds.dtype, preds.tolist())
