# Invertible linear layers for flows (Glow 1x1 / "LU-decomposed" and matrix-exponential
# parameterizations as in nflows): W = P L (U + diag(s)), log|det W| = sum log|s|, exact inverses
# with solve_triangular / lu_solve, matrix_exp with logdet = trace, trained by maximum likelihood.
import torch
import torch.nn as nn
from torch.distributions import Independent, Normal

torch.manual_seed(0)
D = 4
W0 = torch.eye(D) + 0.3 * torch.sin(torch.arange(D * D, dtype=torch.float32).reshape(D, D))
P, L, U = torch.linalg.lu(W0)
print(P, L.round(decimals=4), U.round(decimals=4), sep="\n")
print(torch.allclose(P @ L @ U, W0, atol=1e-6))
LU, piv = torch.linalg.lu_factor(W0)
print(piv, torch.lu_unpack(LU, piv)[0].equal(P))


class LULinear(nn.Module):
    def __init__(self, W):
        super().__init__()
        P, L, U = torch.linalg.lu(W)
        s = torch.diagonal(U)
        self.register_buffer("P", P)
        self.register_buffer("sign_s", torch.sign(s))
        self.register_buffer("l_mask", torch.tril(torch.ones(D, D), -1))
        self.L = nn.Parameter(L)
        self.U = nn.Parameter(torch.triu(U, 1))
        self.log_s = nn.Parameter(torch.log(torch.abs(s)))

    def weight(self):
        L = self.L * self.l_mask + torch.eye(D)
        U = self.U * self.l_mask.T + torch.diag(self.sign_s * torch.exp(self.log_s))
        return self.P @ L @ U, L, U

    def forward(self, x):
        W, _, _ = self.weight()
        return x @ W.T, self.log_s.sum().expand(x.shape[0])

    def inverse(self, y):
        _, L, U = self.weight()
        z = torch.linalg.solve_triangular(L, (self.P.T @ y.T), upper=False, unitriangular=True)
        return torch.linalg.solve_triangular(U, z, upper=True).T


class ExpLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.A = nn.Parameter(0.1 * torch.cos(torch.arange(D * D, dtype=torch.float32).reshape(D, D)))

    def forward(self, x):
        return x @ torch.linalg.matrix_exp(self.A).T, torch.trace(self.A).expand(x.shape[0])


layer = LULinear(W0)
x = torch.stack([torch.linspace(-1, 1, D) * k for k in range(1, 4)])
y, ld = layer(x)
print(y.round(decimals=4))
print(ld, torch.linalg.slogdet(layer.weight()[0]))
print(torch.allclose(layer.inverse(y), x, atol=1e-5))
e = ExpLinear()
ye, lde = e(x)
print(f"{lde[0].item():.5f} {torch.logdet(torch.linalg.matrix_exp(e.A)).item():.5f}")
print(torch.allclose(torch.linalg.matrix_exp(-e.A) @ torch.linalg.matrix_exp(e.A), torch.eye(D), atol=1e-6))
lu_inv = torch.linalg.lu_solve(*torch.linalg.lu_factor(W0), y.T).T
print(torch.allclose(lu_inv, x @ layer.weight()[0].T @ torch.linalg.inv(W0).T @ W0.T @ torch.linalg.inv(W0).T, atol=1e-4))

t = torch.linspace(0, 6.28, 64)
data = torch.stack([torch.sin(t), 0.5 * torch.cos(t), 0.2 * torch.sin(2 * t) + 1, t / 6.28 - 0.5], 1)
base = Independent(Normal(torch.zeros(D), torch.ones(D)), 1)
flow = nn.ModuleList([LULinear(W0), ExpLinear()])
opt = torch.optim.Adam(flow.parameters(), lr=0.02)
for step in range(40):
    z, total = data, torch.zeros(len(data))
    for f in flow:
        z, ld = f(z)
        total = total + ld
    loss = -(base.log_prob(z) + total).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0 or step == 39:
        print(f"step {step:2d} nll {loss.item():.4f}")
print(flow[0].L.grad.triu().abs().sum().item(), flow[0].log_s.grad.shape, flow[1].A.grad.shape)
print(sorted(flow.state_dict().keys()))
