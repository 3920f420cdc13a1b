# Framing a waveform into overlapping frames with Tensor.unfold, applying hann/hamming windows,
# and computing per-frame energy / zero-crossing rate as in hand-rolled feature extractors.
import torch

sr = 16
t = torch.arange(64, dtype=torch.float32) / sr
wave = torch.sin(2 * torch.pi * 2.0 * t) + 0.3 * torch.cos(2 * torch.pi * 5.0 * t)
print(wave.shape, wave.dtype)

frame_len, hop = 8, 4
frames = wave.unfold(0, frame_len, hop)
print(frames.shape, frames.stride(), frames.is_contiguous())
print(frames[:3].round(decimals=4))

for periodic in (True, False):
    w = torch.hann_window(frame_len, periodic=periodic)
    print("hann", periodic, w)
    h = torch.hamming_window(frame_len, periodic=periodic)
    print("hamming", periodic, h)
print(torch.hamming_window(6, periodic=False, alpha=0.5, beta=0.5))
print(torch.hann_window(1), torch.hann_window(0), torch.hamming_window(1))
print(torch.hann_window(5, dtype=torch.float64))

win = torch.hann_window(frame_len)
windowed = frames * win
print(windowed.shape, windowed.sum(dim=-1).round(decimals=4))

energy = windowed.pow(2).sum(-1)
log_energy = energy.clamp_min(1e-10).log10() * 10
print("energy", log_energy.round(decimals=3))

signs = torch.sign(frames)
zcr = (signs[:, 1:] != signs[:, :-1]).float().mean(-1)
print("zcr", zcr)

# batched framing: (batch, time) -> (batch, n_frames, frame_len)
batch = torch.stack([wave, wave.flip(0), wave * 0.5])
bf = batch.unfold(-1, frame_len, hop)
print(bf.shape, bf.stride())
# pad at both ends like center=True
padded = torch.nn.functional.pad(batch.unsqueeze(1), (frame_len // 2, frame_len // 2), mode="reflect").squeeze(1)
print(padded.shape, padded[0, :6])
cf = padded.unfold(1, frame_len, hop)
print(cf.shape)

# gradient through unfold + window
x = wave.clone().requires_grad_(True)
fr = x.unfold(0, frame_len, hop) * win
loss = fr.pow(2).sum()
loss.backward()
print(loss.grad_fn, f"{loss.item():.4f}")
print(x.grad[:12])
print(x.grad.shape)

# overlap-add back with the window squared sum
ola = torch.zeros(64)
wsum = torch.zeros(64)
for i in range(frames.shape[0]):
    ola[i * hop:i * hop + frame_len] += windowed[i] * win
    wsum[i * hop:i * hop + frame_len] += win ** 2
recon = ola / wsum.clamp_min(1e-8)
print(torch.allclose(recon[4:-4], wave[4:-4], atol=1e-5))
print(wsum[:10])

try:
    wave.unfold(0, 100, 4)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    wave.unfold(0, 8, 0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.hann_window(-1)
except RuntimeError as e:
    print(type(e).__name__, e)
