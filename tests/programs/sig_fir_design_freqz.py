# FIR filter design by the window method (windowed sinc with hamming/blackman/kaiser windows)
# and its frequency response "freqz"-style: rfft with zero-padding, magnitude in dB, phase.
import math
import torch


def windowed_sinc(num_taps, cutoff, window):
    n = torch.arange(num_taps, dtype=torch.float64) - (num_taps - 1) / 2
    h = 2 * cutoff * torch.sinc(2 * cutoff * n)
    h = h * window
    return h / h.sum()


def freqz(h, n_points=256):
    H = torch.fft.rfft(h, n=2 * n_points)
    w = torch.fft.rfftfreq(2 * n_points, dtype=torch.float64)
    return w, H


taps = 31
windows = {
    "rect": torch.ones(taps, dtype=torch.float64),
    "hamming": torch.hamming_window(taps, periodic=False, dtype=torch.float64),
    "blackman": torch.blackman_window(taps, periodic=False, dtype=torch.float64),
    "kaiser": torch.kaiser_window(taps, periodic=False, beta=6.0, dtype=torch.float64),
    "hann": torch.hann_window(taps, periodic=False, dtype=torch.float64),
}
for name, win in windows.items():
    h = windowed_sinc(taps, 0.1, win)
    w, H = freqz(h)
    mag_db = 20 * torch.log10(H.abs().clamp_min(1e-12))
    stop = mag_db[w > 0.2].max().item()
    passband = mag_db[w < 0.05]
    print(f"{name:9s} stopband peak {stop:8.2f} dB, passband ripple {(passband.max() - passband.min()).item():.4f} dB")

h = windowed_sinc(taps, 0.1, windows["hamming"])
print("symmetric taps:", torch.allclose(h, h.flip(0)))
print("center taps:", h[13:18])
w, H = freqz(h, 8)
print(H)
phase = torch.angle(H)
print("phase:", phase)
print("linear phase slope:", f"{(phase[1] - phase[0]).item() / (2 * math.pi * (w[1] - w[0]).item()):.3f}")

print(torch.hann_window(8))
print(torch.hann_window(8, periodic=False))
print(torch.hamming_window(7, dtype=torch.float64))
print(torch.bartlett_window(6), torch.blackman_window(5, periodic=False))
print(torch.kaiser_window(5, True, 8.0))
print(torch.signal.windows.gaussian(7, std=1.0))
print(torch.signal.windows.hann(6), torch.signal.windows.nuttall(6, sym=False))

x = torch.sin(2 * math.pi * 0.03 * torch.arange(200, dtype=torch.float64)) + torch.sin(2 * math.pi * 0.3 * torch.arange(200, dtype=torch.float64))
y = torch.nn.functional.conv1d(x.view(1, 1, -1), h.flip(0).view(1, 1, -1), padding=taps // 2).view(-1)
Y = torch.fft.rfft(y * torch.hann_window(200, dtype=torch.float64))
f = torch.fft.rfftfreq(200, dtype=torch.float64)
print("remaining peak at:", f[Y.abs().argmax()].item())
print("attenuation at 0.3:", f"{(Y.abs()[60] / Y.abs()[6]).item():.5f}")
