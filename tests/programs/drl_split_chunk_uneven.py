# Interview drill: "split a tensor of 10 rows into 3 parts" -- split vs tensor_split vs chunk
# (np.array_split), with narrow/select/unbind, movedim/moveaxis/swapaxes and their errors.
import torch

t = torch.arange(10)
print(torch.split(t, 3), torch.split(t, [2, 3, 5]), t.split(4))
print(torch.tensor_split(t, 3), torch.tensor_split(t, 4), torch.tensor_split(t, 12))
print(torch.tensor_split(t, [2, 5]), torch.tensor_split(t, (1, 1, 20)), torch.tensor_split(t, torch.tensor([3, 6])))
print(torch.tensor_split(t, torch.tensor(5)), t.tensor_split([8, 3]))
print(torch.chunk(t, 3), torch.chunk(t, 4), t.chunk(6), len(t.chunk(20)), torch.chunk(torch.arange(5), 4))
m = torch.arange(12).view(3, 4)
print(torch.tensor_split(m, 3, dim=1), m.split([1, 3], dim=1), m.chunk(2, dim=0))
print(torch.hsplit(m, 2), torch.vsplit(m, [1]), torch.split(torch.arange(0), 2))
print([p.is_contiguous() for p in m.chunk(2, 1)], [p.stride() for p in m.tensor_split(2, dim=1)])

print(m.narrow(1, 1, 2), m.narrow(-1, 3, 1), torch.narrow(m, 0, torch.tensor(1), 2))
print(m.select(0, 1), m.select(1, -1), torch.select(m, 1, 0).shape, m[:, 2] is m.select(1, 2))
print(m.unbind(), torch.unbind(m, dim=1), type(m.unbind()).__name__)
b = torch.arange(24).view(2, 3, 4)
print(b.movedim(0, -1).shape, torch.movedim(b, (0, 1), (2, 0)).shape, torch.moveaxis(b, -1, 0).shape)
print(b.swapaxes(0, 2).shape, torch.swapdims(b, 1, 2).shape, b.movedim(1, 1).data_ptr() == b.data_ptr())
print(torch.movedim(b, (0, 2), (1, 0))[1, 0], b.moveaxis([0, 1, 2], [2, 1, 0]).stride())

w = torch.arange(10., requires_grad=True)
parts = w.tensor_split(3)
(parts[0].sum() * 1 + parts[1].sum() * 10 + parts[2].sum() * 100).backward()
print([p.grad_fn.name() for p in parts], w.grad)
w.grad = None
sp = w.split([3, 7])
(sp[1] ** 2).sum().backward()
print([p.grad_fn.name() for p in sp], w.grad)
w.grad = None
rows = w.view(2, 5).unbind(0)
(rows[0] * rows[1]).sum().backward()
print(rows[0].grad_fn.name(), w.grad)
w.grad = None
mv = w.view(2, 5).movedim(0, 1)
(mv * torch.tensor([1., 2.])).sum().backward()
print(mv.grad_fn.name(), w.grad)
w.grad = None
sel = w.view(5, 2).select(1, 0)
sel.sum().backward()
print(sel.grad_fn.name(), w.grad, w.view(2, 5).narrow(1, 0, 2).grad_fn.name())

for bad in [lambda: torch.split(t, [2, 3]), lambda: torch.chunk(t, 0), lambda: torch.tensor_split(t, 0),
            lambda: torch.split(t, 0), lambda: t.narrow(0, 9, 2), lambda: m.select(0, 3),
            lambda: m.select(2, 0), lambda: torch.movedim(b, (0, 0), (1, 2)), lambda: torch.movedim(b, (0, 1), (2,)),
            lambda: torch.hsplit(m, 3), lambda: torch.vsplit(t, 2), lambda: torch.tensor_split(t, torch.tensor([[1]])),
            lambda: torch.tensor_split(t, 2.5), lambda: m.narrow(0, -4, 1), lambda: torch.split(t, -1)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)

# the pieces are views of the original: modifying the original in place afterwards
h = torch.arange(6., requires_grad=True).clone()
first, second = h.chunk(2)
r0, r1 = h.view(2, 3).unbind(0)
h.mul_(2)
print(first.detach(), r0.detach())
try:
    print(first + 1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    print(r0)
except RuntimeError as e:
    print(type(e).__name__, e)
