# Comparing straight-through-estimator variants for uniform quantization that users write by hand:
# round with detach trick, floor via torch.div(rounding_mode="floor"), trunc, torch.fmod/remainder
# wrap-around, and clamp masks; prints gradients and graph node names.
import torch

torch.set_printoptions(precision=4)
x = torch.linspace(-1.2, 1.2, 9, requires_grad=True)
scale = 0.25


def report(name, y):
    y.sum().backward()
    print(f"{name:18s} out {y.detach()}")
    print(f"{'':18s} grad {x.grad} node {y.grad_fn.name()}")
    x.grad = None


report("plain round", torch.round(x / scale) * scale)
report("ste round", (torch.round(x / scale) - x / scale).detach() * scale + x)
report("div floor", torch.div(x, scale, rounding_mode="floor") * scale)
report("div trunc", torch.div(x, scale, rounding_mode="trunc") * scale)
report("ste floor", x + (torch.div(x, scale, rounding_mode="floor") * scale - x).detach())
report("clamped ste", torch.clamp(x, -1.0, 1.0) + (torch.round(torch.clamp(x, -1.0, 1.0) / scale) * scale - torch.clamp(x, -1.0, 1.0)).detach())
report("remainder", torch.remainder(x, scale))
report("fmod", torch.fmod(x, scale))
report("x - x % s", x - x % scale)

# gradient w.r.t. a learnable scale through the div rounding modes
s = torch.tensor(scale, requires_grad=True)
q = torch.round(x.detach() / s) * s
q.sum().backward()
print("d/ds round(x/s)*s", f"{s.grad.item():.4f}")
s.grad = None
r = torch.remainder(x.detach(), s)
r.sum().backward()
print("d/ds remainder", f"{s.grad.item():.4f}")
s.grad = None
f = torch.fmod(x.detach(), s)
f.sum().backward()
print("d/ds fmod", f"{s.grad.item():.4f}")
