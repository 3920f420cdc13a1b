# Hand-rolled generate(): past_key_values as tuples of (k, v) concatenated along the sequence dim,
# position offsets from the cache length, greedy decoding with eos/pad handling for a batch, and a
# check that cached logits match a full forward pass (like transformers' test_modeling utilities).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.hd = h, d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, layer_past=None, use_cache=False):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = [z.view(b, t, self.h, self.hd).transpose(1, 2) for z in (q, k, v)]
        if layer_past is not None:
            past_k, past_v = layer_past
            k = torch.cat((past_k, k), dim=-2)
            v = torch.cat((past_v, v), dim=-2)
        present = (k, v) if use_cache else None
        kv_len = k.shape[-2]
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
        causal = torch.tril(torch.ones(kv_len, kv_len, dtype=torch.bool))[kv_len - t:, :]
        scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)
        y = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y), present


class TinyLM(nn.Module):
    def __init__(self, vocab=16, d=8, h=2, n_layer=2, max_pos=24):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.blocks = nn.ModuleList([CausalSelfAttention(d, h) for _ in range(n_layer)])
        self.lns = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layer)])
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, past_key_values=None, use_cache=False):
        past_len = 0 if past_key_values is None else past_key_values[0][0].size(-2)
        pos = torch.arange(past_len, past_len + input_ids.shape[1]).unsqueeze(0)
        x = self.tok(input_ids) + self.pos(pos)
        presents = () if use_cache else None
        for i, (blk, ln) in enumerate(zip(self.blocks, self.lns)):
            a, present = blk(ln(x), None if past_key_values is None else past_key_values[i], use_cache)
            x = x + a
            if use_cache:
                presents = presents + (present,)
        return self.head(x), presents


model = TinyLM()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.5 + 0.1 * i) + i).view_as(p) * 0.9)
model.eval()


@torch.no_grad()
def greedy_generate(model, input_ids, max_new_tokens, eos_token_id, pad_token_id):
    unfinished = torch.ones(input_ids.shape[0], dtype=torch.long)
    past = None
    cur = input_ids
    for step in range(max_new_tokens):
        logits, past = model(cur, past_key_values=past, use_cache=True)
        next_tokens = torch.argmax(logits[:, -1, :], dim=-1)
        next_tokens = next_tokens * unfinished + pad_token_id * (1 - unfinished)
        input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
        unfinished = unfinished & (next_tokens != eos_token_id).long()
        cur = next_tokens[:, None]
        if unfinished.max() == 0:
            break
    return input_ids, past


prompt = torch.tensor([[3, 7, 1], [5, 2, 9]])
out, past = greedy_generate(model, prompt, 8, eos_token_id=4, pad_token_id=0)
print(out)
print("cache layers:", len(past), "k shape:", tuple(past[0][0].shape), "v shape:", tuple(past[1][1].shape))

with torch.no_grad():
    full_logits, _ = model(out)
    logits_a, cache = model(out[:, :5], use_cache=True)
    logits_b, _ = model(out[:, 5:], past_key_values=cache, use_cache=True)
stitched = torch.cat([logits_a, logits_b], dim=1)
print("cache consistent:", torch.allclose(full_logits, stitched, atol=1e-5))
print("max diff < 1e-5:", (full_logits - stitched).abs().max().item() < 1e-5)
print(torch.round(full_logits[0, -1], decimals=3))
probs = F.softmax(full_logits[:, -1], dim=-1)
print(torch.topk(probs, k=3, dim=-1).indices)
scores = torch.log_softmax(full_logits[:, :-1], dim=-1).gather(-1, out[:, 1:, None]).squeeze(-1)
print("seq logprob:", [f"{s:.3f}" for s in scores[:, 2:].sum(-1).tolist()])
