# "100 PyTorch exercises" style drills: shifting and reversing arrays (np.roll / np.flip /
# np.diff translated to torch), with the gradients and the errors people hit.
import torch

a = torch.arange(12).reshape(3, 4)
print(torch.roll(a, 1), torch.roll(a, -1, 0))
print(torch.roll(a, shifts=(2, 1), dims=(0, 1)))
print(a.roll(5, 1), a.roll(-7, dims=1))
print(torch.roll(torch.tensor([]), 3), torch.roll(torch.tensor(7.), 2))
print(torch.flip(a, [0]), torch.flip(a, dims=(0, 1)), a.flip(-1))
print(torch.fliplr(a), torch.flipud(a), torch.rot90(a), torch.rot90(a, 2, [0, 1]), torch.rot90(a, -1))
print(torch.flip(torch.tensor([True, False, False]), [0]), a.flip(0).is_contiguous())

x = torch.tensor([1, 4, 9, 16, 25])
print(torch.diff(x), torch.diff(x, n=2), torch.diff(x, n=3), x.diff(n=5), x.diff(n=7))
print(torch.diff(x, prepend=torch.tensor([0])), torch.diff(x, append=torch.tensor([30, 40])))
print(torch.diff(x, prepend=torch.tensor([0, 0]), append=torch.tensor([36])))
m = torch.tensor([[1., 3., 6.], [10., 15., 21.]])
print(torch.diff(m), torch.diff(m, dim=0), torch.diff(m, dim=-2, prepend=torch.zeros(1, 3)))
print(torch.diff(torch.tensor([True, False, False, True])), torch.diff(torch.tensor([1, 2], dtype=torch.int8)).dtype)
print(torch.diff(m, n=2, dim=1, append=torch.tensor([[28.], [36.]])))

w = torch.tensor([1., 2., 4., 8., 16.], requires_grad=True)
d = torch.diff(w)
(d * torch.tensor([1., 10., 100., 1000.])).sum().backward()
print(d, w.grad, d.grad_fn.name())
w.grad = None
d2 = torch.diff(w, n=2, prepend=torch.tensor([0.]))
d2.pow(2).sum().backward()
print(d2, w.grad)
w.grad = None
r = torch.roll(w, 2) * torch.arange(5.)
r.sum().backward()
print(r.grad_fn.name(), w.grad)
w.grad = None
f = w.flip(0)
(f * torch.arange(5.)).sum().backward()
print(f, f.grad_fn.name(), w.grad)
q = torch.arange(6., requires_grad=True)
rr = torch.rot90(q.view(2, 3))
(rr * torch.arange(6.).view(3, 2)).sum().backward()
print(rr, rr.grad_fn, q.grad)
q.grad = None
lr = torch.fliplr(q.view(2, 3))
lr[:, 0].sum().backward()
print(lr.grad_fn.name(), q.grad)

for bad in [lambda: torch.roll(a, (1, 2), 0), lambda: torch.roll(a, 1, 2), lambda: torch.flip(a, [0, 0]),
            lambda: torch.flip(a, [3]), lambda: torch.fliplr(torch.arange(3)), lambda: torch.diff(x, n=-1),
            lambda: torch.diff(x, prepend=torch.tensor([[0]])), lambda: torch.diff(torch.tensor(3.)),
            lambda: torch.rot90(a, 1, [0, 0]), lambda: torch.diff(x, dim=1)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
