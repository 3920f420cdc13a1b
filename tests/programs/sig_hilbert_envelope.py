# The analytic signal via the FFT (scipy.signal.hilbert recipe in torch): zero negative
# frequencies, double positive ones, ifft; envelope with abs and instantaneous frequency from the
# unwrapped angle.
import math
import torch


def hilbert(x, dim=-1):
    n = x.shape[dim]
    Xf = torch.fft.fft(x, dim=dim)
    h = torch.zeros(n, dtype=x.dtype)
    if n % 2 == 0:
        h[0] = h[n // 2] = 1
        h[1:n // 2] = 2
    else:
        h[0] = 1
        h[1:(n + 1) // 2] = 2
    return torch.fft.ifft(Xf * h, dim=dim)


def unwrap(p):
    d = torch.diff(p)
    d = d - 2 * math.pi * torch.round(d / (2 * math.pi))
    return torch.cat([p[:1], p[:1] + torch.cumsum(d, 0)])


fs = 200.0
t = torch.arange(400, dtype=torch.float64) / fs
env = 1 + 0.5 * torch.cos(2 * math.pi * 1.5 * t)
x = env * torch.cos(2 * math.pi * 20 * t)
z = hilbert(x)
print("analytic:", z.dtype, z.shape)
print("real part equals x:", torch.allclose(z.real, x))
amp = z.abs()
print("envelope error mid:", f"{(amp[50:350] - env[50:350]).abs().max().item():.4f}")
phase = unwrap(torch.angle(z))
inst_f = torch.diff(phase) / (2 * math.pi) * fs
print("inst freq mean:", f"{inst_f[50:350].mean().item():.3f}")
odd = hilbert(torch.cos(torch.arange(7, dtype=torch.float32)))
print(odd)
print(torch.angle(torch.tensor([-1.0, 1.0, 0.0])), torch.angle(torch.tensor([1j, -1 - 1j, 0j])))
X = torch.stack([x, x * 0.5])
Z = hilbert(X, dim=1)
print("batched:", Z.shape, torch.allclose(Z[1], 0.5 * z))
x_req = x[:32].clone().requires_grad_(True)
loss = hilbert(x_req).abs().sum()
loss.backward()
print("grad finite:", torch.isfinite(x_req.grad).all().item(), f"{x_req.grad.abs().sum().item():.4f}")
