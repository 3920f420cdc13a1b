# Hand-built log-mel spectrogram as in many audio tutorials: torch.stft with a hann window,
# power spectrum, a triangular mel filterbank built from hz<->mel formulas, matmul, log10/dB.
import math
import torch

sample_rate = 8000
n_fft = 256
hop = 64
n_mels = 16

t = torch.arange(4000, dtype=torch.float32) / sample_rate
wave = 0.6 * torch.sin(2 * math.pi * 440.0 * t) + 0.3 * torch.sin(2 * math.pi * 1250.0 * t * (1 + t))


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_freqs, f_min, f_max, n_mels, sr):
    all_freqs = torch.linspace(0, sr // 2, n_freqs)
    m_min = hz_to_mel(torch.tensor(f_min))
    m_max = hz_to_mel(torch.tensor(f_max))
    m_pts = torch.linspace(m_min, m_max, n_mels + 2)
    f_pts = mel_to_hz(m_pts)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down = (-1.0 * slopes[:, :-2]) / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    fb = torch.max(torch.zeros(1), torch.min(down, up))
    return fb


window = torch.hann_window(n_fft)
spec = torch.stft(wave, n_fft=n_fft, hop_length=hop, window=window, center=True,
                  pad_mode="reflect", return_complex=True)
print("stft:", spec.shape, spec.dtype)
power = spec.abs() ** 2
print("power:", power.shape, f"{power.sum().item():.2f}")
fb = mel_filterbank(n_fft // 2 + 1, 0.0, sample_rate / 2, n_mels, sample_rate)
print("filterbank:", fb.shape, f"{fb.sum().item():.3f}")
print("fb col maxima:", fb.max(dim=0).values[:6])
mel = torch.matmul(power.transpose(-1, -2), fb).transpose(-1, -2)
print("mel:", mel.shape)
log_mel = torch.log10(torch.clamp(mel, min=1e-10))
db = 10.0 * log_mel
db = torch.max(db, db.max() - 80.0)
print("db range:", f"{db.min().item():.2f}", f"{db.max().item():.2f}")
print("mean per band:", db.mean(dim=1).round(decimals=1))
peak_bins = power.argmax(dim=0)
print("peak bins (first frames):", peak_bins[:8])
freqs = torch.fft.rfftfreq(n_fft, d=1.0 / sample_rate)
print("peak freq frame 3:", freqs[peak_bins[3]].item())
norm_mel = (db - db.mean()) / db.std()
print("normalized stats:", f"{norm_mel.mean().item():.4f}", f"{norm_mel.std().item():.4f}")
batch = torch.stack([wave, wave.flip(0)])
bspec = torch.stft(batch, n_fft, hop_length=hop, window=window, return_complex=True)
print("batched:", bspec.shape, torch.allclose(bspec[0], spec))
