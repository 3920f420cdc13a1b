# Strides and memory layout exercise: stride()/is_contiguous() after transpose/permute/expand,
# view errors on non-contiguous tensors, as_strided sliding windows, unfold, storage offsets.
import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.stride(), x.is_contiguous(), x.storage_offset())
t = x.transpose(1, 2)
print(t.shape, t.stride(), t.is_contiguous())
p = x.permute(2, 0, 1)
print(p.stride(), p.is_contiguous(), p.contiguous().stride())
print(x[:, 1].stride(), x[:, 1].storage_offset(), x[..., 1:3].is_contiguous())
print(x[:, :, ::2].stride(), x[1].is_contiguous(), x[:, ::-1].stride() if False else "no negative steps")

try:
    t.view(-1)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    t.view(2, 12)
except RuntimeError as e:
    print("RuntimeError", e)
print(t.reshape(-1)[:6], t.contiguous().view(2, 12).shape)
print(t.view(2, 2, 2, 3).shape if False else t.flatten(0, 1).shape)
try:
    x.view(5, -1)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.view(-1, -1)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x.reshape(7, -1)
except RuntimeError as e:
    print("RuntimeError", e)

# view on a transposed tensor that still works (splitting a contiguous dim)
print(t.view(2, 2, 2, 3).stride() if False else x.transpose(0, 1).view(3, 2, 2, 2).stride())
# transpose then view along merged dims which are compatible
m = torch.arange(12).reshape(3, 4).t()
print(m.stride(), m.view(2, 2, 3).stride())

# expand has zero strides; contiguous materialises
e = torch.tensor([1, 2, 3]).unsqueeze(1).expand(3, 4)
print(e.stride(), e.is_contiguous(), e.contiguous().stride())
try:
    e.view(12)
except RuntimeError as err:
    print("RuntimeError", err)

# as_strided sliding windows
s = torch.arange(10.0)
win = s.as_strided((4, 3), (2, 1))
print(win)
print(torch.equal(win, s.unfold(0, 3, 2)))
print(s.unfold(0, 4, 3), s.unfold(0, 4, 3).stride())
img = torch.arange(16.0).reshape(4, 4)
patches = img.as_strided((3, 3, 2, 2), (4, 1, 4, 1))
print(patches.shape, patches[1, 2])
print(img.unfold(0, 2, 1).unfold(1, 2, 1).shape)
print(s.as_strided((3,), (3,), 1))
# storage offset of views
v = s[3:]
print(v.storage_offset(), v.as_strided((2,), (1,)), v.as_strided((2,), (1,), 0))
# writing through views
s2 = torch.zeros(6)
s2.view(2, 3)[:, 1] = 5
print(s2)
s2.as_strided((2,), (3,))[:] = torch.tensor([7.0, 8.0])
print(s2, s2.data_ptr() == s2.view(3, 2).data_ptr())

# narrow/select/movedim strides
print(x.narrow(2, 1, 2).stride(), x.select(1, 0).stride(), x.movedim(0, -1).stride())
print(x.unsqueeze(1).stride(), x.unsqueeze(-1).stride(), torch.ones(3, 1).squeeze().stride())
print(x.mT.stride(), x.t().stride() if x.dim() == 2 else x.mT.is_contiguous())
print(torch.empty(2, 3).t().contiguous().is_contiguous(), x.is_contiguous(memory_format=torch.contiguous_format))
print(torch.ones(2, 3, 4, 5).contiguous(memory_format=torch.channels_last).stride())
