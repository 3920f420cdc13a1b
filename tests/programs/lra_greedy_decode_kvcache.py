# A tiny LLaMA (RMSNorm, RoPE, GQA via enable_gqa, SwiGLU, tied head) with greedy decoding (a KV cache
# grown with torch.cat under torch.no_grad(), argmax sampling), checked against no-cache decoding.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)


class Attn(nn.Module):
    def __init__(self, dim=8, n_head=4, n_kv=2):
        super().__init__()
        self.n_head, self.n_kv, self.hd = n_head, n_kv, dim // n_head
        self.qkv = nn.Linear(dim, (n_head + 2 * n_kv) * self.hd, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd))
        f = torch.outer(torch.arange(32).float(), inv)
        self.register_buffer("cos", torch.cat([f, f], -1).cos(), persistent=False)
        self.register_buffer("sin", torch.cat([f, f], -1).sin(), persistent=False)

    def rope(self, x, pos):
        c, s = self.cos[pos], self.sin[pos]
        x1, x2 = x[..., : self.hd // 2], x[..., self.hd // 2:]
        return x * c + torch.cat([-x2, x1], -1) * s

    def forward(self, x, start, cache):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split([self.n_head * self.hd, self.n_kv * self.hd, self.n_kv * self.hd], dim=-1)
        q = q.view(B, T, self.n_head, self.hd).transpose(1, 2)
        k = k.view(B, T, self.n_kv, self.hd).transpose(1, 2)
        v = v.view(B, T, self.n_kv, self.hd).transpose(1, 2)
        pos = torch.arange(start, start + T)
        q, k = self.rope(q, pos), self.rope(k, pos)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None and T > 1, enable_gqa=True)
        return self.proj(y.transpose(1, 2).reshape(B, T, C)), (k, v)


class Block(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(dim, eps=1e-5), nn.RMSNorm(dim, eps=1e-5)
        self.attn = Attn(dim)
        self.fc = nn.Linear(dim, 2 * 12, bias=False)
        self.out = nn.Linear(12, dim, bias=False)

    def forward(self, x, start, cache):
        a, cache = self.attn(self.n1(x), start, cache)
        x = x + a
        gate, up = self.fc(self.n2(x)).chunk(2, dim=-1)
        return x + self.out(F.silu(gate) * up), cache


class LM(nn.Module):
    def __init__(self, vocab=13, dim=8, n_layer=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(n_layer))
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, idx, start=0, caches=None):
        x = self.emb(idx)
        new = []
        for i, blk in enumerate(self.blocks):
            x, c = blk(x, start, None if caches is None else caches[i])
            new.append(c)
        return self.head(self.norm(x)), new


model = LM()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.7 + 0.13 * i)).view_as(p))
model.eval()
prompt = torch.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]])


@torch.no_grad()
def generate_cached(idx, n):
    logits, caches = model(idx)
    for _ in range(n):
        nxt = logits[:, -1].argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, nxt], dim=1)
        logits, caches = model(nxt, start=idx.size(1) - 1, caches=caches)
    return idx, caches


@torch.no_grad()
def generate_full(idx, n):
    for _ in range(n):
        logits, _ = model(idx)
        idx = torch.cat([idx, logits[:, -1:].argmax(-1)], dim=1)
    return idx


a, caches = generate_cached(prompt, 6)
b = generate_full(prompt, 6)
print(a)
print(torch.equal(a, b), caches[0][0].shape, caches[1][1].shape, caches[0][0].requires_grad)
full, _ = model(a)
step, _ = model(a[:, -1:], start=a.size(1) - 1, caches=[(k[:, :, :-1], v[:, :, :-1]) for k, v in caches])
print(torch.allclose(full[:, -1], step[:, -1], atol=1e-5))
print(full[0, -1])
print(F.softmax(full[1, -1], -1).max().item() > 0)
