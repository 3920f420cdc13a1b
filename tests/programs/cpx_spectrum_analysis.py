# Spectral analysis of a sampled signal as in signal-processing tutorials: rfft, magnitudes,
# rfftfreq, the dominant frequencies, Parseval's theorem and a low-pass filter in frequency space.
import math

import torch

fs = 64.0
t = torch.arange(128) / fs
signal = torch.sin(2 * math.pi * 5 * t) + 0.5 * torch.sin(2 * math.pi * 12 * t) + 0.2 * torch.cos(2 * math.pi * 20 * t)

spectrum = torch.fft.rfft(signal)
freqs = torch.fft.rfftfreq(signal.numel(), d=1 / fs)
magnitude = spectrum.abs() / signal.numel() * 2
print(spectrum.dtype, spectrum.shape, freqs.shape)
print("first bins:", [round(f, 2) for f in freqs[:6].tolist()])
top = torch.topk(magnitude, 3)
for value, index in zip(top.values, top.indices):
    print(f"{freqs[index].item():5.1f} Hz  amplitude {value.item():.3f}")

# Parseval: energy in time equals energy in frequency (full spectrum)
full = torch.fft.fft(signal)
print("parseval", torch.allclose((signal ** 2).sum(), (full.abs() ** 2).sum() / signal.numel(), rtol=1e-4))

# low-pass: zero everything above 10 Hz and transform back
filtered_spectrum = torch.where(freqs <= 10, spectrum, torch.zeros_like(spectrum))
filtered = torch.fft.irfft(filtered_spectrum, n=signal.numel())
expected = torch.sin(2 * math.pi * 5 * t)
print("low-pass error", f"{(filtered - expected).abs().max().item():.2e}" if (filtered - expected).abs().max() > 1e-4 else "< 1e-4")
print(filtered[:5].round(decimals=3))

# the phase of the cosine component is 0, the sines' -pi/2
for f in (5, 12, 20):
    k = int(f * signal.numel() / fs)
    print(f, round(spectrum[k].angle().item(), 3))

# fftshift for plotting a two-sided spectrum
two_sided = torch.fft.fftshift(torch.fft.fftfreq(8, d=0.5))
print(two_sided)
print(torch.fft.ifftshift(two_sided))
