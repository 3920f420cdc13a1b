# Diffusion training-loop plumbing: schedules stored with register_buffer (float64 -> float32),
# extract() via .gather + reshape, EMA of weights with copy.deepcopy + lerp_ / _foreach ops and
# with torch.optim.swa_utils.AveragedModel(get_ema_multi_avg_fn), state_dict round trip through
# io.BytesIO, and a warmup LambdaLR.
import copy
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=40):
        super().__init__()
        self.model = model
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.05, timesteps, dtype=torch.float64)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        register = lambda name, val: self.register_buffer(name, val.to(torch.float32))
        register("betas", betas)
        register("alphas_cumprod", alphas_cumprod)
        register("sqrt_alphas_cumprod", torch.sqrt(alphas_cumprod))
        register("sqrt_one_minus_alphas_cumprod", torch.sqrt(1.0 - alphas_cumprod))
        snr = alphas_cumprod / (1 - alphas_cumprod)
        register("loss_weight", snr.clamp(max=5.0) / snr)  # min-SNR-5 for eps prediction

    @staticmethod
    def extract(a, t, x_shape):
        b = t.shape[0]
        return a.gather(-1, t).reshape(b, *((1,) * (len(x_shape) - 1)))

    def q_sample(self, x0, t, noise):
        return self.extract(self.sqrt_alphas_cumprod, t, x0.shape) * x0 + \
            self.extract(self.sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise

    def forward(self, x0, t, noise):
        x_t = self.q_sample(x0, t, noise)
        pred = self.model(x_t)
        loss = F.mse_loss(pred, noise, reduction="none").mean(dim=(1, 2, 3))
        return (loss * self.extract(self.loss_weight, t, loss.shape)).mean()


net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.SiLU(), nn.Conv2d(4, 1, 3, padding=1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape) * 0.3)
diffusion = GaussianDiffusion(net)
print([(k, v.dtype, tuple(v.shape)) for k, v in diffusion.state_dict().items() if not k.startswith("model")])
print(diffusion.loss_weight[[0, 5, 20, 39]])

ema = copy.deepcopy(net).requires_grad_(False)
swa_ema = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.Adam(diffusion.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 4))

x0 = torch.sin(torch.arange(4 * 25, dtype=torch.float32) * 0.4).reshape(4, 1, 5, 5)
for step in range(8):
    t = (torch.arange(4) * 9 + step * 3) % diffusion.num_timesteps
    noise = torch.cos(torch.arange(x0.numel(), dtype=torch.float32) * 1.9 + step).reshape(x0.shape)
    loss = diffusion(x0, t, noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    with torch.no_grad():
        for pe, p in zip(ema.parameters(), net.parameters()):
            pe.lerp_(p, 0.1)
    swa_ema.update_parameters(net)
    print(f"step {step} t={t.tolist()} loss {loss.item():.5f} lr {sched.get_last_lr()[0]:.4f}")

with torch.no_grad():
    ema_params = list(ema.parameters())
    torch._foreach_mul_(ema_params, 1.0)
    diffs = [(a - b).abs().max().item() for a, b in zip(ema.parameters(), swa_ema.module.parameters())]
print("ema vs swa", max(diffs) < 1e-6, swa_ema.n_averaged)
print([k for k in swa_ema.state_dict().keys()][:3])
print(ema[0].bias, ema[0].weight.requires_grad)

buf = io.BytesIO()
torch.save({"model": diffusion.state_dict(), "ema": ema.state_dict(), "step": 8}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
fresh = GaussianDiffusion(nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.SiLU(), nn.Conv2d(4, 1, 3, padding=1)))
print(fresh.load_state_dict(ckpt["model"]), ckpt["step"])
print(torch.equal(fresh.model[3].weight, net[3].weight), fresh.sqrt_alphas_cumprod.dtype)
