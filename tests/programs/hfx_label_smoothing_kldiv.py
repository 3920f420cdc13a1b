# The Annotated Transformer's LabelSmoothing criterion (KLDivLoss(reduction="sum") against a
# smoothed true_dist built with fill_/scatter_/index_fill_/masked_fill on pad rows) checked
# against F.cross_entropy(label_smoothing=..., ignore_index=...) and its reductions and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelSmoothing(nn.Module):
    def __init__(self, size, padding_idx, smoothing=0.0):
        super().__init__()
        self.criterion = nn.KLDivLoss(reduction="sum")
        self.padding_idx = padding_idx
        self.confidence = 1.0 - smoothing
        self.smoothing = smoothing
        self.size = size
        self.true_dist = None

    def forward(self, x, target):
        assert x.size(1) == self.size
        true_dist = x.data.clone()
        true_dist.fill_(self.smoothing / (self.size - 2))
        true_dist.scatter_(1, target.data.unsqueeze(1), self.confidence)
        true_dist[:, self.padding_idx] = 0
        mask = torch.nonzero(target.data == self.padding_idx)
        if mask.dim() > 0:
            true_dist.index_fill_(0, mask.squeeze(), 0.0)
        self.true_dist = true_dist
        return self.criterion(x, true_dist.clone().detach())


crit = LabelSmoothing(5, 0, 0.4)
predict = torch.FloatTensor([[0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0]])
loss = crit(predict.log(), torch.LongTensor([2, 1, 0]))
print(crit.true_dist)
print(loss)

# the "penalization" demo: loss as the model gets more confident
for x in [1, 2, 5, 10, 100]:
    d = x + 3 * 1
    p = torch.FloatTensor([[0, x / d, 1 / d, 1 / d, 1 / d]])
    print(x, round(crit(p.log(), torch.LongTensor([1])).item(), 4))

# the same thing with the built-in: per-token mean over non-pad targets
logits = torch.sin(torch.arange(6 * 7, dtype=torch.float32) * 0.9).view(6, 7).requires_grad_()
target = torch.tensor([3, 0, 6, 1, 0, 2])
ce = F.cross_entropy(logits, target, ignore_index=0, label_smoothing=0.1)
ce_sum = F.cross_entropy(logits, target, ignore_index=0, label_smoothing=0.1, reduction="sum")
ce_none = F.cross_entropy(logits, target, ignore_index=0, label_smoothing=0.1, reduction="none")
print(ce, ce_sum, ce_none, sep="\n")
print(torch.allclose(ce, ce_sum / (target != 0).sum()))
ce.backward()
print(logits.grad[1], logits.grad[0])

# KLDiv version of the same smoothing (over all classes, pad column kept) for comparison
ls = LabelSmoothing(7, 0, 0.1)
logp = F.log_softmax(logits.detach(), dim=-1)
print(ls(logp, target) / (target != 0).sum())
print(ls.true_dist.sum(1))

# (N, C, T) layout used for sequence outputs; all-pad batch gives nan with mean reduction
seq_logits = logits.detach().view(2, 3, 7).transpose(1, 2)
seq_target = target.view(2, 3)
print(F.cross_entropy(seq_logits, seq_target, ignore_index=0, label_smoothing=0.2))
print(F.cross_entropy(logits.detach(), torch.zeros(6, dtype=torch.long), ignore_index=0, label_smoothing=0.1))
print(nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=0))
for bad in (-0.1, 1.5):
    try:
        print(bad, F.cross_entropy(logits.detach(), target, label_smoothing=bad))
    except RuntimeError as e:
        print(type(e).__name__, e)
# soft (probability) targets with label smoothing
soft = F.one_hot(torch.tensor([1, 2, 3, 4, 5, 6]), 7).float()
print(F.cross_entropy(logits.detach(), soft, label_smoothing=0.1))
try:
    F.cross_entropy(logits, soft, ignore_index=0, label_smoothing=0.1) .backward()
    print("ok soft+ignore_index")
except RuntimeError as e:
    print(type(e).__name__, e)
# building true_dist with a tensor confidence instead of a float: scatter_ wants src of index's rank
true_dist = torch.full((3, 5), 0.1 / 3)
idx = torch.tensor([2, 1, 0]).unsqueeze(1)
for src in (torch.tensor(0.9), torch.tensor([0.9]), torch.full((3, 1), 0.9)):
    try:
        print(true_dist.clone().scatter_(1, idx, src)[0])
    except RuntimeError as e:
        print(type(e).__name__, e)
