# Deep evidential regression (Amini et al.): a head predicting Normal-Inverse-Gamma parameters
# (gamma, nu, alpha, beta) with softplus constraints, the NIG negative log-likelihood written with
# lgamma, the evidence regulariser, and aleatoric / epistemic uncertainty read-outs.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class EvidentialHead(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.out = nn.Linear(n_in, 4)

    def forward(self, h):
        gamma, lognu, logalpha, logbeta = self.out(h).chunk(4, dim=-1)
        nu = F.softplus(lognu)
        alpha = F.softplus(logalpha) + 1.0
        beta = F.softplus(logbeta)
        return gamma, nu, alpha, beta


def nig_nll(y, gamma, nu, alpha, beta):
    omega = 2.0 * beta * (1.0 + nu)
    return (0.5 * torch.log(math.pi / nu)
            - alpha * torch.log(omega)
            + (alpha + 0.5) * torch.log(nu * (y - gamma) ** 2 + omega)
            + torch.lgamma(alpha) - torch.lgamma(alpha + 0.5))


def nig_reg(y, gamma, nu, alpha):
    return (y - gamma).abs() * (2 * nu + alpha)


x = torch.linspace(-3, 3, 48).unsqueeze(1)
y = x.pow(3) / 10 + 0.2 * torch.sin(6 * x)

model = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), EvidentialHead(16))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.57 + 1.3 * i).reshape(p.shape))

opt = torch.optim.Adam(model.parameters(), lr=0.01)
lam = 0.01
for step in range(40):
    gamma, nu, alpha, beta = model(x)
    nll = nig_nll(y, gamma, nu, alpha, beta).mean()
    reg = nig_reg(y, gamma, nu, alpha).mean()
    loss = nll + lam * reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 8 == 0:
        print(f"step {step:2d} nll {nll.item():.4f} reg {reg.item():.4f}")

with torch.no_grad():
    xt = torch.tensor([[-5.0], [-2.0], [0.0], [2.0], [5.0]])
    gamma, nu, alpha, beta = model(xt)
    aleatoric = beta / (alpha - 1)
    epistemic = beta / (nu * (alpha - 1))
print("alpha > 1", bool((alpha > 1).all()), "nu > 0", bool((nu > 0).all()))
print("pred", gamma.squeeze(1).round(decimals=2))
print("aleatoric", aleatoric.squeeze(1).round(decimals=3))
print("epistemic", epistemic.squeeze(1).round(decimals=3))

# the NIG NLL is the negative log of a Student-t with 2*alpha dof
g0, n0, a0, b0 = (torch.tensor([v]) for v in (0.3, 2.0, 3.0, 1.5))
st = torch.distributions.StudentT(2 * a0, g0, torch.sqrt(b0 * (1 + n0) / (n0 * a0)))
yy = torch.tensor([-1.0, 0.0, 0.3, 2.0])
print("nig nll ", nig_nll(yy, g0, n0, a0, b0))
print("student ", -st.log_prob(yy))
print("match", torch.allclose(nig_nll(yy, g0, n0, a0, b0), -st.log_prob(yy), atol=1e-5))
print(torch.lgamma(torch.tensor([0.5, 1.0, 3.5, 10.0])))
print(torch.digamma(torch.tensor([0.5, 1.0, 3.5])), torch.special.gammaln(torch.tensor(4.0)))
