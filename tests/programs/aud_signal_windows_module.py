# scipy-style window functions from torch.signal.windows (sym=True/False, gaussian, exponential,
# general_cosine, nuttall) used to taper frames before hand-rolled spectral features.
import torch
import torch.signal
w = torch.signal.windows
print(w.hann(6))
print(w.hann(6, sym=False))
print(w.hamming(6))
print(w.bartlett(6))
print(w.cosine(6))
print(w.gaussian(7, std=1.5))
print(w.exponential(7, tau=2.0))
print(w.kaiser(6, beta=4.0))
print(w.general_hamming(6, alpha=0.6))
print(w.general_cosine(6, a=[0.5, 0.3, 0.2]))
print(w.nuttall(6))

try:
    w.gaussian(5, std=-1.0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    w.hann(-2)
except ValueError as e:
    print(type(e).__name__, e)
print(w.hann(5, dtype=torch.float64).dtype, w.hann(0), w.hann(1))
