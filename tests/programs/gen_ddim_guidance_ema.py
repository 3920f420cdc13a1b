# Diffusion-model utilities seen in DDIM / classifier-free guidance code: class-conditional
# denoiser with label dropout via torch.where, guidance by doubling the batch (torch.cat + chunk),
# DDIM update with eta=0, v-prediction targets, an EMA copy of the model (copy.deepcopy +
# lerp_ / AveragedModel with get_ema_multi_avg_fn), and self-attention via
# F.scaled_dot_product_attention.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn


class CondDenoiser(nn.Module):
    def __init__(self, dim=4, num_classes=3):
        super().__init__()
        self.label_emb = nn.Embedding(num_classes + 1, dim)   # last index = "null" class
        self.t_proj = nn.Linear(1, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.null = num_classes

    def forward(self, x, t, y):
        h = x + self.label_emb(y)[:, None, :] + self.t_proj(t.float()[:, None] / 1000)[:, None, :]
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        a = F.scaled_dot_product_attention(q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1)).squeeze(1)
        return self.out(a + h)


model = CondDenoiser()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + i).view_as(p) * 0.5)
T = 50
alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 0.05, T), 0)
x0 = torch.cos(torch.arange(2 * 3 * 4, dtype=torch.float32) * 0.6).view(2, 3, 4)
noise = torch.sin(torch.arange(2 * 3 * 4, dtype=torch.float32) * 1.7).view(2, 3, 4)
y = torch.tensor([0, 2])
drop = torch.tensor([True, False])
y_in = torch.where(drop, torch.full_like(y, model.null), y)
print(y_in, y_in.dtype)
t = torch.tensor([10, 40])
a_t = alphas_cumprod[t].view(-1, 1, 1)
x_t = a_t.sqrt() * x0 + (1 - a_t).sqrt() * noise
v_target = a_t.sqrt() * noise - (1 - a_t).sqrt() * x0
pred = model(x_t, t, y_in)
loss_eps, loss_v = F.mse_loss(pred, noise), F.mse_loss(pred, v_target)
print(f"eps-loss {loss_eps.item():.5f} v-loss {loss_v.item():.5f}", pred.grad_fn.name())

ema = copy.deepcopy(model).requires_grad_(False)
swa = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(x_t, t, y_in), noise)
    loss.backward()
    opt.step()
    with torch.no_grad():
        for p_ema, p in zip(ema.parameters(), model.parameters()):
            p_ema.lerp_(p, 1 - 0.9)
    swa.update_parameters(model)
    print(f"step {step} loss {loss.item():.5f}")
print(swa.n_averaged, ema.out.bias, swa.module.out.bias, sep="\n")
print(torch.allclose(ema.out.weight, swa.module.out.weight, atol=1e-6), ema.out.weight.requires_grad)
print(torch.lerp(torch.zeros(3), torch.ones(3), torch.tensor([0.0, 0.5, 1.0])), torch.tensor([1., 2.]).lerp(torch.tensor([3., 6.]), 0.25))


@torch.no_grad()
def ddim_step(model, x, t, t_prev, y, guidance_scale=3.0):
    x_in = torch.cat([x] * 2)
    t_in = torch.cat([t] * 2)
    y_in = torch.cat([y, torch.full_like(y, model.null)])
    eps_cond, eps_uncond = model(x_in, t_in, y_in).chunk(2)
    eps = eps_uncond + guidance_scale * (eps_cond - eps_uncond)
    a_t = alphas_cumprod[t].view(-1, 1, 1)
    a_prev = torch.where(t_prev >= 0, alphas_cumprod[t_prev.clamp(min=0)], torch.ones_like(t_prev, dtype=torch.float32)).view(-1, 1, 1)
    x0_pred = ((x - (1 - a_t).sqrt() * eps) / a_t.sqrt()).clamp(-1, 1)
    return a_prev.sqrt() * x0_pred + (1 - a_prev).sqrt() * eps, x0_pred


x = noise.clone()
steps = torch.linspace(T - 1, 0, 5).long()
print(steps, torch.linspace(T - 1, 0, 5))
for i, ts in enumerate(steps):
    tp = steps[i + 1] if i + 1 < len(steps) else torch.tensor(-1)
    x, x0_pred = ddim_step(ema, x, ts.repeat(2), tp.repeat(2), y)
print(x[0], x0_pred.abs().max(), x.requires_grad)

q = torch.arange(24.).view(1, 2, 3, 4) / 24
print(F.scaled_dot_product_attention(q, q, q, is_causal=True)[0, 1])
mask = torch.tensor([[True, False, True]])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=mask, scale=0.5)[0, 0, 0])
print(F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(3, 3).fill_diagonal_(float('-inf')))[0, 0, :, :2])
