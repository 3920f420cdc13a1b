# Differentiating through an optimizer step (differentiable=True): hypergradients of a
# validation loss w.r.t. the learning rate, the incoming gradient and the optimizer state,
# as in meta-learning code and PyTorch's own differentiable-optimizer checks.
import torch
from torch.autograd import gradcheck

torch.set_printoptions(precision=5)

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
lr = torch.tensor(0.1, requires_grad=True)
target = torch.tensor([0.0, 1.0, 0.0])
for it in range(3):
    p = w.clone()  # a non-leaf copy the optimizer may update in place
    p.grad = (2 * (w - target)).detach().requires_grad_()
    opt = torch.optim.SGD([p], lr=lr, differentiable=True)
    opt.step()
    val = ((p - target) ** 2).sum()
    g_lr, g_w = torch.autograd.grad(val, [lr, w])
    print(it, f"val {val.item():.5f}", "dval/dlr", f"{g_lr.item():.5f}", "dval/dw", g_w)
    with torch.no_grad():
        lr -= 0.002 * g_lr
    print("   p", p, p.grad_fn is not None)
print("learned lr", f"{lr.item():.5f}")


def one_step(p, grad, cls, kwargs, state_names, *state):
    p = p.clone()
    p.grad = grad
    opt = cls([p], **kwargs)
    opt.state[p].update({k: v.clone() for k, v in zip(state_names, state)})
    opt.step()
    return (p,) + tuple(v for v in opt.state[p].values() if torch.is_tensor(v) and v.requires_grad)


def x(offset=0.3, positive=False):
    t = torch.linspace(-1, 1, 4, dtype=torch.float64) + offset
    return (t.abs() + 0.5 if positive else t).requires_grad_()


step = torch.tensor(4.0, dtype=torch.float64)
cases = [
    (torch.optim.SGD, dict(lr=0.5, momentum=0.9, dampening=0.1), {"momentum_buffer": x()}),
    (torch.optim.Adam, dict(lr=0.2, amsgrad=True), {"step": step, "exp_avg": x(), "exp_avg_sq": x(positive=True),
                                                    "max_exp_avg_sq": x(0.1, positive=True)}),
    (torch.optim.AdamW, dict(lr=0.2), {"step": step, "exp_avg": x(), "exp_avg_sq": x(positive=True)}),
    (torch.optim.RMSprop, dict(lr=0.1, centered=True, momentum=0.5), {"step": step, "square_avg": x(3.0, positive=True),
                                                                      "momentum_buffer": x(), "grad_avg": x(-0.2)}),
    (torch.optim.Adagrad, dict(lr=0.1), {"step": step, "sum": x(positive=True)}),
    (torch.optim.Adamax, dict(lr=0.1), {"step": step, "exp_avg": x(), "exp_inf": x(positive=True)}),
]
for cls, kwargs, state in cases:
    p0, g0 = x(0.0), x(-0.4)
    kwargs = dict(kwargs, differentiable=True)
    names = list(state)
    outs = one_step(p0, g0, cls, kwargs, names, *state.values())
    print(cls.__name__, "new param", outs[0].detach(), outs[0].requires_grad, len(outs))
    dp = torch.autograd.grad(outs[0].sum(), g0)[0]
    print("   d(sum p)/d grad", dp)
    ok = gradcheck(one_step, (p0, g0, cls, kwargs, names, *state.values()))
    print("   gradcheck", ok)

leaf = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([leaf], lr=0.1, differentiable=True)
leaf.grad = torch.ones(2)
try:
    opt.step()
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.optim.Adam([leaf], differentiable=True, fused=True)
except RuntimeError as e:
    print("RuntimeError", e)
