# Filtering in frequency space: an ideal low-pass mask on rfft bins, a Gaussian smoothing
# transfer function, and a Wiener filter from known signal/noise power, evaluated by SNR.
import math
import torch

fs = 1000.0
N = 512
t = torch.arange(N, dtype=torch.float64) / fs
clean = torch.sin(2 * math.pi * 5 * t) + 0.5 * torch.sin(2 * math.pi * 12 * t)
noise = 0.3 * torch.sin(2 * math.pi * 180 * t + 0.4) + 0.2 * torch.cos(2 * math.pi * 310 * t)
noisy = clean + noise


def snr_db(ref, est):
    return 10 * torch.log10((ref ** 2).sum() / ((ref - est) ** 2).sum())


print("input SNR:", f"{snr_db(clean, noisy).item():.3f}")

spectrum = torch.fft.rfft(noisy)
freqs = torch.fft.rfftfreq(N, d=1 / fs)
print("bins:", spectrum.shape, "df:", f"{freqs[1].item():.4f}")
mask = (freqs < 50).to(spectrum.dtype)
lowpassed = torch.fft.irfft(spectrum * mask, n=N)
print("ideal low-pass SNR:", f"{snr_db(clean, lowpassed).item():.3f}")

sigma = 20.0
gauss = torch.exp(-0.5 * (freqs / sigma) ** 2)
smoothed = torch.fft.irfft(spectrum * gauss, n=N)
print("gaussian SNR:", f"{snr_db(clean, smoothed).item():.3f}")

S = torch.fft.rfft(clean).abs() ** 2
Nn = torch.fft.rfft(noise).abs() ** 2
H = S / (S + Nn + 1e-12)
wiener = torch.fft.irfft(H * spectrum, n=N)
print("wiener SNR:", f"{snr_db(clean, wiener).item():.3f}")
print("H at signal bins:", H[[2, 3, 6]].round(decimals=3))

mag = spectrum.abs()
top = torch.topk(mag, 4)
print("top bins:", top.indices.tolist())
print("top freqs:", freqs[top.indices].round(decimals=2).tolist())
print("phase at 5 Hz bin:", f"{torch.angle(spectrum[top.indices[0]]).item():.4f}")

ortho = torch.fft.rfft(noisy, norm="ortho")
print("parseval ortho:", f"{(noisy ** 2).sum().item():.4f}",
      f"{(2 * (ortho.abs() ** 2).sum() - ortho[0].abs() ** 2 - ortho[-1].abs() ** 2).item():.4f}")

x2 = torch.outer(torch.hann_window(16, dtype=torch.float64), torch.hamming_window(16, periodic=False, dtype=torch.float64))
F2 = torch.fft.fftshift(torch.fft.fft2(x2))
print("2d centered peak at:", divmod(F2.abs().argmax().item(), 16))
hp = torch.fft.ifft2(torch.fft.ifftshift(F2 * (1 - torch.exp(-torch.arange(16.0, dtype=torch.float64).sub(8).pow(2) / 8)).unsqueeze(0))).real
print("high-passed mean:", f"{hp.mean().item():.6f}")

cutoff = torch.tensor(30.0, dtype=torch.float64, requires_grad=True)
soft = torch.sigmoid((cutoff - freqs) / 2.0)
est = torch.fft.irfft(spectrum * soft, n=N)
loss = ((est - clean) ** 2).mean()
loss.backward()
print("loss:", f"{loss.item():.6f}", "dloss/dcutoff:", f"{cutoff.grad.item():.6f}")
