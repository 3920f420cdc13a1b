# "Why are my gradients NaN?" in differentiable physics: norms / sqrt at zero separation, the
# torch.where trap (NaN from the untaken branch) and the double-where fix, a "safe norm" with an
# epsilon, clamp/abs/relu subgradients at the kink, and torch.autograd.detect_anomaly to locate it.
import warnings
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)

# two particles on top of each other: distance via sqrt of the squared sum
pos = torch.tensor([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]], requires_grad=True)
d = pos[1:] - pos[:1]
r = torch.sqrt((d ** 2).sum(-1))
r.sum().backward()
print("sqrt-of-sum grad", pos.grad)
pos.grad = None
r = d.norm(dim=-1)
r.sum().backward()
print("norm grad      ", pos.grad)
pos.grad = None
r = torch.linalg.vector_norm(d, dim=-1)
r.sum().backward()
print("vector_norm    ", pos.grad)
pos.grad = None
r = torch.sqrt((d ** 2).sum(-1) + 1e-12)
r.sum().backward()
print("safe norm      ", pos.grad)

# the torch.where trap: 1/r is computed everywhere, the masked branch still poisons the grad
x = torch.tensor([0.0, 0.5, 2.0], requires_grad=True)
y = torch.where(x > 0, 1.0 / x, torch.zeros_like(x))
y.sum().backward()
print("where grad", x.grad)
x.grad = None
safe_x = torch.where(x > 0, x, torch.ones_like(x))
y = torch.where(x > 0, 1.0 / safe_x, torch.zeros_like(x))
y.sum().backward()
print("double-where grad", x.grad)
x.grad = None
y = (x * torch.log(x)).nan_to_num(0.0)
y.sum().backward()
print("x log x with nan_to_num", y.detach(), x.grad)
x.grad = None
torch.special.xlogy(x, x).sum().backward()
print("xlogy grad", x.grad)

# kinks: gradients exactly at the boundary
z = torch.tensor([-1.0, 0.0, 1.0, 2.0], requires_grad=True)
for name, fn in [("abs", torch.abs), ("relu", torch.relu), ("clamp(0,1)", lambda t: t.clamp(0, 1)),
                 ("clamp_min(0)", lambda t: t.clamp_min(0)), ("sign", torch.sign),
                 ("hardtanh", torch.nn.functional.hardtanh), ("max(t,0)", lambda t: torch.maximum(t, torch.zeros_like(t))),
                 ("sqrt(relu)", lambda t: torch.sqrt(torch.relu(t)))]:
    z.grad = None
    fn(z).sum().backward()
    print(f"{name:12s}", z.grad)

# ties in reductions: max over particles' heights
h = torch.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
h.max().backward()
print("max() ties", h.grad)
h.grad = None
torch.amax(h, dim=0).backward()
print("amax ties", h.grad)
h.grad = None
h.max(dim=0).values.backward()
print("max(dim) ties", h.grad)
h.grad = None
torch.logsumexp(h * 50, dim=0).div(50).backward()
print("soft max", h.grad)

# atan2 at the origin (angle of a zero-length spring)
v = torch.tensor([[0.0, 0.0], [1.0, 1.0]], requires_grad=True)
ang = torch.atan2(v[:, 1], v[:, 0])
ang.sum().backward()
print("atan2", ang.detach(), v.grad)

# locating the NaN with anomaly detection
a = torch.tensor([0.0, 1.0], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        with torch.autograd.detect_anomaly():
            out = (torch.sqrt(a) * 0.0).sum() + (a ** 2).sum()
            out.backward()
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(".")[0])
print("after anomaly", a.grad)
print(torch.isnan(torch.tensor([0.0]).sqrt().pow(-1) * 0.0))
