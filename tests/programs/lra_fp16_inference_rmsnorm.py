# Half-precision inference of a small LLaMA-style stack (model.half()): RMSNorm with activations whose
# squares overflow float16, SwiGLU, SDPA in float16, logits upcast with .float() before softmax/argmax.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Layer(nn.Module):
    def __init__(self, dim=8, heads=2):
        super().__init__()
        self.heads = heads
        self.attn_norm = nn.RMSNorm(dim, eps=1e-5)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.ffn_norm = nn.RMSNorm(dim, eps=1e-5)
        self.ffn = SwiGLU(dim, 16)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.attn_norm(x)).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, C))
        return x + self.ffn(self.ffn_norm(x))


emb = nn.Embedding(12, 8)
layer = Layer()
norm = nn.RMSNorm(8)
head = nn.Linear(8, 12, bias=False)
mods = nn.ModuleList([emb, layer, norm, head])
with torch.no_grad():
    for i, p in enumerate(mods.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (0.3 + 0.07 * i)).view_as(p) * 0.5)
    emb.weight.mul_(600.0)  # large residual stream, as in real checkpoints
mods.half()
print({p.dtype for p in mods.parameters()}, norm.eps)

tokens = torch.tensor([[1, 7, 3, 11, 0]])
with torch.no_grad():
    h = emb(tokens)
    print(h.dtype, h.abs().max().item(), torch.isinf(h.pow(2)).any().item())
    n = layer.attn_norm(h)
    print(n.dtype, torch.isfinite(n).all().item())
    print(n[0, :2])
    h = layer(h)
    logits = head(norm(h)).float()
    print(logits.dtype, torch.isfinite(logits).all().item())
    print(logits[0, -1].round(decimals=1))
    print(logits.argmax(-1))
    print(F.softmax(logits[0, -1], dim=-1).max().round(decimals=3))

# functional form with and without weight, default eps
x = torch.tensor([[300.0, -200.0, 100.0, 50.0], [1e-3, 0.0, 0.0, 0.0]], dtype=torch.float16, requires_grad=True)
w = torch.tensor([1.0, 0.5, 2.0, 1.5], dtype=torch.float16)
y = F.rms_norm(x, (4,), w)
print(y, F.rms_norm(x.detach(), (4,)))
y.float().pow(2).sum().backward()
print(x.grad)
print(F.rms_norm(x.detach(), (4,), eps=1e-6)[1])
