# d2l.ai 11.5 multi-head attention from scratch (transpose_qkv) and 11.6 positional encoding.
import math

import torch
from torch import nn


def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = X.reshape(-1, shape[-1])
    mask = torch.arange(shape[-1], dtype=torch.float32)[None, :] < valid_lens[:, None]
    X[~mask] = -1e6
    return nn.functional.softmax(X.reshape(shape), dim=-1)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads, dropout, bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.Linear(num_hiddens, num_hiddens, bias=bias)
        self.W_k = nn.Linear(num_hiddens, num_hiddens, bias=bias)
        self.W_v = nn.Linear(num_hiddens, num_hiddens, bias=bias)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=bias)

    def transpose_qkv(self, X):
        X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
        X = X.permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])

    def transpose_output(self, X):
        X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
        X = X.permute(0, 2, 1, 3)
        return X.reshape(X.shape[0], X.shape[1], -1)

    def forward(self, queries, keys, values, valid_lens):
        queries = self.transpose_qkv(self.W_q(queries))
        keys = self.transpose_qkv(self.W_k(keys))
        values = self.transpose_qkv(self.W_v(values))
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        output_concat = self.transpose_output(output)
        return self.W_o(output_concat)


num_hiddens, num_heads = 8, 2
attention = MultiHeadAttention(num_hiddens, num_heads, 0.5)
with torch.no_grad():
    for i, p in enumerate(attention.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).reshape(p.shape) * 0.3)
attention.eval()
batch_size, num_queries, num_kvpairs = 2, 4, 6
valid_lens = torch.tensor([3, 2])
X = torch.sin(torch.arange(batch_size * num_queries * num_hiddens, dtype=torch.float32)).reshape(batch_size, num_queries, num_hiddens)
Y = torch.cos(torch.arange(batch_size * num_kvpairs * num_hiddens, dtype=torch.float32)).reshape(batch_size, num_kvpairs, num_hiddens)
out = attention(X, Y, Y, valid_lens)
print(out.shape, out[0, 0], out.grad_fn)
print(attention.attention.attention_weights.shape, attention.attention.attention_weights[1, 0])
out.sum().backward()
print(attention.W_q.weight.grad[0], attention.W_o.weight.grad.shape)
t = attention.transpose_qkv(torch.arange(2 * 3 * 8.0).reshape(2, 3, 8))
print(t.shape, t.is_contiguous(), t[1], torch.equal(attention.transpose_output(t), torch.arange(2 * 3 * 8.0).reshape(2, 3, 8)))
print(torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), repeats=2, dim=0))


class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
            10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)

    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :].to(X.device)
        return self.dropout(X)


encoding_dim, num_steps = 32, 60
pos_encoding = PositionalEncoding(encoding_dim, 0)
X = pos_encoding(torch.zeros((1, num_steps, encoding_dim)))
P = pos_encoding.P[:, :X.shape[1], :]
print(P.shape, P[0, 1, :6], P[0, 59, 4:10])
print(P[0, :, 6:10].T.shape, X.sum(), torch.pow(10000, torch.tensor([0.0, 0.5])), torch.pow(2, torch.arange(4)))
for i in range(8):
    print(f'{i} in binary is {i:>03b}')
print(torch.arange(0, 8, 2, dtype=torch.float32) / 8, pos_encoding.P.dtype)
try:  # forgetting the head axis: permute gets four dims for a 3-d tensor
    torch.ones(2, 4, 8).permute(0, 2, 1, 3)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
