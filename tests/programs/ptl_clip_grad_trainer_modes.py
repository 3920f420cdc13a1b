# Trainer gradient-clipping helpers: clip_grad_norm_ with norm_type 2/1/inf, foreach=True/False,
# error_if_nonfinite on nan/inf grads (skip the step like Lightning's "skip on non-finite" mode),
# clip_grad_value_ with foreach, params without .grad, a single tensor, and generator inputs.
import math

import torch
import torch.nn as nn

torch.set_printoptions(precision=5)


def model_with_grads(scale=1.0):
    m = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) * 0.1 - i)
    x = torch.linspace(-1, 1, 6).view(2, 3) * scale
    m(x).pow(2).sum().backward()
    return m


for norm_type in (2.0, 1, math.inf, "inf", 0.5):
    for foreach in (None, True, False):
        m = model_with_grads()
        total = torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0, norm_type=norm_type, foreach=foreach)
        after = torch.nn.utils.get_total_norm([p.grad for p in m.parameters()], norm_type=norm_type)
        print(f"norm_type={norm_type!s:4} foreach={foreach!s:5} total={total.item():.4f} after={after.item():.4f}")

m = model_with_grads()
print("returned:", torch.nn.utils.clip_grad_norm_(m.parameters(), 100.0))
print("grad unchanged when under max:", m[0].bias.grad)

# one parameter without grad (frozen) and a generator argument
m = model_with_grads()
m[0].weight.grad = None
gen = (p for p in m.parameters())
print("frozen skip:", torch.nn.utils.clip_grad_norm_(gen, 0.5))
print("single tensor:", torch.nn.utils.clip_grad_norm_(m[1].weight, 0.1), m[1].weight.grad.norm())
print("no grads at all:", torch.nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))


def optimizer_step_with_guard(m, opt):
    try:
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)
    except RuntimeError as e:
        print("skipping step:", type(e).__name__, e)
        opt.zero_grad()
        return False
    opt.step()
    return True


for bad in (float("nan"), float("inf")):
    m = model_with_grads()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    before = m[1].bias.detach().clone()
    m[1].bias.grad[0] = bad
    print("stepped:", optimizer_step_with_guard(m, opt), "bias unchanged:", torch.equal(before, m[1].bias.detach()))
    m[1].bias.grad = torch.tensor([bad, 1.0])
    print("non-strict total:", torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=False))

m = model_with_grads()
try:
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=-1.0)
except RuntimeError as e:
    print(type(e).__name__, e)

for foreach in (None, True, False):
    m = model_with_grads(scale=3.0)
    ret = torch.nn.utils.clip_grad_value_(m.parameters(), clip_value=0.75, foreach=foreach)
    g = torch.cat([p.grad.flatten() for p in m.parameters()])
    print(f"value foreach={foreach}: ret={ret} max={g.max().item():.3f} min={g.min().item():.3f} n_clipped={(g.abs() == 0.75).sum().item()}")
print(m[0].weight.grad)
try:
    torch.nn.utils.clip_grad_value_(m.parameters(), clip_value=-1)
except Exception as e:
    print(type(e).__name__, e)
