# The Annotated Transformer's LabelSmoothing criterion: KLDivLoss(reduction="sum") against a
# smoothed target built with fill_, scatter_ and index_fill_ for padding rows, compared with
# cross_entropy(label_smoothing=...) and a hand-written smoothed NLL; plus the greedy decode
# of a toy generator with log_softmax and max.
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
predict = torch.FloatTensor([[0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0],
                             [0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0]])
print(crit(predict.log(), torch.LongTensor([2, 1, 0, 3, 3])))
print(crit.true_dist)


def loss(x, crit):
    d = x + 3 * 1
    predict = torch.FloatTensor([[0, x / d, 1 / d, 1 / d, 1 / d]])
    return crit(predict.log(), torch.LongTensor([1])).data


crit = LabelSmoothing(5, 0, 0.1)
print([round(loss(x, crit).item(), 4) for x in range(1, 100, 10)])

# Builtin label smoothing vs manual smoothed NLL on logits, with padding ignored
V, PAD, eps = 6, 0, 0.1
logits = (torch.arange(4 * V, dtype=torch.float32).reshape(4, V) * 0.37).sin() * 3
logits.requires_grad_()
tgt = torch.tensor([3, 0, 5, 1])
builtin = F.cross_entropy(logits, tgt, ignore_index=PAD, label_smoothing=eps)
lp = F.log_softmax(logits, dim=-1)
nll = -lp.gather(1, tgt[:, None]).squeeze(1)
smooth = -lp.mean(-1)
per_tok = (1 - eps) * nll + eps * smooth
keep = tgt != PAD
manual = per_tok[keep].mean()
print(f"{builtin.item():.5f} {manual.item():.5f}", builtin.grad_fn.name())
g1, = torch.autograd.grad(builtin, logits)
g2, = torch.autograd.grad(manual, logits)
print(g1)
print(torch.allclose(g1, g2, atol=1e-6))
print(F.cross_entropy(logits, tgt, ignore_index=PAD, label_smoothing=eps, reduction="none"))

# toy generator: greedy decode with log_softmax + max
proj = nn.Linear(4, V)
with torch.no_grad():
    proj.weight.copy_(torch.linspace(-1, 1, 4 * V).reshape(V, 4))
    proj.bias.copy_(torch.linspace(0.2, -0.2, V))
h = torch.linspace(-1, 1, 4)
ys = []
for step in range(5):
    prob = F.log_softmax(proj(h), dim=-1)
    val, nxt = torch.max(prob, dim=-1)
    ys.append(nxt.item())
    h = torch.roll(h, 1) * 0.9 + prob[:4].detach() * 0.1
print(ys, round(val.item(), 4))
