# dtype conversions users write every day: .long()/.int()/.bool()/.double(), .to(other_tensor),
# .type(...) with a dtype, a string or torch.FloatTensor, type_as; finfo/iinfo; reprs of the results.
import torch

x = torch.tensor([-1.7, 0.0, 0.4, 2.9])
print(x.long(), x.int(), x.bool(), x.double(), x.short(), x.char(), x.byte())
print(x.long().dtype, x.int().dtype, x.double().dtype, x.float().dtype, x.bool().dtype, x.to(torch.uint8))
ref64 = torch.zeros(1, dtype=torch.float64)
refi = torch.zeros(1, dtype=torch.int32)
print(x.to(ref64), x.to(refi), x.type_as(refi), x.to(ref64).dtype, torch.tensor([1, 2]).to(x), torch.tensor([1, 2]).type_as(x))
print(x.type(), x.long().type(), x.bool().type(), ref64.type(), x.type(torch.float64), x.type(torch.int64))
print(x.type("torch.DoubleTensor"), x.type(torch.DoubleTensor).dtype, x.type(torch.LongTensor), torch.tensor([1, 0]).type(torch.BoolTensor))
print(isinstance(x, torch.FloatTensor), isinstance(x, torch.Tensor), isinstance(x.long(), torch.FloatTensor), isinstance(x.long(), torch.LongTensor))
print(torch.FloatTensor([1, 2]), torch.LongTensor([1.5, 2.7]), torch.DoubleTensor(2).shape, torch.BoolTensor([0, 3]), torch.IntTensor([[1], [2]]))
print(x.to(dtype=torch.int64), x.to("cpu", torch.float64), x.to(torch.float32) is x, x.to(torch.float64, copy=False).dtype, x.to(x) is x)
print(torch.tensor([True, False]).float(), torch.tensor([300]).to(torch.uint8), torch.tensor([-1]).to(torch.uint8), torch.tensor([2.5e10]).long())
print(torch.tensor([1, 2]) / 2, (torch.tensor([1, 2]) / 2).dtype, torch.tensor([5]) // 2, torch.tensor(3).item(), type(torch.tensor(3.).item()))
print(x.long().float(), x.numpy().dtype, x.int().numpy().dtype, x.tolist(), x.long().tolist(), x.bool().tolist())
print(torch.tensor([1.5], dtype=torch.float64), torch.tensor([1, 2], dtype=torch.int32), torch.tensor([[True], [False]]), torch.arange(3, dtype=torch.int16))
print(repr(torch.tensor(3)), repr(torch.tensor(True)), repr(torch.tensor(2.5, dtype=torch.float64)), repr(torch.tensor([], dtype=torch.int32)))
print(torch.tensor([1e-5, 1.0], dtype=torch.float64), torch.tensor([123456789.0], dtype=torch.float64), torch.tensor([100000, 2]))

fi = torch.finfo(torch.float32)
print(fi.eps, fi.max, fi.min, fi.tiny, fi.bits, fi.resolution, fi.smallest_normal, fi.dtype)
print(torch.finfo(torch.float64).eps, torch.finfo(torch.float64).max, torch.finfo().bits, torch.finfo(x.dtype).eps == fi.eps)
ii = torch.iinfo(torch.int32)
print(ii.max, ii.min, ii.bits, ii.dtype, torch.iinfo(torch.int64).max, torch.iinfo(torch.uint8).min, torch.iinfo(torch.int8).max)
print(fi)
print(ii)
print(torch.tensor([fi.max]) * 2, torch.tensor([ii.max], dtype=torch.int32) + 1, torch.full((2,), fi.min).clamp(min=-1e38))
print(torch.is_floating_point(x), x.long().is_floating_point(), torch.is_tensor(x), x.dtype.is_floating_point, torch.int64.is_signed, x.element_size(), x.long().element_size())

w = torch.tensor([1.5, -2.0], requires_grad=True)
d = w.double()
(d * d).sum().backward()
print(d, d.grad_fn.name(), w.grad, w.grad.dtype)
w.grad = None
t = w.to(ref64) * 3
t.sum().backward()
print(t.grad_fn.name(), w.grad)
print(w.long(), w.long().requires_grad, w.bool().requires_grad, w.detach().int())
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.finfo(torch.int32)
except TypeError as e:
    print(type(e).__name__, e)
try:
    torch.iinfo(torch.float32)
except TypeError as e:
    print(type(e).__name__, e)
