# Hutchinson trace estimator of the score Jacobian vs. the exact trace from torch.func.jacfwd/jacrev
# (tiny 3-D inputs), Rademacher probes from torch.randint(..., generator=g) * 2 - 1 (only RNG-free
# facts printed) and from a deterministic sign pattern for the values.
import torch
import torch.nn as nn
from torch.func import functional_call, jacfwd, jacrev, vmap

torch.set_printoptions(precision=4)


class Score(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(3, 12)
        self.l2 = nn.Linear(12, 3)
        self.act = nn.Mish()

    def forward(self, x):
        return self.l2(self.act(self.l1(x)))


model = Score()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p))
params = {k: v.detach() for k, v in model.named_parameters()}

x = torch.stack([torch.linspace(-1, 1, 5), torch.sin(torch.arange(5.0)), torch.linspace(0.5, -0.5, 5)], 1)


def score_single(xi):
    return functional_call(model, params, (xi,))


J_fwd = vmap(jacfwd(score_single))(x)
J_rev = vmap(jacrev(score_single))(x)
exact = J_fwd.diagonal(dim1=-2, dim2=-1).sum(-1)
print("jacobian", tuple(J_fwd.shape), torch.allclose(J_fwd, J_rev, atol=1e-6))
print("exact trace", exact)

g = torch.Generator().manual_seed(0)
probe = torch.randint(0, 2, (4, 5, 3), generator=g).float() * 2 - 1
print("rademacher", probe.dtype, tuple(probe.shape), sorted(probe.unique().tolist()), probe.abs().sum().item())
g2 = torch.Generator().manual_seed(0)
again = torch.randint(0, 2, (4, 5, 3), generator=g2).float() * 2 - 1
print("same seed same probes:", torch.equal(probe, again))

probes = torch.sign(torch.sin(torch.arange(64 * 15, dtype=torch.float32) * 2.17 + 0.3)).view(64, 5, 3)


def hutchinson(model, x, probes):
    x = x.clone().requires_grad_(True)
    s = model(x)
    est = torch.zeros(x.shape[0])
    for v in probes:
        (vj,) = torch.autograd.grad(s, x, grad_outputs=v, retain_graph=True, create_graph=True)
        est = est + (vj * v).sum(-1)
    return est / len(probes)


est = hutchinson(model, x, probes)
print("hutchinson", est.detach())
print("abs error", f"{(est - exact).abs().mean().item():.3f}", est.requires_grad)

# the sm objective: tr(J) + 0.5 |s|^2, backprop to the parameters
s = model(x)
obj = (est + 0.5 * s.pow(2).sum(-1)).mean()
obj.backward()
print(f"objective {obj.item():.4f}", {k: round(p.grad.norm().item(), 4) for k, p in model.named_parameters()})

# jvp along a fixed direction equals J @ v
_, jv = torch.func.jvp(score_single, (x[0],), (torch.tensor([1.0, 0.0, -1.0]),))
print(jv, J_fwd[0] @ torch.tensor([1.0, 0.0, -1.0]))
out, vjp_fn = torch.func.vjp(score_single, x[1])
(vj,) = vjp_fn(torch.ones(3))
print(out, vj, torch.allclose(vj, J_fwd[1].sum(0), atol=1e-6))
