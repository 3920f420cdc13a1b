# Channels-last tutorial: strides under torch.channels_last, is_contiguous(memory_format=...),
# which ops keep the layout (clone, empty_like, relu, add) and which make it contiguous again.
import torch

x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(2, 3, 4, 5)
print(x.stride(), x.is_contiguous(), x.is_contiguous(memory_format=torch.channels_last))
cl = x.contiguous(memory_format=torch.channels_last)
print(cl.shape, cl.stride(), cl.is_contiguous(), cl.is_contiguous(memory_format=torch.channels_last))
print(torch.equal(cl, x), cl.data_ptr() == x.data_ptr())
cl2 = x.to(memory_format=torch.channels_last)
print(cl2.stride())
print("clone", cl.clone().stride(), cl.clone(memory_format=torch.contiguous_format).stride())
print("empty_like", torch.empty_like(cl).stride(), torch.zeros_like(cl).stride())
print("relu", torch.relu(cl).stride(), (cl + 1).stride(), (cl * cl).stride())
print("contiguous", cl.contiguous().stride(), cl.contiguous().is_contiguous())
print("view flat?", cl.permute(0, 2, 3, 1).is_contiguous(), cl.permute(0, 2, 3, 1).stride())
nhwc = cl.permute(0, 2, 3, 1).reshape(-1, 3)
print(nhwc.shape, nhwc._base is cl, nhwc[:2])
t = x.transpose(1, 2)
print("clone of transposed", t.clone().stride(), t.clone().is_contiguous())
print("empty_like transposed", torch.empty_like(t).stride())
print("add transposed", (t + 0).stride(), (t + x.transpose(1, 2)).stride())
p = x.permute(3, 1, 0, 2)
print("mul permuted", (p * 2).stride(), torch.exp(p).stride())
sl = x[:, :, ::2]
print("clone of strided slice", sl.clone().stride(), sl.clone().is_contiguous())
o = torch.ones(3, 1, 4)
print(o.stride(), o.is_contiguous(), o.expand(3, 5, 4).stride())
one = torch.ones(1, 3, 1, 1)
print(one.is_contiguous(memory_format=torch.channels_last), one.stride())
c3 = torch.arange(24.0).reshape(1, 2, 3, 4).to(memory_format=torch.channels_last)
print(c3.flatten().tolist()[:6], c3.view(-1).shape if c3.is_contiguous() else "no flat view")
try:
    c3.view(-1)
except RuntimeError as e:
    print(type(e).__name__, e)
print(c3.reshape(-1)[:6])
print(c3.permute(0, 2, 3, 1).contiguous().view(-1)[:6])
