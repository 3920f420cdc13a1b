# Maximum-likelihood fitting of distribution parameters through log_prob (as in "fit a
# distribution with PyTorch" tutorials): Gamma, StudentT (learned df), Beta, LogNormal and a
# Weibull, with softplus-constrained raw parameters; gradients go through lgamma/digamma/betaln.
import torch
import torch.nn.functional as F
import torch.distributions as D

torch.set_default_dtype(torch.float64)
u = (torch.arange(1, 201) - 0.5) / 200
gamma_data = D.Gamma(3.0, 2.0).icdf(u) if False else -torch.log1p(-u) * 0.7 + 0.3 * torch.sin(40 * u) ** 2 + 0.05
student_data = torch.tan(torch.pi * (u - 0.5)).clamp(-20, 20) * 0.5 + 1.0
beta_data = 0.05 + 0.9 * u ** 1.7

fits = {
    "Gamma": (lambda a, b: D.Gamma(a, b), gamma_data),
    "LogNormal": (lambda a, b: D.LogNormal(a - 1.0, b), gamma_data),
    "Weibull": (lambda a, b: D.Weibull(a, b), gamma_data),
    "Beta": (lambda a, b: D.Beta(a, b), beta_data),
    "Kumaraswamy": (lambda a, b: D.Kumaraswamy(a, b), beta_data),
    "InverseGamma": (lambda a, b: D.InverseGamma(a, b), gamma_data),
}
for name, (make, data) in fits.items():
    raw = torch.zeros(2, requires_grad=True)
    opt = torch.optim.Adam([raw], lr=0.05)
    for step in range(80):
        a, b = F.softplus(raw) + 1e-3
        nll = -make(a, b).log_prob(data).mean()
        opt.zero_grad()
        nll.backward()
        opt.step()
    a, b = F.softplus(raw.detach()) + 1e-3
    print(f"{name:12s} nll {nll.item():.4f} params {a.item():.3f} {b.item():.3f} grad {raw.grad.abs().max().item():.3f}")

df_raw = torch.tensor(1.0, requires_grad=True)
loc = torch.tensor(0.0, requires_grad=True)
log_scale = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([df_raw, loc, log_scale], lr=0.05)
for step in range(100):
    dist = D.StudentT(F.softplus(df_raw) + 0.5, loc, log_scale.exp())
    nll = -dist.log_prob(student_data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0 or step == 99:
        print(f"t step {step:3d} nll {nll.item():.4f} df {dist.df.item():.3f} loc {loc.item():.3f} scale {log_scale.exp().item():.3f}")
print(type(dist).__name__, dist.mean, dist.variance, D.StudentT(torch.tensor([1.5, 3.0])).variance)

c = torch.tensor([0.5, 2.0, 10.0], requires_grad=True)
lp = D.Gamma(c, 1.0).log_prob(torch.tensor([0.7, 1.5, 9.0])).sum()
print(torch.autograd.grad(lp, c)[0])
print(torch.digamma(c.detach()), torch.polygamma(1, c.detach()), torch.special.gammaln(c.detach()))
d = D.Dirichlet(torch.tensor([0.5, 1.0, 3.0], requires_grad=True))
print(torch.autograd.grad(d.log_prob(torch.tensor([0.2, 0.3, 0.5])), d.concentration)[0])
print(torch.autograd.grad(d.entropy(), d.concentration)[0])
print(D.Chi2(torch.tensor([1.0, 4.0])).log_prob(torch.tensor([0.5, 3.0])), D.Chi2(4.0).mean)
