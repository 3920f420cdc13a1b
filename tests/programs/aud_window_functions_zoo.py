# Comparing the window functions a DSP user reaches for (hann, hamming, blackman, bartlett, kaiser,
# torch.signal.windows) and checking their properties: symmetry, coherent gain, dtype handling.
import torch

N = 9
for name in ["hann_window", "hamming_window", "blackman_window", "bartlett_window"]:
    fn = getattr(torch, name)
    w_sym = fn(N, periodic=False)
    w_per = fn(N)
    print(name, w_sym.dtype, w_sym.shape)
    print("  sym", w_sym)
    print("  per", w_per)
    print("  symmetric:", torch.allclose(w_sym, w_sym.flip(0)), "gain", f"{w_sym.mean().item():.4f}")

print(torch.kaiser_window(8))
print(torch.kaiser_window(8, periodic=False, beta=5.0))
print(torch.kaiser_window(7, False, 8.6, dtype=torch.float64))

print(torch.hann_window(4, dtype=torch.float64), torch.hann_window(4, dtype=torch.float16))
print(torch.blackman_window(1), torch.bartlett_window(1), torch.kaiser_window(1))
print(torch.bartlett_window(2), torch.bartlett_window(2, periodic=False))
print(torch.hann_window(4, requires_grad=True))

try:
    torch.hann_window(4, dtype=torch.int64)
except RuntimeError as e:
    print(type(e).__name__, e)

# apply window via broadcasting to a batch of frames
frames = torch.linspace(-1, 1, 3 * N).reshape(3, N)
print((frames * torch.hamming_window(N, periodic=False)).round(decimals=4))
