# Griffin-Lim phase retrieval from a magnitude spectrogram (the torchaudio recipe by hand):
# alternate istft and stft, keep the phase, with momentum; deterministic zero-phase start.
import math
import torch

n_fft, hop = 64, 16
window = torch.hann_window(n_fft)
t = torch.arange(1024, dtype=torch.float32) / 1000
x = torch.sin(2 * math.pi * 60 * t) + 0.4 * torch.sin(2 * math.pi * 170 * t + 1.0)
spec = torch.stft(x, n_fft, hop, window=window, return_complex=True)
target = spec.abs()
print("magnitude:", target.shape)

momentum = 0.99
angles = torch.ones_like(spec)
tprev = torch.tensor(0.0, dtype=spec.dtype)
for i in range(16):
    inverse = torch.istft(target * angles, n_fft=n_fft, hop_length=hop, window=window, length=x.numel())
    rebuilt = torch.stft(inverse, n_fft=n_fft, hop_length=hop, window=window, return_complex=True)
    angles = rebuilt - tprev.mul_(momentum / (1 + momentum))
    angles = angles.div(angles.abs().add(1e-16))
    tprev = rebuilt
    if i % 5 == 0:
        err = (rebuilt.abs() - target).norm() / target.norm()
        print(f"iter {i}: spectral convergence {err.item():.3f}")
final = torch.istft(target * angles, n_fft, hop, window=window, length=x.numel())
print("final:", final.shape, final.dtype)
print("energy ratio:", round((final.norm() / x.norm()).item(), 2))
print("angles unit:", torch.allclose(angles.abs(), torch.ones(angles.shape), atol=1e-4))
print(angles.dtype, tprev.dtype, tprev.shape)
