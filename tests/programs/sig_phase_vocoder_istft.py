# Phase-vocoder style manipulation: stft, split into magnitude and phase with abs/angle,
# modify, rebuild with torch.polar, reconstruct with istft; perfect-reconstruction checks.
import math
import torch

n_fft = 128
hop = 32
win = torch.hann_window(n_fft)
t = torch.arange(2048, dtype=torch.float32) / 4000.0
x = torch.sin(2 * math.pi * 300 * t) * torch.linspace(1.0, 0.2, 2048) + 0.2 * torch.sin(2 * math.pi * 900 * t)

X = torch.stft(x, n_fft, hop_length=hop, window=win, return_complex=True)
print("X:", X.shape, X.dtype)
mag, phase = X.abs(), X.angle()
print("mag/phase dtypes:", mag.dtype, phase.dtype)
rebuilt = torch.polar(mag, phase)
print("polar roundtrip:", torch.allclose(rebuilt, X, atol=1e-4))
y = torch.istft(X, n_fft, hop_length=hop, window=win, length=x.numel())
print("istft:", y.shape, "max err < 1e-4:", (y - x).abs().max().item() < 1e-4)

# time-stretch by 1.5 with phase accumulation
rate = 1.5
steps = torch.arange(0, X.shape[-1] - 1, rate)
phase_advance = torch.linspace(0, math.pi * hop, X.shape[0]).unsqueeze(1)
alphas = steps.frac()
idx = steps.long()
m0 = mag[:, idx]
m1 = mag[:, idx + 1]
interp_mag = (1 - alphas) * m0 + alphas * m1
dphi = phase[:, idx + 1] - phase[:, idx] - phase_advance
dphi = dphi - 2 * math.pi * torch.round(dphi / (2 * math.pi))
acc = torch.cumsum(dphi + phase_advance, dim=1)
acc = torch.cat([phase[:, :1], phase[:, :1] + acc[:, :-1]], dim=1)
stretched = torch.polar(interp_mag, acc)
print("stretched:", stretched.shape)
z = torch.istft(stretched, n_fft, hop_length=hop, window=win)
print("stretched signal:", z.shape, f"{z.abs().max().item():.3f}")

# pitch-ish: zero the phase, random-free "robotization"
robot = torch.istft(mag.to(torch.cfloat), n_fft, hop_length=hop, window=win, length=x.numel())
print("robot energy:", f"{(robot ** 2).sum().item():.2f}")

# complex-valued stft printing and attributes
small = torch.stft(torch.arange(16, dtype=torch.float32), 8, hop_length=4,
                   window=torch.hann_window(8), return_complex=True)
print(small[:3, :3])
print(small.real.shape, small.imag.stride(), small.is_complex())
print(torch.view_as_real(small).shape)

# not onesided, normalized
full = torch.stft(x[:512], 64, hop_length=16, window=torch.hamming_window(64), onesided=False,
                  normalized=True, return_complex=True)
print("full:", full.shape)
back = torch.istft(full, 64, hop_length=16, window=torch.hamming_window(64), onesided=False,
                   normalized=True, length=512)
print("full roundtrip:", torch.allclose(back, x[:512], atol=1e-5))

# gradients through stft magnitude
sig = x[:256].clone().requires_grad_(True)
S = torch.stft(sig, 64, hop_length=16, window=torch.hann_window(64), return_complex=True)
loss = S.abs().pow(2).mean()
loss.backward()
print("loss:", f"{loss.item():.4f}", "grad norm:", f"{sig.grad.norm().item():.4f}")
