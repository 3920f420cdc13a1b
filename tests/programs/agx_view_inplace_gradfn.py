# In-place ops on views of non-leaf tensors: grad_fn names, CopySlices, _version counters, grads.
import torch

w = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
base = w * 1.0
print(base.grad_fn.name(), base._version, base.is_leaf)

views = {
    "view": base.view(3, 2),
    "select": base[1],
    "slice": base[:, 1:],
    "transpose": base.t(),
    "unsqueeze": base.unsqueeze(0),
    "expand": base[:1].expand(4, 3),
    "as_strided": base.as_strided((2, 2), (1, 3)),
    "narrow": base.narrow(1, 0, 2),
    "diagonal": base.diagonal(),
    "reshape": base.reshape(6),
    "flatten": base.flatten(),
    "permute": base.permute(1, 0),
    "squeeze": base.unsqueeze(1).squeeze(1),
    "unbind": base.unbind(0)[0],
    "split": base.split(1, dim=1)[2],
    "chunk": base.chunk(3, dim=1)[0],
    "index_int_tensor": base[torch.tensor([0, 1]), torch.tensor([2, 2])],
    "mT": base.mT,
    "real_view_as": base.view_as(torch.empty(3, 2)),
    "movedim": base.movedim(0, 1),
    "T": base.T,
    "alias_detach": base.detach(),
}
for name, v in views.items():
    print(f"{name:18s} {type(v.grad_fn).__name__ if v.grad_fn else None} {v._base is base} {tuple(v.shape)}")

# in-place on a select view rewrites the base's grad_fn
b = w * 2
row = b[0]
print(b._version, row._version)
row.mul_(10)
print(b._version, row._version, b.grad_fn.name(), row.grad_fn.name())
b.sum().backward()
print(w.grad)

# in-place on a slice view, then use base and view both
w.grad = None
b = w.exp()
col = b[:, 1]
col.zero_()
print(b.grad_fn.name(), col.grad_fn.name(), b._version)
try:
    (b * torch.arange(6.0).view(2, 3)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
w.grad = None
b = w * 3
col = b[:, 1]
col.zero_()
(b * torch.arange(6.0).view(2, 3)).sum().backward()
print(w.grad)

# chained views then in-place
w.grad = None
c = w.clone()
v = c.t()[1:].unsqueeze(0)
v.add_(torch.tensor([[[100.0, 200.0]]]).transpose(1, 2).expand(1, 2, 2))
print(c)
print(c.grad_fn.name(), v.grad_fn.name(), c._version, v._version)
(c ** 2).sum().backward()
print(w.grad)

# version counter increments
t = torch.zeros(3)
print(t._version)
t.add_(1); t[0] = 5; t.fill_(2); t.copy_(torch.ones(3)); t += 1
print(t._version)
t.data.add_(1)
print(t._version)
t2 = t.view(3)
t2.mul_(3)
print(t._version, t2._version)
with torch.no_grad():
    t.sub_(1)
print(t._version, t)
u = torch.ones(2, requires_grad=True).clone()
u.sigmoid_()
u.relu_()
print(u._version, u.grad_fn.name())
