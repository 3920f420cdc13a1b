# nanoGPT's Block (LayerNorm, causal self-attention, GELU MLP) run after model.half() with a large
# residual stream, plus a BatchNorm head in half precision; activations users print while debugging fp16.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, n_embd=8, n_head=2):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, bias=False)
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))
        self.n_head = n_head

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp(self.ln_2(x))


blk = Block()
with torch.no_grad():
    for i, p in enumerate(blk.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.5 + 0.1 * i)).view_as(p) * 0.3)
blk.half()
x = (torch.cos(torch.arange(2 * 4 * 8, dtype=torch.float32) * 0.7).view(2, 4, 8) * 400).half()
with torch.no_grad():
    h = blk.ln_1(x)
    print(h.dtype, torch.isfinite(h).all().item(), h[0, 0])
    print(F.layer_norm(x, (8,))[1, 3])
    out = blk(x)
    print(out.dtype, torch.isfinite(out).all().item(), (out - x).abs().max().item() < 100)
    print(blk.ln_2(out)[0, 1])

head = nn.Sequential(nn.Linear(8, 3), nn.BatchNorm1d(3)).half()
with torch.no_grad():
    head[0].weight.copy_(torch.linspace(-1, 1, 24).view(3, 8))
    head[0].bias.zero_()
feats = x.view(-1, 8)
y = head(feats)
print(y.dtype, y[:3])
print(head[1].running_mean, head[1].running_var)
head.eval()
print(head(feats)[:2])
