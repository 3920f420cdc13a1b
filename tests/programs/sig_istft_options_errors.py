# stft/istft options users combine (center, win_length < n_fft, onesided, return_complex,
# length) and the errors they hit when arguments do not fit, caught and printed.
import math
import warnings
import torch

x = torch.sin(torch.arange(96, dtype=torch.float32) * 0.37) + 0.1 * torch.arange(96) / 96
win = torch.hann_window(16)
S = torch.stft(x, 16, hop_length=4, window=win, return_complex=True)
print("onesided:", S.shape)
print("roundtrip:", torch.allclose(torch.istft(S, 16, hop_length=4, window=win, length=96), x, atol=1e-5))

short = torch.hann_window(12)
S12 = torch.stft(x, 16, hop_length=4, win_length=12, window=short, return_complex=True)
y12 = torch.istft(S12, 16, hop_length=4, win_length=12, window=short, length=96)
print("win_length 12:", S12.shape, torch.allclose(y12, x, atol=1e-5))

Sf = torch.stft(x, 16, hop_length=4, window=win, onesided=False, return_complex=True)
print("twosided:", Sf.shape)
yc = torch.istft(Sf, 16, hop_length=4, window=win, onesided=False, return_complex=True)
print("complex out:", yc.dtype, yc.shape, torch.allclose(yc.real, x[:yc.shape[0]], atol=1e-5))
edited = Sf * torch.linspace(1.0, 0.0, 16).unsqueeze(1)
print("real from twosided:", torch.istft(edited, 16, hop_length=4, window=win, onesided=False)[:4])

Sn = torch.stft(x, 16, hop_length=8, window=win, center=False, return_complex=True)
print("no center:", Sn.shape)
yn = torch.istft(Sn, 16, hop_length=8, window=torch.hann_window(16) ** 0.5 * 0 + 1, center=False)
print("rect inverse:", yn.shape)

bad = [
    lambda: torch.istft(S, 16, hop_length=4, window=win, return_complex=True),
    lambda: torch.istft(S, 16, hop_length=4, window=torch.hann_window(8)),
    lambda: torch.istft(S, 16, hop_length=20, window=win),
    lambda: torch.istft(S, 15, hop_length=4, window=torch.hann_window(15)),
    lambda: torch.istft(S.real, 16, hop_length=4, window=win),
    lambda: torch.istft(S.unsqueeze(0).unsqueeze(0), 16, hop_length=4, window=win),
    lambda: torch.istft(S[:0], 16, hop_length=4, window=win),
    lambda: torch.istft(Sf, 16, hop_length=4, window=win.to(torch.cfloat)),
    lambda: torch.stft(x, 16, hop_length=4, window=win),
    lambda: torch.stft(x, 200, window=torch.hann_window(200), return_complex=True),
    lambda: torch.stft(x.to(torch.cfloat), 16, window=win, onesided=True, return_complex=True),
    lambda: torch.stft(x.to(torch.cfloat), 16, window=torch.ones(4), return_complex=True),
    lambda: torch.hann_window(8, dtype=torch.cfloat),
    lambda: torch.fft.rfft(S),
]
for i, f in enumerate(bad):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = f()
        print(i, "ok", tuple(out.shape))
    except Exception as e:
        print(i, type(e).__name__, e)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    padded = torch.istft(S, 16, hop_length=4, window=win, length=110)
print("padded:", padded.shape, padded[-3:], len(caught) > 0)
