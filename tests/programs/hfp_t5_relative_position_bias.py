# T5Attention from modeling_t5.py: bidirectional / causal _relative_position_bucket (log-spaced
# buckets with torch.log, torch.min, full_like, where), relative_attention_bias Embedding turned into
# a (1, heads, q, k) position_bias, shared across layers, plus the unscaled T5 attention and T5LayerNorm.
import math
import torch
import torch.nn as nn


def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


class T5LayerNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


class T5Attention(nn.Module):
    def __init__(self, d_model=8, n_heads=2, num_buckets=8, max_distance=16, is_decoder=False, has_bias=True):
        super().__init__()
        self.n_heads, self.d_kv = n_heads, d_model // n_heads
        self.is_decoder, self.num_buckets, self.max_distance = is_decoder, num_buckets, max_distance
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)
        self.has_relative_attention_bias = has_bias
        if has_bias:
            self.relative_attention_bias = nn.Embedding(num_buckets, n_heads)

    def compute_bias(self, query_length, key_length):
        context_position = torch.arange(query_length, dtype=torch.long)[:, None]
        memory_position = torch.arange(key_length, dtype=torch.long)[None, :]
        relative_position = memory_position - context_position
        buckets = _relative_position_bucket(relative_position, bidirectional=not self.is_decoder,
                                            num_buckets=self.num_buckets, max_distance=self.max_distance)
        values = self.relative_attention_bias(buckets)
        return values.permute([2, 0, 1]).unsqueeze(0)

    def forward(self, hidden_states, mask=None, position_bias=None):
        b, t, _ = hidden_states.shape
        shape = lambda x: x.view(b, -1, self.n_heads, self.d_kv).transpose(1, 2)
        q, k, v = shape(self.q(hidden_states)), shape(self.k(hidden_states)), shape(self.v(hidden_states))
        scores = torch.matmul(q, k.transpose(3, 2))
        if position_bias is None:
            if not self.has_relative_attention_bias:
                position_bias = torch.zeros((1, self.n_heads, t, t), dtype=scores.dtype, requires_grad=self.training)
            else:
                position_bias = self.compute_bias(t, t)
            if mask is not None:
                position_bias = position_bias + mask
        scores += position_bias
        attn = nn.functional.softmax(scores.float(), dim=-1).type_as(scores)
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(b, -1, self.n_heads * self.d_kv)
        return self.o(out), position_bias


rel = torch.arange(-20, 21)
print(_relative_position_bucket(rel, True, 32, 128).tolist())
print(_relative_position_bucket(rel, False, 32, 128).tolist())
print(_relative_position_bucket(torch.arange(6)[None, :] - torch.arange(6)[:, None], True, 8, 16))

layers = nn.ModuleList([T5Attention(has_bias=(i == 0)) for i in range(3)])
norms = nn.ModuleList([T5LayerNorm(8) for _ in range(3)])
with torch.no_grad():
    for i, p in enumerate(layers.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view_as(p) * 0.4)
print([n for n, _ in layers.named_parameters() if "relative" in n])

x = torch.sin(torch.arange(2 * 6 * 8, dtype=torch.float32) * 0.21).view(2, 6, 8)
attention_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]])
ext = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
h, position_bias = x, None
for attn, norm in zip(layers, norms):
    out, position_bias = attn(norm(h), mask=ext, position_bias=position_bias)
    h = h + out
print(position_bias.shape, torch.round(position_bias[0, 1, :3, :4], decimals=4))
print(torch.round(h[1, :, :4], decimals=4))
h.sum().backward()
print(torch.round(layers[0].relative_attention_bias.weight.grad, decimals=4))
