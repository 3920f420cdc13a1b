# Handling class imbalance as in blog posts: inverse-frequency class weights for CrossEntropyLoss,
# pos_weight for BCEWithLogitsLoss, and building a WeightedRandomSampler from per-sample weights.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import WeightedRandomSampler, DataLoader, TensorDataset

labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2, 0])
counts = torch.bincount(labels)
print(counts, counts.dtype)
class_weights = 1.0 / counts.float()
print(class_weights)
class_weights = class_weights / class_weights.sum() * len(counts)
print(class_weights)
balanced = len(labels) / (len(counts) * counts)
print(balanced, balanced.dtype)

logits = torch.linspace(-2, 2, 30).view(10, 3)
crit = nn.CrossEntropyLoss(weight=class_weights)
print(crit)
print(crit(logits, labels), nn.CrossEntropyLoss()(logits, labels))
print(nn.CrossEntropyLoss(weight=class_weights, reduction="sum")(logits, labels))
print(nn.CrossEntropyLoss(weight=class_weights, reduction="none")(logits, labels))
print(F.cross_entropy(logits, labels, weight=class_weights, label_smoothing=0.1))
print(F.nll_loss(F.log_softmax(logits, 1), labels, weight=class_weights, ignore_index=2))
print(crit.weight, "weight" in dict(crit.named_buffers()), list(crit.state_dict().keys()))
try:
    nn.CrossEntropyLoss(weight=torch.ones(2))(logits, labels)
except RuntimeError as e:
    print(type(e).__name__, e)

learnable = torch.ones(3, requires_grad=True)
try:
    print(F.cross_entropy(logits, labels, weight=learnable))
except RuntimeError as e:
    print(type(e).__name__, e)
print(F.cross_entropy(logits, labels, weight=learnable.detach()))

y = torch.tensor([1., 0., 0., 0., 0., 0., 0., 1.])
scores = torch.tensor([0.8, -1.2, 0.3, -0.5, -2.0, 0.1, -0.7, 1.5])
neg, pos = (y == 0).sum(), (y == 1).sum()
pos_weight = neg / pos
print(neg, pos, pos_weight, pos_weight.dtype)
bce = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
print(bce(scores, y), nn.BCEWithLogitsLoss()(scores, y))
print(F.binary_cross_entropy_with_logits(scores, y, pos_weight=torch.tensor([3.0]), reduction="none"))
print(F.binary_cross_entropy_with_logits(scores, y, weight=1 + y))
ml_logits = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.2, -1.5]])
ml_y = torch.tensor([[1., 0., 1.], [0., 0., 1.]])
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5]))(ml_logits, ml_y))
s = scores.clone().requires_grad_()
nn.BCEWithLogitsLoss(pos_weight=torch.tensor(6.0))(s, y).backward()
print(s.grad)
try:
    nn.BCEWithLogitsLoss()(scores, y.long())
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0]))(ml_logits, ml_y)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    nn.BCEWithLogitsLoss()(scores, y[:5])
except ValueError as e:
    print(type(e).__name__, e)

sample_weights = class_weights[labels]
print(sample_weights)
sampler = WeightedRandomSampler(sample_weights, num_samples=len(sample_weights), replacement=True)
print(type(sampler).__name__, len(sampler), sampler.num_samples, sampler.replacement)
print(sampler.weights.dtype, sampler.weights.shape)
sampler2 = WeightedRandomSampler([0.1, 0.9, 0.4], 2, replacement=False, generator=torch.Generator().manual_seed(1))
print(len(sampler2), sampler2.weights, len(list(sampler2)))
try:
    WeightedRandomSampler([0.1, 0.9], 0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    WeightedRandomSampler([0.1, 0.9], 3, replacement="yes")
except ValueError as e:
    print(type(e).__name__, e)
loader = DataLoader(TensorDataset(torch.arange(10.), labels), batch_size=4, sampler=sampler)
print(len(loader), [xb.shape for xb, yb in loader])
# oversampling by drawing class ids in proportion to inverse counts
probs = class_weights / class_weights.sum()
draw = torch.multinomial(probs, 20, replacement=True, generator=torch.Generator().manual_seed(0))
print(draw.shape, draw.dtype, draw.min() >= 0, draw.max() < 3)
try:
    torch.multinomial(counts, 5, replacement=True)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.multinomial(counts.float(), 5, replacement=True).shape)
