# d2l.ai 11.3 attention scoring functions: masked softmax, additive and scaled dot-product attention.
import math

import torch
from torch import nn


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def masked_softmax(X, valid_lens):
    """Perform softmax operation by masking elements on the last axis."""
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32,
                            device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)


X = torch.linspace(0, 1, 16).reshape(2, 2, 4)
print(masked_softmax(X, torch.tensor([2, 3])))
print(masked_softmax(X, torch.tensor([[1, 3], [2, 4]])))
print(sequence_mask(torch.tensor([[1, 2, 3], [4, 5, 6]]), torch.tensor([1, 2])))
print(torch.repeat_interleave(torch.tensor([2, 3]), 2), torch.tensor([1, 2]).repeat_interleave(torch.tensor([2, 1])))


class AdditiveAttention(nn.Module):
    def __init__(self, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.Linear(2, num_hiddens, bias=False)
        self.W_q = nn.Linear(20, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


queries = torch.linspace(-1, 1, 40).reshape(2, 1, 20)
keys = torch.cos(torch.arange(40, dtype=torch.float32)).reshape(2, 10, 2)
values = torch.arange(40, dtype=torch.float32).reshape(1, 10, 4).repeat(2, 1, 1)
valid_lens = torch.tensor([2, 6])
attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
with torch.no_grad():
    for i, p in enumerate(attention.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape) * 0.3)
attention.eval()
out = attention(queries, keys, values, valid_lens)
print(out, out.shape)
print(attention.attention_weights)
out.sum().backward()
print(attention.W_q.weight.grad.abs().sum(), attention.w_v.weight.grad)


class DotProductAttention(nn.Module):
    """Scaled dot product attention."""
    def __init__(self, dropout, **kwargs):
        super(DotProductAttention, self).__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


queries = torch.arange(4, dtype=torch.float32).reshape((2, 1, 2)) / 4
keys = torch.arange(20, dtype=torch.float32).reshape(2, 10, 1).repeat(1, 1, 2) / 20
keys.requires_grad_()
attention = DotProductAttention(dropout=0.5)
attention.eval()
out = attention(queries, keys, values, valid_lens)
print(out)
print(attention.attention_weights.sum(-1), attention.attention_weights.grad_fn)
out.backward(torch.ones_like(out))
print(keys.grad[0, :3], keys.grad[1, 5:7])
ref = nn.functional.scaled_dot_product_attention(queries, keys.detach(), values,
                                                 attn_mask=torch.arange(10)[None, None, :] < valid_lens[:, None, None])
print(torch.allclose(ref, out, atol=1e-5), ref.shape)
print(attention, attention.training)
