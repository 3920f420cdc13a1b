# MFCC-like features without torch.stft/FFT: a real DFT built from cos/sin matrices, a triangular mel
# filterbank matrix applied with matmul, log compression with clamp_min, and an orthonormal DCT-II.
import math
import torch

sr, n_fft, hop, n_mels, n_mfcc = 800, 32, 16, 6, 4
t = torch.arange(320, dtype=torch.float32) / sr
chirp = torch.sin(2 * math.pi * (50 * t + 300 * t * t))
frames = chirp.unfold(-1, n_fft, hop) * torch.hann_window(n_fft)
print("frames", frames.shape)

n_bins = n_fft // 2 + 1
k = torch.arange(n_bins, dtype=torch.float32).unsqueeze(1)
n = torch.arange(n_fft, dtype=torch.float32).unsqueeze(0)
cos_m = torch.cos(2 * math.pi * k * n / n_fft)
sin_m = -torch.sin(2 * math.pi * k * n / n_fft)
re = frames @ cos_m.T
im = frames @ sin_m.T
power = re.pow(2) + im.pow(2)
print("power", power.shape, power.argmax(dim=-1))

def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)

def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)

mel_pts = torch.linspace(hz_to_mel(torch.tensor(0.0)).item(), hz_to_mel(torch.tensor(sr / 2)).item(), n_mels + 2)
hz_pts = mel_to_hz(mel_pts)
fft_freqs = torch.linspace(0, sr / 2, n_bins)
print("hz", hz_pts.round(decimals=2))
lower = hz_pts[:-2].unsqueeze(1)
center = hz_pts[1:-1].unsqueeze(1)
upper = hz_pts[2:].unsqueeze(1)
up = (fft_freqs - lower) / (center - lower)
down = (upper - fft_freqs) / (upper - center)
fbank = torch.clamp(torch.minimum(up, down), min=0.0)
print("fbank", fbank.shape, fbank.sum(dim=1).round(decimals=3))
print((fbank > 0).sum(dim=1))

mel = torch.matmul(power, fbank.T)
log_mel = torch.log(mel.clamp_min(1e-6))
print("log_mel", log_mel.shape, log_mel.amax().round(decimals=2), log_mel.amin().round(decimals=2))

def dct_matrix(n_out, n_in):
    i = torch.arange(n_in, dtype=torch.float32)
    kk = torch.arange(n_out, dtype=torch.float32).unsqueeze(1)
    d = torch.cos(math.pi / n_in * (i + 0.5) * kk)
    d[0] *= 1.0 / math.sqrt(2.0)
    return d * math.sqrt(2.0 / n_in)

D = dct_matrix(n_mfcc, n_mels)
print("dct orthonormal", torch.allclose(D @ D.T, torch.eye(n_mfcc), atol=1e-5))
mfcc = log_mel @ D.T
print("mfcc", mfcc.shape)
print(mfcc.round(decimals=2))

# cepstral mean normalization and deltas via conv1d
cmn = mfcc - mfcc.mean(dim=0, keepdim=True)
print(cmn.mean(0).abs().max() < 1e-5)
kernel = torch.tensor([[[-1.0, 0.0, 1.0]]]) / 2
feat = cmn.T.unsqueeze(1)
delta = torch.nn.functional.conv1d(torch.nn.functional.pad(feat, (1, 1), mode="replicate"), kernel)
print("delta", delta.shape, delta.squeeze(1).round(decimals=2)[:, :5])

# amplitude_to_DB with top_db clamp
db = 10.0 * torch.log10(power.clamp_min(1e-10))
db = torch.maximum(db, db.amax() - 80.0)
print("db", db.shape, f"{db.max().item():.2f}", f"{db.min().item():.2f}")

# gradient flows back to the waveform through all of it
wave = chirp.clone().requires_grad_()
fr = wave.unfold(-1, n_fft, hop) * torch.hann_window(n_fft)
p = (fr @ cos_m.T) ** 2 + (fr @ sin_m.T) ** 2
feat = (p @ fbank.T).clamp_min(1e-6).log() @ D.T
feat.mean().backward()
print(wave.grad.shape, f"{wave.grad.abs().sum().item():.1f}", feat.grad_fn.name())
