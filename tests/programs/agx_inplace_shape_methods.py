# In-place shape methods (t_, unsqueeze_, squeeze_, transpose_, resize_) and in-place fills,
# with _version counters, grad_fn names and gradients; version bumps from optimizers and init.
import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except RuntimeError as e:
        print(label, "RuntimeError:", str(e).split(". ")[0])


w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
for name, op in [("t_", lambda h: h.t_()),
                 ("unsqueeze_", lambda h: h.unsqueeze_(0)),
                 ("squeeze_", lambda h: h.unsqueeze(0).squeeze_(0)),
                 ("transpose_", lambda h: h.transpose_(0, 1)),
                 ("resize_", lambda h: h.resize_(4)),
                 ("detach_", lambda h: h.detach_()),
                 ("detach_ view", lambda h: h.view(4).detach_())]:
    h = w * 1
    attempt(name, lambda: (op(h) is h, h._version, h.grad_fn.name() if h.grad_fn else None,
                           tuple(h.shape), h.requires_grad))

h = w * 1
h.t_()
(h * torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
print(w.grad)
w.grad = None
h = w * 1
h.unsqueeze_(0)
h.squeeze_()
(h ** 2).sum().backward()
print(h.shape, w.grad)

plain = torch.arange(6.0)
plain.resize_(2, 3)
print(plain, plain._version)
plain.unsqueeze_(1).transpose_(0, 2)
print(plain.shape, plain._version, plain.is_contiguous())

# in-place fills and their versions
e = torch.zeros(4)
e[1:] = 1
e[torch.tensor([0])] = 2
e.masked_fill_(e > 1, 3)
e.index_fill_(0, torch.tensor([1, 2]), 4)
e.clamp_(0, 3)
print(e._version, e)
g = torch.arange(4.0, requires_grad=True).clone()
g.index_fill_(0, torch.tensor([0, 3]), -1.0)
print(g, g._version)
g.sum().backward()

# versions after optimizer steps, init, and out=
p = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
p.grad = torch.ones(2)
opt.step()
v1 = p._version
opt.step()
print(v1, p._version)
q = torch.nn.Parameter(torch.zeros(2))
adam = torch.optim.Adam([q], lr=0.1)
q.grad = torch.ones(2)
adam.step()
print(q._version, q)
t = torch.zeros(2)
torch.nn.init.constant_(t, 3.0)
torch.nn.init.zeros_(t)
torch.add(t, 1, out=t)
print(t._version, t)
s = torch.zeros(2)
s.set_(torch.ones(3))
print(s._version, s)
