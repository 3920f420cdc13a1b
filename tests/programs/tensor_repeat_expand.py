# repeat vs expand vs repeat_interleave vs tile, and gradients through them.
import torch

x = torch.tensor([1, 2, 3])
print(x.repeat(2), x.repeat(2, 2), x.repeat(2, 1, 2).shape)
print(x.expand(3, 3), x.unsqueeze(1).expand(-1, 2))
print(x.repeat_interleave(2), torch.repeat_interleave(x, torch.tensor([1, 0, 2])))
print(torch.tile(x, (2,)), x.tile((2, 1)))

col = torch.tensor([[1.], [2.]])
e = col.expand(2, 4)
print(e, e.stride(), e.is_contiguous(), e.contiguous().stride())
print(col.expand_as(torch.zeros(2, 3)).shape, col.broadcast_to((2, 2)).shape)

w = torch.tensor([1., 2.], requires_grad=True)
r = w.repeat(3)
(r * torch.arange(6.)).sum().backward()
print(r, w.grad, r.grad_fn.name())
w.grad = None
ex = w.unsqueeze(0).expand(4, 2)
(ex * torch.arange(8.).view(4, 2)).sum().backward()
print(w.grad, ex.grad_fn.name())
print(torch.broadcast_tensors(torch.zeros(2, 1), torch.zeros(3))[0].shape)
print(torch.broadcast_shapes((2, 1), (1, 3)))
