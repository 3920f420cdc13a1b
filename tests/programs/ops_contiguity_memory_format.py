# Contiguity: why .view fails after .t(), .contiguous() vs .reshape, clone(memory_format=...),
# channels_last strides, is_contiguous(memory_format) -- the "view size is not compatible" Q&A.
import torch

a = torch.arange(6.).view(2, 3)
t = a.t()
print(a.is_contiguous(), t.is_contiguous(), t.stride(), t.contiguous().stride(), t.contiguous().is_contiguous())
try:
    t.view(6)
except RuntimeError as e:
    print(type(e).__name__, e)
print(t.reshape(6), t.contiguous().view(6), t.flatten(), a.contiguous() is a, t.contiguous() is t)
c = t.clone()
print(c.stride(), c.is_contiguous(), (t * 2).stride(), torch.zeros_like(t).stride(), torch.empty_like(t).is_contiguous())
try:
    print(c.view(6))
except RuntimeError as e:
    print(type(e).__name__, e)
print(t.clone(memory_format=torch.preserve_format).stride(), t.clone(memory_format=torch.contiguous_format).stride())
print(a[:, ::2].is_contiguous(), a[:, ::2].stride(), a[1:].is_contiguous(), a[:, 1:].is_contiguous(), a[:, 1:].clone().stride())
print(a.expand(3, 2, 3).stride(), a.expand(3, 2, 3).is_contiguous(), a.unsqueeze(0).expand(2, 2, 3).contiguous().stride())
print(a.permute(1, 0).data_ptr() == a.data_ptr(), a.permute(1, 0).contiguous().data_ptr() == a.data_ptr(), a.storage_offset(), a[1].storage_offset())

x = torch.arange(24.).view(1, 2, 3, 4)
cl = x.to(memory_format=torch.channels_last)
print(cl.shape, cl.stride(), cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last), torch.equal(cl, x))
print(x.is_contiguous(memory_format=torch.channels_last), x.contiguous(memory_format=torch.channels_last).stride())
cl2 = x.clone(memory_format=torch.channels_last)
print(cl2.stride(), cl2.clone().stride(), cl2.contiguous().stride(), (cl2 + 1).stride(), cl2.permute(0, 2, 3, 1).is_contiguous())
print(torch.empty_like(cl2).stride(), torch.zeros_like(cl2).stride(), torch.empty(1, 2, 3, 4, memory_format=torch.channels_last).stride())
print(cl2.reshape(-1)[:6], cl2.flatten(1).shape, cl2.sum(dim=(2, 3)))
print(torch.contiguous_format, torch.channels_last, torch.preserve_format, type(torch.channels_last).__name__)

w = torch.arange(6., requires_grad=True)
m = w.view(2, 3).t()
mc = m.contiguous()
(mc.view(-1) * torch.arange(6.)).sum().backward()
print(mc.grad_fn.name(), m.grad_fn.name(), w.grad)
w.grad = None
k = m.clone(memory_format=torch.contiguous_format)
(k * k).sum().backward()
print(k.grad_fn.name(), k.stride(), w.grad)
w.grad = None
r = m.reshape(6)
r.sum().backward()
print(r.grad_fn.name(), w.grad)
y = torch.ones(1, 2, 2, 2, requires_grad=True)
yc = y.to(memory_format=torch.channels_last)
(yc * torch.arange(8.).view(1, 2, 2, 2)).sum().backward()
print(yc.grad_fn.name() if yc.grad_fn else None, y.grad.stride(), y.grad.view(-1))
