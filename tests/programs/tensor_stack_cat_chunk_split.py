# Joining and splitting: stack, cat, chunk, split, unbind, and their gradients.
import torch

a = torch.arange(6.).view(2, 3)
b = torch.arange(6., 12.).view(2, 3)
print(torch.cat([a, b]), torch.cat((a, b), dim=1).shape, torch.cat([a, b], -1).shape)
print(torch.stack([a, b]).shape, torch.stack([a, b], dim=1).shape, torch.stack([a, b], dim=-1).shape)
print(torch.hstack([a, b]).shape, torch.vstack([a, b]).shape)

x = torch.arange(10)
print(x.chunk(3), torch.chunk(x, 4))
print(x.split(4), torch.split(x, [2, 3, 5]))
print(torch.arange(12).view(3, 4).split(2, dim=1))
print(a.unbind(1))

w = torch.arange(6., requires_grad=True)
parts = w.split(2)
total = parts[0].sum() * 1 + parts[1].sum() * 2 + parts[2].sum() * 3
total.backward()
print(w.grad, parts[1].grad_fn.name())

p = torch.ones(2, 2, requires_grad=True)
q = torch.zeros(2, 2, requires_grad=True)
s = torch.stack([p, q * 2], dim=0)
c = torch.cat([p, q], dim=1)
(s.sum() + (c * torch.arange(4.)).sum()).backward()
print(p.grad, q.grad, s.grad_fn.name(), c.grad_fn.name())
print(torch.cat([torch.tensor([1, 2]), torch.tensor([3.5])]))
try:
    torch.cat([a, torch.zeros(3, 2)])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.stack([a, torch.zeros(3, 2)])
except RuntimeError as e:
    print("RuntimeError:", e)
