# Complex tensors as a tutorial introduces them: construction, printing, parts, polar form,
# conjugates, dtype promotion, and autograd's convention for a real loss of complex numbers.
import math

import torch

z = torch.tensor([1 + 2j, -3.5 + 0.5j, 2j])
print(z, z.dtype)
print(z.real, z.imag)
print(z.abs(), z.angle())
print(z.conj(), z * z.conj())
print(torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([-1.0, 0.5])))
print(torch.view_as_real(torch.polar(torch.tensor([2.0, 1.0]), torch.tensor([0.0, math.pi / 2]))).round(decimals=4))
print(torch.view_as_real(z))
print(torch.view_as_complex(torch.tensor([[1.0, -1.0], [0.0, 2.0]])))
print(torch.exp(1j * torch.tensor([0.0, math.pi / 3])))
print((torch.ones(2, dtype=torch.float64) * 1j).dtype, (torch.arange(3) * (1 + 1j)).dtype)
print(torch.zeros(2, 2, dtype=torch.cdouble))

# the real part is a view
w = z.clone()
w.real.mul_(10)
w.imag[0] = -7
print(w)

# autograd: z.grad is dL/dx + i dL/dy for a real loss L
a = torch.tensor([3 + 4j, 1 - 1j], requires_grad=True)
loss = (a * a.conj()).real.sum() + a.abs().sum()
loss.backward()
print(loss, a.grad)
try:
    (a * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
for bad in (lambda: a.detach() < 1, lambda: a.detach().max(), lambda: torch.relu(a.detach())):
    try:
        bad()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)

# fitting a complex gain by gradient descent
x = torch.linspace(0, 1, 8) * (1 + 0.5j)
y = (0.5 - 1.5j) * x
gain = torch.zeros((), dtype=torch.cfloat, requires_grad=True)
for _ in range(200):
    loss = ((gain * x - y).abs() ** 2).mean()
    loss.backward()
    with torch.no_grad():
        gain -= 0.5 * gain.grad
        gain.grad = None
print(torch.view_as_real(gain.detach()).round(decimals=3), "converged" if loss.item() < 1e-6 else "not yet")
