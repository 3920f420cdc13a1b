# zero_grad(set_to_none) semantics, float64/half params, and load_state_dict casting state
# tensors to the parameter's dtype (while "step" stays float32), as seen in mixed-precision code.
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
(p ** 2).sum().backward()
print(p.grad)
opt.zero_grad()
print("after zero_grad()", p.grad)
(p ** 2).sum().backward()
g = p.grad
opt.zero_grad(set_to_none=False)
print("set_to_none=False", p.grad, p.grad is g, p.grad.requires_grad)
opt.step()
print("step with zero grad:", p.data, sorted(opt.state[p].keys()))
opt.zero_grad(set_to_none=True)
opt.step()
print("step with None grad state:", sorted(opt.state[p].keys()), p.data)

# gradient that requires grad (create_graph) is detached by zero_grad
q = nn.Parameter(torch.tensor([0.5, -0.5]))
opt_q = torch.optim.Adam([q], lr=0.1)
(g_q,) = torch.autograd.grad((q ** 3).sum(), q, create_graph=True)
q.grad = g_q
print("grad has grad_fn", q.grad.grad_fn is not None)
opt_q.zero_grad(set_to_none=False)
print(q.grad, q.grad.grad_fn)

# float64 params: state follows param dtype, step is float32
w64 = nn.Parameter(torch.linspace(-1, 1, 4, dtype=torch.float64))
for cls, kw in [(torch.optim.Adam, {}), (torch.optim.RMSprop, dict(centered=True)),
                (torch.optim.Adagrad, {}), (torch.optim.ASGD, {}), (torch.optim.Rprop, {})]:
    w = nn.Parameter(w64.detach().clone())
    o = cls([w], lr=0.01, **kw)
    for _ in range(3):
        o.zero_grad()
        (w.exp() * torch.arange(4, dtype=torch.float64)).sum().backward()
        o.step()
    st = o.state[w]
    print(cls.__name__, {k: (v.dtype, tuple(v.shape)) for k, v in sorted(st.items())})
    print("  w", [f"{v:.8f}" for v in w.tolist()])
    # load a float64 state into a float32-param optimizer
    w32 = nn.Parameter(w.detach().float())
    o32 = cls([w32], lr=0.01, **kw)
    o32.load_state_dict(o.state_dict())
    print("  loaded into f32:", {k: v.dtype for k, v in sorted(o32.state[w32].items())})

# Using a tensor lr
lr = torch.tensor(0.05)
z = nn.Parameter(torch.ones(2))
o = torch.optim.AdamW([z], lr=lr, foreach=False)
(z * torch.tensor([1.0, -2.0])).sum().backward()
o.step()
print(z, o.param_groups[0]["lr"] is lr, o.param_groups[0]["lr"])
lr.fill_(0.5)
o.step()
print(z)
