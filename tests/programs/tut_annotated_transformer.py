# Pieces of "The Annotated Transformer" blog post, scaled down: clones() via copy.deepcopy,
# a hand-written LayerNorm (unbiased std), attention() with masked_fill(mask == 0, -1e9),
# MultiHeadedAttention with view/transpose/contiguous, subsequent_mask from torch.triu,
# SublayerConnection, the LabelSmoothing criterion (KLDivLoss(reduction="sum"), scatter_,
# index_fill_, masked_fill_ via nonzero) and the Noam learning-rate schedule with LambdaLR.
import copy
import math
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR


def clones(module, N):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])


class LayerNorm(nn.Module):
    def __init__(self, features, eps=1e-6):
        super().__init__()
        self.a_2 = nn.Parameter(torch.ones(features))
        self.b_2 = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)
        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2


def subsequent_mask(size):
    attn_shape = (1, size, size)
    subsequent_mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return subsequent_mask == 0


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_k = d_model // h
        self.h = h
        self.linears = clones(nn.Linear(d_model, d_model), 4)
        self.attn = None
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)
        nbatches = query.size(0)
        query, key, value = [lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2)
                             for lin, x in zip(self.linears, (query, key, value))]
        x, self.attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        del query, key, value
        return self.linears[-1](x)


class SublayerConnection(nn.Module):
    def __init__(self, size, dropout):
        super().__init__()
        self.norm = LayerNorm(size)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, sublayer):
        return x + self.dropout(sublayer(self.norm(x)))


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


print(subsequent_mask(4), subsequent_mask(4).dtype)
mha = MultiHeadedAttention(2, 6, dropout=0.0)
with torch.no_grad():
    for i, p in enumerate(mha.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + i).view(p.shape) * 0.4)
print(len(mha.linears), mha.linears[0] is mha.linears[1], len(list(mha.parameters())))
x = torch.sin(torch.arange(2 * 4 * 6, dtype=torch.float32) * 0.3).view(2, 4, 6)
sub = SublayerConnection(6, 0.0)
y = sub(x, lambda t: mha(t, t, t, subsequent_mask(4)))
print(y.shape, y[1, 3], mha.attn.shape, mha.attn[0, 1])
pad_mask = torch.tensor([[True, True, True, False], [True, True, True, True]]).unsqueeze(-2)
out = mha(x, x, x, pad_mask)
out.pow(2).sum().backward()
print(mha.attn[0, 0, :, 3], mha.linears[0].weight.grad[0])
ln = LayerNorm(6)
print(ln(x)[0, 0], nn.LayerNorm(6, eps=1e-6, elementwise_affine=False)(x)[0, 0])

crit = LabelSmoothing(5, 0, 0.4)
predict = torch.FloatTensor([[0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0], [0, 0.2, 0.7, 0.1, 0]])
loss = crit(x=predict.clamp_min(1e-9).log(), target=torch.LongTensor([2, 1, 0]))
print(crit.true_dist, loss)
crit = LabelSmoothing(5, 0, 0.1)
for xv in (1, 5, 50):
    d = xv + 3
    p = torch.FloatTensor([[0, xv / d, 1 / d, 1 / d, 1 / d]])
    print(xv, round(crit(p.clamp_min(1e-9).log(), torch.LongTensor([1])).item(), 5))


def rate(step, model_size, factor, warmup):
    if step == 0:
        step = 1
    return factor * (model_size ** (-0.5) * min(step ** (-0.5), step * warmup ** (-1.5)))


opt = torch.optim.Adam(mha.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
lr_scheduler = LambdaLR(optimizer=opt, lr_lambda=lambda step: rate(step, 6, 1.0, 4))
lrs = []
for step in range(7):
    opt.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
    lr_scheduler.step()
print(lrs)
