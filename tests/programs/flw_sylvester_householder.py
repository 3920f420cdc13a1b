# Householder and orthogonal Sylvester flows (van den Berg et al. 2018) as in VAE-with-flows
# code: Householder reflections, Q from torch.linalg.qr, triangular R with tanh-bounded diagonal,
# log|det| as the sum of log|1 + diag products|, checked against slogdet of the Jacobian.
import torch
import torch.nn as nn
from torch.distributions import Normal, Independent

torch.set_default_dtype(torch.float64)
D = 4


def householder(z, v):
    v = v / v.norm(dim=-1, keepdim=True)
    return z - 2 * (z * v).sum(-1, keepdim=True) * v


class Sylvester(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        ar = torch.arange(d * d, dtype=torch.float64).reshape(d, d)
        self.A = nn.Parameter(torch.sin(ar * 0.9 + k) + 2 * torch.eye(d))
        self.r1 = nn.Parameter(0.5 * torch.cos(ar * 0.4 + k))
        self.r2 = nn.Parameter(0.5 * torch.sin(ar * 0.6 - k))
        self.b = nn.Parameter(0.1 * torch.arange(d, dtype=torch.float64))

    def forward(self, z):
        Q, R = torch.linalg.qr(self.A)
        diag1 = torch.tanh(torch.diagonal(self.r1))
        diag2 = torch.tanh(torch.diagonal(self.r2))
        R1 = torch.triu(self.r1, 1) + torch.diag(diag1)
        R2 = torch.triu(self.r2, 1) + torch.diag(diag2)
        pre = z @ Q @ R2.T + self.b
        h = torch.tanh(pre)
        out = z + h @ R1.T @ Q.T
        dh = 1 - h ** 2
        log_det = torch.log(torch.abs(1 + dh * diag1 * diag2)).sum(-1)
        return out, log_det


Q, R = torch.linalg.qr((torch.sin(torch.arange(16.0).reshape(4, 4) * 0.9) + 2 * torch.eye(4)))
print(Q.round(decimals=4))
print(R.round(decimals=4))
print(torch.allclose(Q.T @ Q, torch.eye(4)), torch.dist(Q @ R, (torch.sin(torch.arange(16.0).reshape(4, 4) * 0.9) + 2 * torch.eye(4))) < 1e-12)
Qr, Rr = torch.linalg.qr(torch.arange(12.0).reshape(4, 3) + torch.eye(4, 3), mode="reduced")
Qc, Rc = torch.linalg.qr(torch.arange(12.0).reshape(4, 3) + torch.eye(4, 3), mode="complete")
print(Qr.shape, Rr.shape, Qc.shape, Rc.shape)
print(torch.linalg.qr(torch.eye(3), mode="r"))

vs = torch.stack([torch.cos(torch.arange(D) * 1.0 + k) for k in range(3)])
z = torch.stack([torch.linspace(-1, 1, D), torch.linspace(1, 0, D)])
zh = z
for v in vs:
    zh = householder(zh, v)
print(zh.norm(dim=-1), z.norm(dim=-1))
H = torch.eye(D) - 2 * torch.outer(vs[0], vs[0]) / vs[0].dot(vs[0])
print(f"{torch.linalg.det(H).item():.4f}", torch.linalg.eigvalsh(H))

flows = nn.ModuleList([Sylvester(D, k) for k in range(3)])
z0 = torch.stack([torch.sin(torch.arange(D) * 0.5 + i) for i in range(5)])
zk, total = z0, torch.zeros(5)
for f in flows:
    zk, ld = f(zk)
    total = total + ld
print(zk.round(decimals=4))
print(total)

x0 = z0[2]
J = torch.autograd.functional.jacobian(lambda v: flows[0](v.unsqueeze(0))[0][0], x0)
sign, logabs = torch.slogdet(J)
print(sign, logabs, flows[0](x0.unsqueeze(0))[1])

base = Independent(Normal(torch.zeros(D), torch.ones(D)), 1)
target = Independent(Normal(torch.tensor([1.0, -1.0, 0.5, 0.0]), torch.tensor([0.5, 1.0, 2.0, 0.8])), 1)
opt = torch.optim.Adam(flows.parameters(), lr=0.02)
for step in range(30):
    zk, total = z0, torch.zeros(5)
    for f in flows:
        zk, ld = f(zk)
        total = total + ld
    loss = (base.log_prob(z0) - total - target.log_prob(zk)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} kl {loss.item():.5f}")
print(flows[0].A.grad.shape, flows[0].r1.grad.tril(-1).abs().sum())
