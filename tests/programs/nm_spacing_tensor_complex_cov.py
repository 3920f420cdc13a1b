# Common numerical idioms: grid spacing taken as a tensor (dx=x[1]-x[0]) for trapezoid and
# cumulative_trapezoid, covariance/correlation of complex (analytic) signals, triangle indices.
import math
import torch

x = torch.linspace(0, 1, 11)
y = x ** 2
dx = x[1] - x[0]
print("dx tensor:", dx)
print(f"trapezoid dx=tensor: {torch.trapezoid(y, dx=dx).item():.5f}")
print(f"trapz dx=tensor: {torch.trapz(y, dx=dx).item():.5f}")
print("cumulative:", torch.cumulative_trapezoid(y, dx=dx).round(decimals=4))
yi = torch.arange(5)
print("int samples:", torch.trapezoid(yi, dx=torch.tensor(0.5)))
try:
    torch.trapezoid(y, dx=x.diff())
except TypeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
h = torch.tensor(0.1, requires_grad=True)
try:
    torch.trapezoid(y, dx=h)
except TypeError as e:
    print("grad dx:", type(e).__name__, str(e).splitlines()[0])

# complex signals: phasors at a few frequencies
t = torch.arange(16, dtype=torch.float64) / 16
sig = torch.stack([torch.exp(2j * math.pi * t), torch.exp(2j * math.pi * (t + 0.25)),
                   torch.exp(4j * math.pi * t) + 0.5])
C = torch.cov(sig)
print("complex cov dtype:", C.dtype)
Cc = torch.where(C.abs() < 1e-9, torch.zeros_like(C), C)  # clean round-off before printing
print(Cc.real.round(decimals=4) + 0.0)
print(Cc.imag.round(decimals=4) + 0.0)
print("hermitian:", torch.allclose(C, C.conj().T))
R = torch.corrcoef(sig)
print("corrcoef diag:", R.diagonal().real.round(decimals=4))
print("|corr|:", R.abs().round(decimals=4))
Cw = torch.cov(sig, aweights=torch.linspace(1, 2, 16, dtype=torch.float64), correction=0)
print("weighted:", Cw.real.round(decimals=4)[0])
print("1-d complex:", torch.cov(torch.tensor([1 + 1j, 2, 3j])))

# triangle index helpers with dtypes
print(torch.tril_indices(3, 3, dtype=torch.int32))
for dt in (torch.float32, torch.int16):
    try:
        torch.triu_indices(3, 3, dtype=dt)
    except NotImplementedError as e:
        print(type(e).__name__, e)
