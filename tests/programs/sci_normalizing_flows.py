# Normalizing flows as in the "variational inference with normalizing flows" and RealNVP
# tutorials: a planar flow and an affine coupling layer with their log-det-Jacobians, checked
# against torch.slogdet / torch.logdet of the autograd Jacobian, the change-of-variables
# log-likelihood under a standard Normal base, and one maximum-likelihood training step.
import torch
import torch.nn as nn
from torch.distributions import Normal, MultivariateNormal, Independent

torch.set_printoptions(precision=5)


class PlanarFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.u = nn.Parameter(torch.linspace(-0.5, 0.5, dim))
        self.w = nn.Parameter(torch.linspace(0.3, 1.0, dim))
        self.b = nn.Parameter(torch.tensor(0.1))

    def forward(self, z):
        lin = z @ self.w + self.b
        f = z + self.u * torch.tanh(lin).unsqueeze(-1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(-1) * self.w
        logdet = torch.log(torch.abs(1 + psi @ self.u))
        return f, logdet


class AffineCoupling(nn.Module):
    def __init__(self, dim, hidden=4):
        super().__init__()
        self.half = dim // 2
        self.net = nn.Sequential(nn.Linear(self.half, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2 * (dim - self.half)))
        with torch.no_grad():
            for i, p in enumerate(self.net.parameters()):
                p.copy_(0.3 * torch.sin(torch.arange(p.numel()) + 2.0 * i).reshape(p.shape))

    def forward(self, x):
        x1, x2 = x[..., :self.half], x[..., self.half:]
        s, t = self.net(x1).chunk(2, dim=-1)
        s = torch.tanh(s)
        y2 = x2 * torch.exp(s) + t
        return torch.cat([x1, y2], dim=-1), s.sum(-1)

    def inverse(self, y):
        y1, y2 = y[..., :self.half], y[..., self.half:]
        s, t = self.net(y1).chunk(2, dim=-1)
        s = torch.tanh(s)
        return torch.cat([y1, (y2 - t) * torch.exp(-s)], dim=-1)


z = torch.tensor([[0.5, -1.0, 0.25, 2.0], [-0.3, 0.7, 1.2, -0.4], [0.0, 0.1, -0.2, 0.3]])
planar = PlanarFlow(4)
fz, ld = planar(z)
print(fz)
print(ld, ld.grad_fn.name())

# compare with the log|det J| of the autograd Jacobian, sample by sample
for i in range(2):
    J = torch.autograd.functional.jacobian(lambda v: planar(v)[0], z[i])
    sign, logabs = torch.slogdet(J)
    print(J.shape, sign, logabs, torch.logdet(J), ld[i])
print(torch.linalg.slogdet(torch.eye(3) * -2.0))

coupling = AffineCoupling(4)
y, ld_c = coupling(z)
print(y)
print(ld_c)
print(torch.allclose(coupling.inverse(y), z, atol=1e-6))
J = torch.autograd.functional.jacobian(lambda v: coupling(v)[0], z[0])
print(torch.det(J), ld_c[0].exp())
print(torch.triu(J, diagonal=1).abs().sum() == 0, J.diagonal())

# change of variables: log p(x) = log N(f^{-1}(x)) + log|det|
base = Normal(torch.zeros(4), torch.ones(4))
print(base)
print(base.log_prob(z).shape, base.log_prob(z).sum(-1))
indep = Independent(base, 1)
print(indep.batch_shape, indep.event_shape, indep.log_prob(z))
mvn = MultivariateNormal(torch.zeros(4), covariance_matrix=torch.eye(4))
print(mvn.log_prob(z))

flows = nn.ModuleList([PlanarFlow(4), AffineCoupling(4)])
opt = torch.optim.SGD(flows.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    h, total = z, torch.zeros(z.shape[0])
    for flow in flows:
        h, l = flow(h)
        total = total + l
    nll = -(indep.log_prob(h) + total).mean()
    nll.backward()
    opt.step()
    print(step, f"{nll.item():.5f}", flows[0].u.grad, flows[0].b.grad)

n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.mean, n.stddev, n.variance, n.entropy())
print(n.cdf(torch.tensor([0.0, 3.0])), n.icdf(torch.tensor([0.5, 0.8413])))
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError:", e)
