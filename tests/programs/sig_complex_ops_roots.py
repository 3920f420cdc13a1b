# Complex arithmetic in signal code: roots of unity, complex powers and square roots (principal
# branch), z-plane pole/zero evaluation of a filter's transfer function, and gradients of
# losses of complex parameters (Wirtinger convention).
import math
import torch

k = torch.arange(6, dtype=torch.float64)
roots = torch.polar(torch.ones(6, dtype=torch.float64), 2 * math.pi * k / 6)
print("6th roots ** 6 ~ 1:", torch.allclose(roots ** 6, torch.ones(6, dtype=torch.cdouble)))
print("sum of roots ~ 0:", roots.sum().abs().item() < 1e-12)

z = torch.tensor([4 + 0j, -4 + 0j, 3 + 4j, -1 - 1j, 1j])
print("sqrt:", z.sqrt())
print("pow 0.5:", z ** 0.5)
print("pow -1:", z ** -1)
print("pow 1.5:", torch.pow(z, 1.5))
print("pow -2:", z.pow(-2))
print("rsqrt-ish:", 1 / z.sqrt())

zeros = torch.tensor([-1 + 0j, 0.5j, -0.5j])
poles = torch.tensor([0.8 + 0.1j, 0.8 - 0.1j, 0.3 + 0j])
w = torch.linspace(0, math.pi, 6)
ejw = torch.exp(1j * w)
num = (ejw.unsqueeze(1) - zeros).prod(dim=1)
den = (ejw.unsqueeze(1) - poles).prod(dim=1)
H = num / den
print("|H|:", H.abs())
print("angle:", H.angle().round(decimals=4))
print("dB at DC:", f"{(20 * torch.log10(H.abs()[0])).item():.3f}")

unit = torch.exp(2j * math.pi * torch.fft.fftfreq(8))
print("fft of roots of unity:", torch.fft.fft(unit).abs().round(decimals=4))

c = torch.tensor([1.0 + 1.0j, 0.5 - 2.0j], requires_grad=True)
loss = (c ** 2).abs().sum() + (c ** 0.5).real.sum() + (1 / c).imag.sum()
loss.backward()
print("loss:", f"{loss.item():.5f}")
print("grad:", c.grad)
p = torch.tensor([2.0, 3.0], requires_grad=True)
q = torch.complex(p, p * 0.5) ** 1.5
q.abs().sum().backward()
print("real grad via complex:", p.grad)
e = torch.tensor([0.5, 2.0], requires_grad=True)
r = (torch.tensor([1 + 1j, 2 - 1j]) ** e).real.sum()
r.backward()
print("exponent grad:", e.grad)
