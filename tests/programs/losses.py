# Loss functions side by side: reductions, weights, label smoothing, ignore_index, soft targets.
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([[0.2, 1.5, -0.3], [1.1, -0.7, 0.4], [0.0, 0.3, 2.2]], requires_grad=True)
target = torch.tensor([1, 0, 2])
print(nn.CrossEntropyLoss()(pred, target), F.cross_entropy(pred, target, reduction="sum"))
print(F.cross_entropy(pred, target, reduction="none"))
print(nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(pred, target))
print(nn.CrossEntropyLoss(label_smoothing=0.1)(pred, target))
print(nn.CrossEntropyLoss(ignore_index=0)(pred, target))
soft = torch.tensor([[0.1, 0.8, 0.1], [0.6, 0.2, 0.2], [0.0, 0.0, 1.0]])
print(F.cross_entropy(pred, soft))
print(nn.NLLLoss()(F.log_softmax(pred, dim=1), target))

y = torch.tensor([[0.5, 1.0, -1.0], [0.0, 0.0, 2.0], [1.0, 1.0, 1.0]])
print(nn.MSELoss()(pred, y), nn.L1Loss(reduction="sum")(pred, y), F.mse_loss(pred, y, reduction="none")[0])
print(nn.SmoothL1Loss()(pred, y), nn.HuberLoss(delta=0.5)(pred, y))

probs = torch.sigmoid(pred)
labels = (y > 0.5).float()
print(nn.BCELoss()(probs, labels), nn.BCEWithLogitsLoss()(pred, labels))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 3.0]))(pred, labels))
print(F.binary_cross_entropy(probs, labels, weight=torch.tensor([1.0, 0.0, 1.0])))
print(nn.KLDivLoss(reduction="batchmean")(F.log_softmax(pred, 1), F.softmax(y, 1)))
print(F.cosine_similarity(pred, y, dim=1), F.normalize(y, dim=1)[0])

loss = F.cross_entropy(pred, target, label_smoothing=0.2)
loss.backward()
print(pred.grad, loss.grad_fn.name())
try:
    F.cross_entropy(pred, torch.tensor([0, 1, 3]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    nn.MSELoss()(pred, torch.zeros(2))
except RuntimeError as e:
    print("RuntimeError:", e)
