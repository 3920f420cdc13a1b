# timm AttentionPoolLatent / ViT Attention with a fused_attn switch: learned latent query,
# kv = Linear(..).reshape(B, N, 2, H, D).permute(2, 0, 3, 1, 4).unbind(0), q_norm/k_norm LayerNorm
# on head_dim, F.scaled_dot_product_attention vs the explicit softmax path, then token/avg pooling.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionPoolLatent(nn.Module):
    def __init__(self, dim, num_heads=2, latent_len=1, qk_norm=True, fused_attn=True, pool_type="token"):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.fused_attn = fused_attn
        self.pool = pool_type
        self.latent_len = latent_len
        self.latent = nn.Parameter(torch.zeros(1, latent_len, dim))
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, dim * 2)
        self.q_norm = nn.LayerNorm(self.head_dim) if qk_norm else nn.Identity()
        self.k_norm = nn.LayerNorm(self.head_dim) if qk_norm else nn.Identity()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(approximate="tanh"), nn.Linear(2 * dim, dim))

    def forward(self, x):
        B, N, C = x.shape
        q_latent = self.latent.expand(B, -1, -1)
        q = self.q(q_latent).reshape(B, self.latent_len, self.num_heads, self.head_dim).transpose(1, 2)
        kv = self.kv(x).reshape(B, N, 2, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        k, v = kv.unbind(0)
        q, k = self.q_norm(q), self.k_norm(k)
        if self.fused_attn:
            x = F.scaled_dot_product_attention(q, k, v)
        else:
            q = q * self.scale
            attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
            x = attn @ v
        x = x.transpose(1, 2).reshape(B, self.latent_len, C)
        x = self.proj(x)
        x = x + self.mlp(self.norm(x))
        if self.pool == "token":
            x = x[:, 0]
        elif self.pool == "avg":
            x = x.mean(1)
        return x


def fill(m):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            if "norm" not in n:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape) * 0.4)
    return m


x = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.17).reshape(2, 5, 8)
fused = fill(AttentionPoolLatent(8, num_heads=2, latent_len=3, pool_type="avg"))
plain = fill(AttentionPoolLatent(8, num_heads=2, latent_len=3, pool_type="avg", fused_attn=False))
a, b = fused(x), plain(x)
print(a.shape, torch.allclose(a, b, atol=1e-5))
print(a.detach())
tok = fill(AttentionPoolLatent(8, num_heads=4, latent_len=1, qk_norm=False))
print(tok(x).shape, tok(x)[1].detach())
kv = tok.kv(x).reshape(2, 5, 2, 4, 2).permute(2, 0, 3, 1, 4)
print(kv.shape, kv.is_contiguous(), [t.shape for t in kv.unbind(0)])
print(sorted(n for n, _ in fused.named_parameters())[:5], fused.latent.shape)

opt = torch.optim.AdamW(fused.parameters(), lr=5e-3, betas=(0.9, 0.95), weight_decay=0.05)
target = torch.linspace(-1, 1, 16).reshape(2, 8)
for step in range(10):
    opt.zero_grad()
    loss = F.mse_loss(fused(x), target)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}", f"{fused.latent.grad.norm().item():.5f}", f"{fused.q_norm.weight.grad.abs().sum().item():.5f}")
