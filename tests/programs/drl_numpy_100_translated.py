# "100 numpy exercises" translated to torch: the answers people post use unravel_index,
# sliding windows via unfold, dstack/row_stack/column_stack, ldexp/frexp, gcd/lcm,
# index_copy/masked_scatter, deg2rad -- printed the same way the exercise notebook does.
import torch

# 1. find the (row, col) of the max of a 2D array
Z = torch.tensor([[3., 9., 1.], [4., 2., 9.5]])
print(torch.unravel_index(Z.argmax(), Z.shape), torch.unravel_index(torch.tensor([0, 5, 4]), (2, 3)))
print(torch.unravel_index(torch.tensor(7), (2, 2, 2)), torch.unravel_index(torch.tensor([[1, 2]]), (3,)))
# 2. sliding window of size 3 over a 1D array
a = torch.arange(7.)
print(a.unfold(0, 3, 1), a.unfold(0, 3, 2), a.unfold(0, 7, 1).shape, a.unfold(0, 2, 5))
print(torch.arange(12).view(3, 4).unfold(1, 2, 2), a.unfold(0, 3, 1).mean(1))
# 3. stacking helpers
u, v = torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])
print(torch.dstack((u, v)), torch.row_stack((u, v)), torch.column_stack((u, v, torch.tensor([7, 8, 9]))))
print(torch.dstack([torch.ones(2, 2), torch.zeros(2, 2)]).shape, torch.hstack((u, v)), torch.vstack((u, v)).stride())
# 4. mantissa/exponent
m, e = torch.frexp(torch.tensor([8., 0.3, -5., 0.]))
print(m, e, e.dtype, torch.ldexp(m, e), torch.ldexp(torch.tensor([1., 1.]), torch.tensor([3, 4])))
print(torch.ldexp(torch.tensor([1, 2]), torch.tensor([2, 2])), torch.ldexp(torch.tensor([3.]), torch.tensor([-1])).dtype)
# 5. gcd / lcm
print(torch.gcd(torch.tensor([12, 18, 0, -4]), torch.tensor([8, 12, 5, 6])), torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, 4, 3])))
print(torch.gcd(torch.tensor([12], dtype=torch.int32), torch.tensor([8])).dtype, torch.lcm(torch.tensor([-4]), torch.tensor([6])))
# 6. index_copy / masked_scatter / index_fill
base = torch.zeros(5, 2)
print(base.index_copy(0, torch.tensor([4, 0]), torch.tensor([[1., 2.], [3., 4.]])))
print(torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), torch.arange(1., 7.)))
print(torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.arange(10., 16.).view(2, 3)))
print(torch.arange(6).view(2, 3).index_fill(1, torch.tensor([0, 2]), -1), base.index_copy_(1, torch.tensor([1]), torch.ones(5, 1)).sum())
# 7. angles
deg = torch.tensor([0., 90., 180., 360.])
print(torch.deg2rad(deg), torch.rad2deg(torch.deg2rad(deg)), torch.deg2rad(torch.tensor([180])))

w = torch.arange(6., requires_grad=True)
win = w.unfold(0, 3, 2)
(win * torch.tensor([1., 10., 100.])).sum().backward()
print(win.grad_fn.name(), w.grad)
src = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
ic = torch.zeros(3, 2).index_copy(0, torch.tensor([2, 0]), src)
(ic * torch.arange(6.).view(3, 2)).sum().backward()
print(ic.grad_fn.name(), src.grad)
ms_src = torch.arange(1., 7., requires_grad=True)
ms = torch.zeros(2, 3).masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), ms_src)
(ms * torch.arange(6.).view(2, 3)).sum().backward()
print(ms.grad_fn.name(), ms_src.grad)
lx = torch.tensor([1., 2.], requires_grad=True)
ld = torch.ldexp(lx, torch.tensor([3, 1]))
ld.sum().backward()
print(ld, lx.grad)

for bad in [lambda: torch.unravel_index(torch.tensor([6]), (2, 3)), lambda: torch.unravel_index(torch.tensor([1.]), (2, 3)),
            lambda: a.unfold(0, 8, 1), lambda: a.unfold(0, 2, 0), lambda: torch.gcd(torch.tensor([1.]), torch.tensor([2.])),
            lambda: base.index_copy(0, torch.tensor([0, 1]), torch.ones(3, 2)), lambda: torch.frexp(torch.tensor([1, 2])),
            lambda: torch.zeros(2).masked_scatter(torch.tensor([True, True]), torch.ones(1)),
            lambda: torch.unravel_index(torch.tensor([-1]), (2, 3))]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
