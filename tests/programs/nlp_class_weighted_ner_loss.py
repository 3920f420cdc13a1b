# Class-imbalanced token tagging (NER-style "O" dominates): inverse-frequency class weights from
# a Counter, the classic "expected scalar type Float but found Double" when the weights come from
# numpy, then weighted cross_entropy over (B, C, L) logits with ignore_index padding,
# label smoothing, a hand-written focal loss, and per-class masked accuracy.
from collections import Counter

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

tags = ["O", "B-PER", "I-PER", "B-LOC"]
sent_tags = [["O", "O", "B-PER", "I-PER", "O"], ["B-LOC", "O", "O"], ["O", "B-PER", "O", "O", "O", "B-LOC"]]
counts = Counter(t for s in sent_tags for t in s)
print(counts.most_common())
PAD = -100
L = max(map(len, sent_tags))
y = torch.full((len(sent_tags), L), PAD, dtype=torch.long)
for i, s in enumerate(sent_tags):
    y[i, : len(s)] = torch.tensor([tags.index(t) for t in s])
print(y)

freq = np.array([counts[t] for t in tags], dtype=np.float64)
np_weights = torch.from_numpy(freq.sum() / (len(tags) * freq))
print(np_weights)
logits = (torch.arange(3 * len(tags) * L, dtype=torch.float32).reshape(3, L, len(tags)) * 0.41).sin() * 2
logits.requires_grad_()
for name, fn in [
    ("F.cross_entropy", lambda: F.cross_entropy(logits.transpose(1, 2), y, weight=np_weights, ignore_index=PAD)),
    ("nn.CrossEntropyLoss", lambda: nn.CrossEntropyLoss(weight=np_weights)(logits.reshape(-1, 4), y.reshape(-1))),
    ("F.nll_loss", lambda: F.nll_loss(F.log_softmax(logits, -1).reshape(-1, 4), y.reshape(-1), weight=np_weights)),
]:
    try:
        fn()
    except RuntimeError as e:
        print(name, "RuntimeError:", e)

weights = np_weights.float()
crit = nn.CrossEntropyLoss(weight=weights, ignore_index=PAD)
print(crit, crit.weight)
loss = crit(logits.transpose(1, 2), y)
loss.backward()
print(f"{loss.item():.5f}", loss.grad_fn.name())
print(logits.grad[0])
print(F.cross_entropy(logits.transpose(1, 2), y, weight=weights, ignore_index=PAD, reduction="none"))
print(F.cross_entropy(logits.transpose(1, 2), y, weight=weights, ignore_index=PAD, label_smoothing=0.1))
print(F.cross_entropy(logits.transpose(1, 2), y, weight=weights, ignore_index=PAD, label_smoothing=0.1, reduction="sum"))
print(F.cross_entropy(logits.transpose(1, 2).double(), y, weight=np_weights, ignore_index=PAD))

# focal loss on the kept tokens
flat, tgt = logits.detach().reshape(-1, 4), y.reshape(-1)
keep = tgt != PAD
ce = F.cross_entropy(flat[keep], tgt[keep], reduction="none")
pt = torch.exp(-ce)
focal = (weights[tgt[keep]] * (1 - pt) ** 2 * ce).sum() / weights[tgt[keep]].sum()
print(f"focal {focal.item():.5f}")

pred = logits.argmax(-1)
mask = y != PAD
for c, t in enumerate(tags):
    sel = mask & (y == c)
    acc = (pred[sel] == c).float().mean() if sel.any() else torch.tensor(float("nan"))
    print(t, int(sel.sum()), f"{acc.item():.3f}")
