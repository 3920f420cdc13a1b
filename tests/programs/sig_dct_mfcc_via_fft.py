# MFCC-like cepstral coefficients: a DCT-II computed with the FFT (Makhoul's reordering trick,
# as in torch-dct), checked against the explicit DCT matrix, plus its inverse.
import math
import torch


def dct(x, norm=None):
    x_shape = x.shape
    N = x_shape[-1]
    x = x.contiguous().view(-1, N)
    v = torch.cat([x[:, ::2], x[:, 1::2].flip([1])], dim=1)
    Vc = torch.view_as_real(torch.fft.fft(v, dim=1))
    k = -torch.arange(N, dtype=x.dtype)[None, :] * math.pi / (2 * N)
    W_r = torch.cos(k)
    W_i = torch.sin(k)
    V = Vc[:, :, 0] * W_r - Vc[:, :, 1] * W_i
    if norm == "ortho":
        V[:, 0] /= math.sqrt(N) * 2
        V[:, 1:] /= math.sqrt(N / 2) * 2
    V = 2 * V.view(*x_shape)
    return V


def idct(X, norm=None):
    x_shape = X.shape
    N = x_shape[-1]
    X_v = X.contiguous().view(-1, x_shape[-1]) / 2
    if norm == "ortho":
        X_v[:, 0] *= math.sqrt(N) * 2
        X_v[:, 1:] *= math.sqrt(N / 2) * 2
    k = torch.arange(x_shape[-1], dtype=X.dtype)[None, :] * math.pi / (2 * N)
    W_r = torch.cos(k)
    W_i = torch.sin(k)
    V_t_r = X_v
    V_t_i = torch.cat([X_v[:, :1] * 0, -X_v.flip([1])[:, :-1]], dim=1)
    V_r = V_t_r * W_r - V_t_i * W_i
    V_i = V_t_r * W_i + V_t_i * W_r
    V = torch.cat([V_r.unsqueeze(2), V_i.unsqueeze(2)], dim=2)
    v = torch.fft.irfft(torch.view_as_complex(V), n=V.shape[1], dim=1)
    x = v.new_zeros(v.shape)
    x[:, ::2] += v[:, :N - (N // 2)]
    x[:, 1::2] += v.flip([1])[:, :N // 2]
    return x.view(*x_shape)


def dct_matrix(N):
    n = torch.arange(N, dtype=torch.float64)
    k = n.unsqueeze(1)
    basis = torch.cos(math.pi / N * (n + 0.5) * k)
    basis[0] *= 1 / math.sqrt(2)
    return basis * math.sqrt(2.0 / N)


log_mel = torch.log(torch.arange(1, 41, dtype=torch.float64).reshape(2, 20) * 0.37 + 1.0)
mfcc = dct(log_mel, norm="ortho")
print("mfcc shape:", mfcc.shape)
print("first coefficients:", mfcc[:, :5])
ref = log_mel @ dct_matrix(20).T
print("matches matrix DCT:", torch.allclose(mfcc, ref))
print("max diff < 1e-10:", (mfcc - ref).abs().max().item() < 1e-10)
back = idct(mfcc, norm="ortho")
print("idct roundtrip:", torch.allclose(back, log_mel))
x32 = torch.linspace(-1, 1, 12).reshape(3, 4)
d32 = dct(x32)
print(d32)
print(idct(d32))
lifter = 1 + 11 * torch.sin(math.pi * torch.arange(13, dtype=torch.float64) / 22)
cep = dct(torch.cos(torch.arange(26, dtype=torch.float64) * 0.3), norm="ortho")[:13] * lifter
print("liftered:", cep.round(decimals=4))
x = torch.linspace(0, 1, 8, dtype=torch.float64, requires_grad=True)
y = dct(x, norm="ortho")
(y * torch.arange(8, dtype=torch.float64)).sum().backward()
print("grad:", x.grad)
