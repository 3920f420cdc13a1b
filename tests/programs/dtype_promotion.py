# Type promotion that trips people up: int tensors meet floats, division, means, bools.
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0], dtype=torch.float64)
print((i + f).dtype, (i * 2).dtype, (i * 2.5).dtype, (i / 2).dtype, (i // 2), (i / i).dtype)
print((f + d).dtype, (i + d).dtype, (f * torch.tensor(2.0, dtype=torch.float64)).dtype)
print(torch.tensor([True, False]).sum(), (i > 1).dtype, (i > 1).float().mean())
print(i.float().mean(), torch.tensor([1, 2]).sum().dtype, i.to(torch.float16).sum().dtype)
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([1, 2]) ** 2, torch.tensor([2, 3]) ** 0.5, 2 ** torch.tensor([1, 2]))
print(torch.tensor([7, -7]) % 3, torch.tensor([7., -7.]) % 3, torch.tensor([7, -7]) // 2)
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="floor"),
      torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc"))
print(torch.arange(5).dtype, torch.arange(5.).dtype, torch.arange(0, 1, 0.25).dtype,
      torch.linspace(0, 1, 3).dtype, torch.tensor(3).dtype, torch.tensor(3.).dtype)
b = torch.tensor([1, 2], dtype=torch.uint8)
print((b + 1).dtype, (b + 1.0).dtype, (b + torch.tensor([1], dtype=torch.int32)).dtype)
x = torch.zeros(3)
x += torch.tensor([1, 2, 3])
print(x, x.dtype)
try:
    j = torch.zeros(3, dtype=torch.int64)
    j += torch.tensor([0.5, 0.5, 0.5])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([1, 2, 3]).float().dtype, torch.tensor(1).double().dtype)
