# Classic time-domain DSP in torch: pre-emphasis / de-emphasis filters, moving-average envelope via cumsum,
# RMS via avg_pool1d on squares, attack/release peak follower loop, and gain normalization.
import torch
import torch.nn.functional as F

n = torch.arange(80, dtype=torch.float32)
env_true = torch.cat([torch.linspace(0, 1, 20), torch.ones(30), torch.linspace(1, 0.1, 30)])
sig = env_true * torch.sin(n * 0.9)
print(sig.shape, sig[:6].round(decimals=4))

# pre-emphasis y[t] = x[t] - a x[t-1]
a = 0.97
pre = torch.cat([sig[:1], sig[1:] - a * sig[:-1]])
print("pre", pre[:6].round(decimals=4))
k = torch.tensor([[[-a, 1.0]]])
pre_conv = F.conv1d(F.pad(sig.view(1, 1, -1), (1, 0)), k).view(-1)
print(torch.allclose(pre, pre_conv, atol=1e-6), (pre - pre_conv).abs().max().item() < 1e-5)

# de-emphasis IIR in a loop restores the signal
de = torch.zeros_like(pre)
prev = torch.tensor(0.0)
for i in range(pre.shape[0]):
    prev = pre[i] + a * prev
    de[i] = prev
print("restored", torch.allclose(de, sig, atol=1e-4))

# moving average envelope with cumsum
win = 8
rect = sig.abs()
cs = torch.cumsum(F.pad(rect, (1, 0)), dim=0)
mov = (cs[win:] - cs[:-win]) / win
print("mov", mov.shape, mov[::10].round(decimals=4))
mov_pool = F.avg_pool1d(rect.view(1, 1, -1), win, stride=1).view(-1)
print(torch.allclose(mov, mov_pool, atol=1e-5))

# RMS per frame
rms = F.avg_pool1d(sig.pow(2).view(1, 1, -1), kernel_size=10, stride=10).sqrt().view(-1)
print("rms", rms.round(decimals=4))
db = 20 * torch.log10(rms.clamp_min(1e-5))
print("db", db.round(decimals=2))

# attack / release follower
att, rel = 0.5, 0.05
follow = []
e = torch.tensor(0.0)
for v in rect:
    coef = att if v > e else rel
    e = e + coef * (v - e)
    follow.append(e)
follow = torch.stack(follow)
print("follow", follow[::8].round(decimals=4))

# exponential moving average by cumsum in log space would overflow; use cumprod of decay instead
decay = torch.full((10,), 0.8)
weights = torch.cumprod(decay, 0)
print(weights.round(decimals=4), torch.cumsum(weights, 0)[-1].round(decimals=4))

# peak normalization and soft clipping
norm = sig / sig.abs().max()
print(norm.abs().max(), torch.tanh(2 * norm)[:5].round(decimals=4))

# gradient of a loudness loss wrt the gain
gain = torch.tensor(0.5, requires_grad=True)
loud = F.avg_pool1d((gain * sig).pow(2).view(1, 1, -1), 10).mean().sqrt()
target = torch.tensor(0.3)
(loud - target).pow(2).backward()
print(f"{loud.item():.4f}", f"{gain.grad.item():.4f}")
cs_g = torch.arange(6, dtype=torch.float32).requires_grad_()
torch.cumsum(cs_g, 0).sum().backward()
print(cs_g.grad, torch.cumsum(cs_g, 0).grad_fn.name())
