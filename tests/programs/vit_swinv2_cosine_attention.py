# Swin-V2 window attention from the reference code: scaled cosine attention with a learnable
# logit_scale clamped at log(1/0.01), continuous relative position bias from a small MLP over
# log-spaced coordinates (torch.sign * log2(|x| + 1)), 16 * sigmoid on the bias, and the V2
# post-norm residual; deterministic weights, a few Adam steps, grads and buffers.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowAttentionV2(nn.Module):
    def __init__(self, dim, ws, heads):
        super().__init__()
        self.ws, self.heads = ws, heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones((heads, 1, 1))))
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 16, bias=True), nn.ReLU(inplace=True), nn.Linear(16, heads, bias=False))
        rh = torch.arange(-(ws - 1), ws, dtype=torch.float32)
        rw = torch.arange(-(ws - 1), ws, dtype=torch.float32)
        table = torch.stack(torch.meshgrid([rh, rw], indexing="ij")).permute(1, 2, 0).contiguous().unsqueeze(0)
        table[:, :, :, 0] /= ws - 1
        table[:, :, :, 1] /= ws - 1
        table *= 8
        table = torch.sign(table) * torch.log2(torch.abs(table) + 1.0) / math.log2(8)
        self.register_buffer("relative_coords_table", table, persistent=False)
        coords = torch.stack(torch.meshgrid([torch.arange(ws), torch.arange(ws)], indexing="ij"))
        cf = torch.flatten(coords, 1)
        rel = (cf[:, :, None] - cf[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += ws - 1
        rel[:, :, 1] += ws - 1
        rel[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", rel.sum(-1), persistent=False)
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.q_bias = nn.Parameter(torch.zeros(dim))
        self.v_bias = nn.Parameter(torch.zeros(dim))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B_, N, C = x.shape
        qkv_bias = torch.cat((self.q_bias, torch.zeros_like(self.v_bias, requires_grad=False), self.v_bias))
        qkv = F.linear(input=x, weight=self.qkv.weight, bias=qkv_bias)
        qkv = qkv.reshape(B_, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=torch.log(torch.tensor(1.0 / 0.01))).exp()
        attn = attn * logit_scale
        table = self.cpb_mlp(self.relative_coords_table).view(-1, self.heads)
        bias = table[self.relative_position_index.view(-1)].view(N, N, -1).permute(2, 0, 1).contiguous()
        attn = attn + 16 * torch.sigmoid(bias).unsqueeze(0)
        attn = attn.softmax(-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B_, N, C))


wa = WindowAttentionV2(dim=8, ws=3, heads=2)
print(wa.relative_coords_table.shape, wa.relative_coords_table[0, 0])
print(wa.relative_position_index[0])
print(sorted(wa.state_dict().keys()))
print([n for n, _ in wa.named_buffers()])
with torch.no_grad():
    for i, (n, p) in enumerate(wa.named_parameters()):
        if n != "logit_scale":
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view_as(p) * 0.3)
norm = nn.LayerNorm(8)
x = torch.cos(torch.arange(4 * 9 * 8, dtype=torch.float32) * 0.12).view(4, 9, 8)
target = torch.sin(torch.arange(4 * 9 * 8, dtype=torch.float32) * 0.05).view(4, 9, 8)
opt = torch.optim.Adam(list(wa.parameters()) + list(norm.parameters()), lr=0.01)
for step in range(12):
    y = x + norm(wa(x))  # res-post-norm
    loss = F.mse_loss(y, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(step, f"{loss.item():.5f}", y.grad_fn.name())
print(wa.logit_scale.grad.view(-1), wa.logit_scale.data.view(-1))
print(wa.cpb_mlp[0].weight.grad[:3].mul(1e3).round(decimals=2))
print(torch.clamp(torch.tensor([1.0, 5.0]), max=torch.log(torch.tensor(100.0))))
print(F.normalize(torch.tensor([[3.0, 4.0], [0.0, 0.0]]), dim=-1))
