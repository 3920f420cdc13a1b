# Audio-style spectrograms with torch.stft (a Hann window, hop length, power spectrum, dB scale)
# and reconstruction with torch.istft, as torchaudio-free preprocessing code does.
import math

import torch

sr = 800
t = torch.arange(0, 0.5, 1 / sr)
chirp = torch.sin(2 * math.pi * (50 + 200 * t) * t)
n_fft, hop = 64, 16
window = torch.hann_window(n_fft)
spec = torch.stft(chirp, n_fft=n_fft, hop_length=hop, window=window, return_complex=True)
print(spec.shape, spec.dtype)
power = spec.abs() ** 2
db = 10 * torch.log10(power.clamp_min(1e-10))
peak_bins = power.argmax(dim=0)
freqs = torch.fft.rfftfreq(n_fft, d=1 / sr)
print("peak frequency rises:", bool((freqs[peak_bins][-5:].mean() > freqs[peak_bins][:5].mean()).item()))
print("dB range", round(db.max().item(), 1) > 20)

back = torch.istft(spec, n_fft=n_fft, hop_length=hop, window=window, length=chirp.numel())
print("reconstruction error < 1e-5:", (back - chirp).abs().max().item() < 1e-5)

# a batch, no centring, two-sided and normalized
batch = torch.stack([chirp[:200], chirp[200:400].flip(0)])
spec2 = torch.stft(batch, 32, hop_length=8, window=torch.hamming_window(32), center=False,
                   onesided=False, normalized=True, return_complex=True)
print(spec2.shape)
print(torch.stft(chirp[:64], 16, window=torch.hann_window(16), return_complex=False).shape)

# gradients flow through the magnitude spectrogram
x = chirp[:200].clone().requires_grad_()
loss = torch.stft(x, 32, hop_length=8, window=torch.hann_window(32), return_complex=True).abs().mean()
loss.backward()
print(x.grad.shape, bool(torch.isfinite(x.grad).all()))
for bad in (lambda: torch.stft(chirp, 64), lambda: torch.stft(chirp, 64, window=torch.ones(10), return_complex=True)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:120])
