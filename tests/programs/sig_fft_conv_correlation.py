# FFT-based convolution and cross-correlation as written in signal-processing code: zero-pad to
# the full length with rfft(n=...), multiply spectra (conj for correlation), irfft; checked
# against F.conv1d, and used to estimate a delay between two signals.
import torch
import torch.nn.functional as F


def fft_conv1d(signal, kernel):
    n = signal.shape[-1] + kernel.shape[-1] - 1
    S = torch.fft.rfft(signal, n=n)
    K = torch.fft.rfft(kernel, n=n)
    return torch.fft.irfft(S * K, n=n)


def fft_xcorr(a, b):
    n = a.shape[-1] + b.shape[-1] - 1
    A = torch.fft.fft(a, n=n)
    B = torch.fft.fft(b, n=n)
    return torch.fft.ifft(A * B.conj()).real


x = torch.sin(torch.arange(64, dtype=torch.float32) * 0.3) + 0.1 * torch.arange(64) / 64
h = torch.tensor([0.25, 0.5, 0.25, -0.1, 0.05])
y = fft_conv1d(x, h)
print("fft conv:", y.shape)
direct = F.conv1d(x.view(1, 1, -1), h.flip(0).view(1, 1, -1), padding=h.numel() - 1).view(-1)
print("matches conv1d:", torch.allclose(y, direct, atol=1e-5))
print(y[1:6])

delay = 7
pulse = torch.exp(-0.5 * ((torch.arange(50, dtype=torch.float32) - 20) / 3) ** 2)
shifted = torch.roll(pulse, delay)
corr = fft_xcorr(shifted, pulse)
lag = corr.argmax().item()
n = corr.numel()
print("estimated delay:", lag if lag < n // 2 else lag - n)
print("peak corr:", round(corr.max().item(), 4))

batch = torch.stack([x, x.flip(0), x * 0.5])
kernels = torch.stack([h, h.flip(0), torch.ones(5) / 5])
yb = fft_conv1d(batch, kernels)
print("batched:", yb.shape, yb.dtype)
print("row sums:", yb.sum(dim=-1))

sig = torch.linspace(-1, 1, 32, requires_grad=True)
kern = torch.tensor([1.0, -2.0, 1.0], requires_grad=True)
out = fft_conv1d(sig, kern)
loss = (out ** 2).sum()
loss.backward()
print("loss:", f"{loss.item():.5f}")
print("kernel grad:", kern.grad)
print("signal grad[:2]:", sig.grad[:2], f"{sig.grad.norm().item():.3f}")
print("grad_fn:", out.grad_fn.name())

img = torch.arange(36, dtype=torch.float32).reshape(6, 6) / 36
k2 = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
s = (8, 8)
lap = torch.fft.irfft2(torch.fft.rfft2(img, s=s) * torch.fft.rfft2(k2, s=s), s=s)
print("2d fft conv:", lap.shape)
ref = F.conv2d(img.view(1, 1, 6, 6), k2.flip(0, 1).view(1, 1, 3, 3), padding=2).view(8, 8)
print("2d matches:", torch.allclose(lap, ref, atol=1e-5))
