# GLU-style gating with Tensor.unsafe_chunk / torch.unsafe_split (fairseq and older NLP repos use
# them to skip view bookkeeping), an exported-graph style constant_pad_nd and torch.fill, and the
# deprecated non-inplace resize idioms, with grads and node names.
import warnings

import torch

x = (torch.arange(24, dtype=torch.float32).view(2, 12) * 0.3).sin().requires_grad_()

a, g = x.unsafe_chunk(2, dim=-1)
glu = a * torch.sigmoid(g)
print(a.grad_fn.name(), a._base is None, glu.shape)
print(torch.allclose(glu, torch.nn.functional.glu(x, -1)))
glu.sum().backward()
print(x.grad)

x.grad = None
parts = torch.unsafe_split(x, 5, 1)
print([p.shape[1] for p in parts], parts[-1].grad_fn.name())
sizes = torch.unsafe_split_with_sizes(x, [3, 9], 1)
print(sizes[1].grad_fn.name())
(sizes[0].sum() * 2 + sizes[1].pow(2).sum()).backward()
print(x.grad[0])

img = torch.arange(12, dtype=torch.float32).view(1, 3, 4).requires_grad_()
padded = torch.constant_pad_nd(img, [1, 2, 0, -1], 0.5)
print(padded)
print(padded.grad_fn.name())
padded.sum().backward()
print(img.grad)
try:
    torch.constant_pad_nd(img, [1, 2, 3])
except RuntimeError as e:
    print("RuntimeError:", e)

value = torch.tensor(1.5, requires_grad=True)
filled = torch.fill(img, value)
print(filled.grad_fn.name(), torch.fill(img, 2).grad_fn.name())
(filled * torch.arange(12.).view(1, 3, 4)).sum().backward()
print(value.grad)
try:
    torch.fill(img, torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    flat = torch.arange(6.)
    grid = flat.resize(2, 3)
    like = flat.resize_as(torch.empty(3, 2))
print(grid, like.shape, [str(w.message) for w in caught])
h = torch.arange(6., requires_grad=True) * 2
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    r = h.resize(3, 2)
    r.sum().backward()
    try:
        h.resize(4)
    except RuntimeError as e:
        print("RuntimeError:", e)

s = torch.arange(6.) * 1
s.as_strided_((2, 3), (1, 2))
print(s, s.stride())
print(torch.as_strided_scatter(torch.zeros(6), torch.ones(2, 2), (2, 2), (1, 2), 1))
e = torch.empty_permuted((2, 3, 4), (0, 2, 1))
print(e.shape, e.stride(), torch.zeros(1).new_empty_strided((2, 3), (1, 2)).stride())
print(torch.max_pool1d_with_indices(torch.arange(8.).view(1, 1, 8).sin(), 3, 2))
