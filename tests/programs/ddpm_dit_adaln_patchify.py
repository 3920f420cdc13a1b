# A miniature DiT (facebookresearch/DiT style): patchify with Conv2d(stride=patch) + flatten +
# transpose, fixed 2-D sin-cos position embedding from numpy meshgrid, adaLN-Zero modulation
# (shift/scale/gate chunks), F.scaled_dot_product_attention, GELU(tanh) MLP, label dropout via
# torch.where, unpatchify via einsum "nhwpqc->nchpwq", and the learned-sigma chunk + CFG forward.
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_2d_sincos_pos_embed(embed_dim, grid_size):
    grid_h = np.arange(grid_size, dtype=np.float32)
    grid_w = np.arange(grid_size, dtype=np.float32)
    grid = np.stack(np.meshgrid(grid_w, grid_h), axis=0).reshape(2, 1, grid_size, grid_size)

    def one_d(dim, pos):
        omega = 1.0 / 10000 ** (np.arange(dim // 2, dtype=np.float64) / (dim / 2.0))
        out = np.einsum("m,d->md", pos.reshape(-1), omega)
        return np.concatenate([np.sin(out), np.cos(out)], axis=1)

    return np.concatenate([one_d(embed_dim // 2, grid[0]), one_d(embed_dim // 2, grid[1])], axis=1)


def modulate(x, shift, scale):
    return x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)


class DiTBlock(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(hidden, hidden * 3)
        self.proj = nn.Linear(hidden, hidden)
        self.norm2 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden * 2), nn.GELU(approximate="tanh"), nn.Linear(hidden * 2, hidden))
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 6 * hidden))

    def attn(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        x = F.scaled_dot_product_attention(q, k, v)
        return self.proj(x.transpose(1, 2).reshape(B, N, C))

    def forward(self, x, c):
        shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = self.adaLN_modulation(c).chunk(6, dim=1)
        x = x + gate_msa.unsqueeze(1) * self.attn(modulate(self.norm1(x), shift_msa, scale_msa))
        x = x + gate_mlp.unsqueeze(1) * self.mlp(modulate(self.norm2(x), shift_mlp, scale_mlp))
        return x


class MiniDiT(nn.Module):
    def __init__(self, input_size=8, patch=2, in_ch=2, hidden=16, heads=2, num_classes=4):
        super().__init__()
        self.p, self.in_ch, self.out_ch = patch, in_ch, in_ch * 2
        self.x_embedder = nn.Conv2d(in_ch, hidden, patch, stride=patch)
        self.t_embedder = nn.Sequential(nn.Linear(8, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.y_embedder = nn.Embedding(num_classes + 1, hidden)
        self.num_classes = num_classes
        n = (input_size // patch) ** 2
        self.pos_embed = nn.Parameter(torch.zeros(1, n, hidden), requires_grad=False)
        self.pos_embed.data.copy_(torch.from_numpy(get_2d_sincos_pos_embed(hidden, input_size // patch)).float().unsqueeze(0))
        self.blocks = nn.ModuleList([DiTBlock(hidden, heads) for _ in range(2)])
        self.final_norm = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.final_linear = nn.Linear(hidden, patch * patch * self.out_ch)
        self.final_ada = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 2 * hidden))

    def unpatchify(self, x):
        c, p = self.out_ch, self.p
        h = w = int(x.shape[1] ** 0.5)
        x = x.reshape(shape=(x.shape[0], h, w, p, p, c))
        x = torch.einsum("nhwpqc->nchpwq", x)
        return x.reshape(shape=(x.shape[0], c, h * p, h * p))

    def forward(self, x, t, y, force_drop_ids=None):
        x = self.x_embedder(x).flatten(2).transpose(1, 2) + self.pos_embed
        half = 4
        freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
        t_freq = torch.cat([torch.cos(t[:, None].float() * freqs[None]), torch.sin(t[:, None].float() * freqs[None])], -1)
        if force_drop_ids is not None:
            y = torch.where(force_drop_ids == 1, self.num_classes, y)
        c = self.t_embedder(t_freq) + self.y_embedder(y)
        for block in self.blocks:
            x = block(x, c)
        shift, scale = self.final_ada(c).chunk(2, dim=1)
        x = self.final_linear(modulate(self.final_norm(x), shift, scale))
        return self.unpatchify(x)

    def forward_with_cfg(self, x, t, y, cfg_scale):
        half = x[: len(x) // 2]
        combined = torch.cat([half, half], dim=0)
        model_out = self.forward(combined, t, y)
        eps, rest = model_out[:, :self.in_ch], model_out[:, self.in_ch:]
        cond_eps, uncond_eps = torch.split(eps, len(eps) // 2, dim=0)
        half_eps = uncond_eps + cfg_scale * (cond_eps - uncond_eps)
        return torch.cat([torch.cat([half_eps, half_eps], dim=0), rest], dim=1)


model = MiniDiT()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        if p.requires_grad:
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).reshape(p.shape) * 0.2)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), model.pos_embed.shape, model.pos_embed[0, 5, :4])

x = torch.sin(torch.arange(2 * 2 * 64, dtype=torch.float32) * 0.17).reshape(2, 2, 8, 8)
t = torch.tensor([3, 700])
y = torch.tensor([1, 3])
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3, weight_decay=0)
for step in range(5):
    noise = torch.cos(torch.arange(x.numel(), dtype=torch.float32) * 1.3 + step).reshape(x.shape)
    drop = torch.tensor([step % 2, 0])
    out = model(x + 0.5 * noise, t, y, force_drop_ids=drop)
    eps, var = out.chunk(2, dim=1)
    loss = F.mse_loss(eps, noise) + 0.01 * var.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
print(model.pos_embed.grad, model.blocks[0].adaLN_modulation[1].weight.grad.shape)

with torch.no_grad():
    z = torch.cat([x, x], 0)
    out = model.forward_with_cfg(z, torch.tensor([10, 10, 10, 10]), torch.tensor([0, 2, 4, 4]), cfg_scale=4.0)
print(out.shape, out[0, 0, 0].round(decimals=3), torch.equal(out[0, :2], out[2, :2]))
