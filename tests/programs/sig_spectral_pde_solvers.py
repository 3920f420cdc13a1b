# Spectral PDE solvers as in numerical-methods notebooks: heat equation stepped exactly in
# Fourier space with fftfreq wavenumbers, Poisson equation in 2-d, spectral derivative.
import math
import torch

torch.set_default_dtype(torch.float64)

L = 2 * math.pi
N = 64
x = torch.arange(N) * (L / N)
k = 2 * math.pi * torch.fft.fftfreq(N, d=L / N)
print("wavenumbers:", k[:5], k[-3:])

u0 = torch.exp(torch.sin(x))
du_spec = torch.fft.ifft(1j * k * torch.fft.fft(u0)).real
du_exact = torch.cos(x) * torch.exp(torch.sin(x))
print("spectral derivative err:", f"{(du_spec - du_exact).abs().max().item():.2e}" if False else (du_spec - du_exact).abs().max().item() < 1e-10)

nu = 0.1
u_hat = torch.fft.fft(u0)
for step, T in enumerate([0.1, 0.5, 1.0, 2.0]):
    uT = torch.fft.ifft(u_hat * torch.exp(-nu * k ** 2 * T)).real
    print(f"t={T}: max={uT.max().item():.6f} mean={uT.mean().item():.6f}")

u = u0.clone()
dt = 0.01
for _ in range(100):
    uh = torch.fft.rfft(u)
    kr = 2 * math.pi * torch.fft.rfftfreq(N, d=L / N)
    u = torch.fft.irfft(uh / (1 + nu * dt * kr ** 2), n=N)
print("implicit euler t=1:", f"{u.max().item():.6f}")

n = 32
xs = torch.arange(n) * (L / n)
X, Y = torch.meshgrid(xs, xs, indexing="ij")
f = torch.sin(X) * torch.cos(2 * Y)
kx = 2 * math.pi * torch.fft.fftfreq(n, d=L / n)
KX, KY = torch.meshgrid(kx, kx, indexing="ij")
K2 = KX ** 2 + KY ** 2
K2[0, 0] = 1.0
f_hat = torch.fft.fft2(f)
phi_hat = -f_hat / K2
phi_hat[0, 0] = 0
phi = torch.fft.ifft2(phi_hat).real
exact = -f / 5.0
print("poisson err small:", (phi - exact).abs().max().item() < 1e-12)
print("phi corner:", phi[1:3, :3])

lap = torch.fft.irfftn(-(KX[:, : n // 2 + 1] ** 2 + KY[:, : n // 2 + 1] ** 2) * torch.fft.rfftn(f), s=f.shape)
print("laplacian check:", torch.allclose(lap, -5 * f))

c = torch.fft.fftshift(torch.fft.fftfreq(8))
print("shifted freqs:", c)
print("ifftshift back:", torch.fft.ifftshift(c))
print("rfftfreq:", torch.fft.rfftfreq(9, d=0.5))
print(torch.fft.fftfreq(5, dtype=torch.float32))

a = torch.linspace(0, 1, 16, requires_grad=True)
energy = torch.fft.rfft(a).abs().pow(2).sum()
energy.backward()
print("energy:", f"{energy.item():.6f}")
print("grad:", a.grad[:6])
