# "Tensor views" doc page: which operations return views, strides and contiguity, view vs reshape,
# writes through views, and the gradients of view chains.
import torch

base = torch.arange(12.0)
v = base.view(3, 4)
print(v.stride(), v.is_contiguous(), v.storage_offset(), v._base is base)
v[1, 2] = -1.0
print(base)

t = v.t()
print(t.shape, t.stride(), t.is_contiguous(), t._base is base)
print(v.transpose(0, 1).stride(), v.permute(1, 0).stride(), v.T.is_contiguous())
c = t.contiguous()
print(c.stride(), c.is_contiguous(), c._base is None, t.contiguous() is not t, v.contiguous() is v)
print(torch.equal(c, t))

# reshape returns a view when it can, a copy when it must
r1 = v.reshape(2, 6)
r2 = t.reshape(12)
r1[0, 0] = 100.0
r2[0] = -100.0
print(base[0], r1._base is base, r2._base is None)
print(r2)

# Slicing and narrowing are views with offsets and strides
s = v[1:, ::2]
print(s, s.stride(), s.storage_offset(), s.is_contiguous())
n = v.narrow(1, 1, 2)
print(n.stride(), n.storage_offset(), n.shape)
row = v[2]
row += 1000
print(v)
print(v.select(1, 3), v.diagonal(), v.diagonal().stride())

# unsqueeze/squeeze/expand/flatten/unflatten/unbind/split/chunk
col = torch.tensor([1.0, 2.0, 3.0]).unsqueeze(1)
e = col.expand(3, 4)
print(e.stride(), e.is_contiguous(), e.shape)
print(col.squeeze(1).stride(), v.flatten().is_contiguous(), v.unflatten(1, (2, 2)).shape)
print([p.storage_offset() for p in v.unbind(0)], [p.stride() for p in v.split(2, dim=1)])
print([p.shape for p in base.chunk(5)], base.unfold(0, 4, 4).shape, base.unfold(0, 4, 4).stride())

# A 3-d permute, then view vs reshape
x = torch.arange(24.0).reshape(2, 3, 4)
p = x.permute(2, 0, 1)
print(p.shape, p.stride(), p.is_contiguous())
print(p.view(4, 6).stride())   # the last two dims stay one contiguous subspace
try:
    p.view(24)
except RuntimeError as err:
    print("RuntimeError:", err)
print(p.reshape(4, 6)[1], p.contiguous().view(4, 6)[1])
print(x.view(2, 12).stride(), x.view(-1, 4).shape, x.view_as(torch.empty(6, 4)).shape, x[:, 1].stride())

# as_strided, and sliding windows by hand
buf = torch.arange(8.0)
windows = buf.as_strided((3, 4), (2, 1))
print(windows, windows.stride())

# Views share the version counter of their base
w = torch.zeros(4)
wv = w[1:3]
print(w._version, wv._version)
wv.fill_(7.0)
print(w, w._version, wv._version)

# Gradients through view chains reach the base
leaf = torch.arange(6.0, requires_grad=True)
y = leaf.view(2, 3).t()[1:]
print(y, y.grad_fn.name(), y.is_contiguous())
(y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(leaf.grad)

# In-place through a view of a non-leaf rewrites the base's history
h = leaf * 1
hv = h.view(2, 3)
hv[:, 0] = 0.0
print(h.grad_fn.name(), hv.grad_fn.name())
leaf.grad = None
(h * h).sum().backward()
print(leaf.grad)
