# Meta's llama reference inference code: a preallocated KV cache written with slice assignment at
# start_pos, the mask built with torch.full(-inf).triu(1) and hstack'ed zeros for cached positions,
# .type_as; plus ALiBi slopes/biases, a sliding-window mask, and SDPA(enable_gqa=True).
import math

import torch
import torch.nn.functional as F

max_batch_size, max_seq_len, n_kv_heads, n_heads, head_dim = 2, 8, 1, 2, 2
cache_k = torch.zeros((max_batch_size, max_seq_len, n_kv_heads, head_dim))
cache_v = torch.zeros((max_batch_size, max_seq_len, n_kv_heads, head_dim))
print(cache_k.shape, cache_k.dtype)


def make_mask(seqlen, start_pos):
    mask = None
    if seqlen > 1:
        mask = torch.full((seqlen, seqlen), float("-inf"))
        mask = torch.triu(mask, diagonal=1)
        mask = torch.hstack([torch.zeros((seqlen, start_pos)), mask]).type_as(cache_k)
    return mask


def attend(xq, xk, xv, start_pos):
    bsz, seqlen = xq.shape[:2]
    cache_k[:bsz, start_pos: start_pos + seqlen] = xk
    cache_v[:bsz, start_pos: start_pos + seqlen] = xv
    keys = cache_k[:bsz, : start_pos + seqlen]
    values = cache_v[:bsz, : start_pos + seqlen]
    keys = torch.repeat_interleave(keys, dim=2, repeats=n_heads // n_kv_heads)
    values = torch.repeat_interleave(values, dim=2, repeats=n_heads // n_kv_heads)
    xq, keys, values = xq.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2)
    scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(head_dim)
    mask = make_mask(seqlen, start_pos)
    if mask is not None:
        scores = scores + mask
    scores = F.softmax(scores.float(), dim=-1).type_as(xq)
    return torch.matmul(scores, values).transpose(1, 2).contiguous().view(bsz, seqlen, -1)


print(make_mask(3, 0))
print(make_mask(2, 3))
print(make_mask(1, 5))

seq = torch.linspace(-1, 1, 2 * 5 * 2 * 2).view(2, 5, 2, 2)
kv = torch.linspace(0.5, -1, 2 * 5 * 1 * 2).view(2, 5, 1, 2)
prefill = attend(seq[:, :3], kv[:, :3], kv[:, :3] * 2, start_pos=0)
print(prefill.shape, prefill[0])
step3 = attend(seq[:, 3:4], kv[:, 3:4], kv[:, 3:4] * 2, start_pos=3)
step4 = attend(seq[:, 4:5], kv[:, 4:5], kv[:, 4:5] * 2, start_pos=4)
print(step4[1], cache_k[0, :, 0, 0], cache_v.count_nonzero())
cache_k.zero_()
cache_v.zero_()
full = attend(seq, kv, kv * 2, start_pos=0)
print(torch.allclose(full[:, 3:4], step3, atol=1e-6), torch.allclose(full[:, 4:], step4, atol=1e-6))

# the same with SDPA's grouped-query support
q_t, k_t, v_t = seq.transpose(1, 2), kv.transpose(1, 2), (kv * 2).transpose(1, 2)
out = F.scaled_dot_product_attention(q_t, k_t, v_t, is_causal=True, enable_gqa=True)
print(out.shape, torch.allclose(out.transpose(1, 2).reshape(2, 5, -1), full, atol=1e-6))
try:
    F.scaled_dot_product_attention(q_t, k_t, v_t, is_causal=True)
except RuntimeError as e:
    print(type(e).__name__, e)


# ALiBi
def get_slopes(n):
    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]


print([round(s, 6) for s in get_slopes(4)], [round(s, 6) for s in get_slopes(6)])
slopes = torch.tensor(get_slopes(4))
T = 4
context_position = torch.arange(T)[:, None]
memory_position = torch.arange(T)[None, :]
relative_position = memory_position - context_position
print(relative_position, relative_position.dtype)
alibi = slopes[:, None, None] * relative_position.abs().neg()
print(alibi.shape, alibi[0], alibi[3, -1])
bloom_alibi = slopes[:, None] * torch.arange(T)[None, :]
print(bloom_alibi, bloom_alibi.dtype)
print(torch.pow(2, -torch.arange(1, 5)), torch.pow(2.0, -torch.arange(1, 5)), 2 ** -torch.arange(1.0, 5.0))

# sliding-window causal mask (window 2)
window = 2
i = torch.arange(5)[:, None]
j = torch.arange(5)[None, :]
sw = (j <= i) & (j > i - window)
print(sw.int())
print(torch.tril(torch.ones(5, 5), diagonal=0) - torch.tril(torch.ones(5, 5), diagonal=-window))
print(torch.ones(5, 5, dtype=torch.bool).tril().triu(-(window - 1)).equal(sw))
print(torch.zeros(5, 5).masked_fill(~sw, float("-inf")).softmax(-1)[4])
