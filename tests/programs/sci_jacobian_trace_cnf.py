# Continuous normalizing flows / Jacobian regularization as researchers write them: the exact
# divergence (trace of df/dz) by a loop of torch.autograd.grad over dimensions, Hutchinson's
# estimator with fixed probe vectors (vjp), torch.autograd.functional.jacobian on a batch with
# vectorize=True and create_graph=True, a Frobenius-norm Jacobian penalty, and a log-density
# update dlogp/dt = -tr(df/dz) integrated with Euler steps.
import torch
import torch.nn as nn
from torch.autograd.functional import jacobian, jvp, vjp, hvp

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)


class Dynamics(nn.Module):
    def __init__(self, dim=3, hidden=8):
        super().__init__()
        self.l1 = nn.Linear(dim + 1, hidden)
        self.l2 = nn.Linear(hidden, dim)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.4 * torch.sin(torch.arange(p.numel()) * 0.61 + 2 * i).reshape(p.shape))

    def forward(self, t, z):
        tt = torch.full_like(z[:, :1], float(t))
        return self.l2(torch.tanh(self.l1(torch.cat([z, tt], dim=1))))


def exact_divergence(f, z):
    div = torch.zeros(z.shape[0])
    for i in range(z.shape[1]):
        div = div + torch.autograd.grad(f[:, i].sum(), z, create_graph=True)[0][:, i]
    return div


def hutchinson(f, z, eps):
    e_dfdz, = torch.autograd.grad(f, z, grad_outputs=eps, create_graph=True)
    return (e_dfdz * eps).sum(dim=1)


func = Dynamics()
z = torch.tensor([[0.5, -1.0, 0.2], [1.0, 0.3, -0.7]], requires_grad=True)
f = func(0.0, z)
div = exact_divergence(f, z)
print(f)
print(div, div.grad_fn.name())

# Jacobian per sample: the trace matches the exact divergence
J = jacobian(lambda zz: func(0.0, zz), z)
print(J.shape)
per_sample = torch.stack([J[b, :, b, :] for b in range(z.shape[0])])
print(torch.diagonal(per_sample, dim1=-2, dim2=-1).sum(-1))
Jv = jacobian(lambda zz: func(0.0, zz), z, vectorize=True)
print(torch.allclose(J, Jv))
Jc = jacobian(lambda zz: func(0.0, zz).sum(0), z, create_graph=True)
print(Jc.shape, Jc.requires_grad)

probes = [torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]]), torch.tensor([[-1.0, 1.0, 1.0], [1.0, -1.0, -1.0]])]
est = torch.stack([hutchinson(f, z, e) for e in probes]).mean(0)
print(est)

# Jacobian Frobenius penalty ||df/dz||_F^2 and its gradient w.r.t. the parameters
frob = sum(torch.autograd.grad(f[:, i].sum(), z, create_graph=True)[0].pow(2).sum() for i in range(3))
frob.backward()
print(f"{frob.item():.6f}", func.l1.weight.grad[0], func.l2.bias.grad)

# Euler integration of the state and the log-density
func.zero_grad()
zt = z.detach().clone()
logp = -0.5 * (zt ** 2).sum(1) - 1.5 * torch.log(torch.tensor(2 * torch.pi))
print(logp)
dt = 0.25
for k in range(4):
    zt = zt.detach().requires_grad_(True) if k == 0 else zt
    ft = func(k * dt, zt)
    logp = logp - dt * exact_divergence(ft, zt)
    zt = zt + dt * ft
print(zt, logp)
(-logp.mean()).backward()
print(func.l2.weight.grad[:, :3])

# functional products of the flow map
v = torch.tensor([1.0, 0.0, -1.0])
print(jvp(lambda zz: func(0.0, zz.unsqueeze(0)).squeeze(0), z[0].detach(), v))
print(vjp(lambda zz: func(0.0, zz.unsqueeze(0)).squeeze(0), z[0].detach(), v))
print(hvp(lambda zz: func(0.0, zz.unsqueeze(0)).pow(2).sum(), z[0].detach(), v, create_graph=True)[1].requires_grad)
