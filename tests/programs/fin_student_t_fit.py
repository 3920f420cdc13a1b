# Fat-tailed return fit: torch.distributions.StudentT log_prob summed for MLE of (df, loc, scale),
# comparing with a Normal fit by AIC; plus StudentT mean/variance/entropy and rsample shapes.
import torch
from torch.distributions import StudentT, Normal, Laplace, Cauchy

dtype = torch.float64
u = torch.linspace(0.002, 0.998, 400, dtype=dtype)
# quantiles of a t(4) built from a ratio: deterministic heavy-tailed sample
z = torch.special.ndtri(u)
x = 0.001 + 0.012 * z * (1 + 0.35 * z.abs())
print("sample kurtosis", f"{(((x - x.mean()) / x.std()) ** 4).mean().item():.4f}")

raw_df = torch.tensor(1.0, dtype=dtype, requires_grad=True)
loc = torch.tensor(0.0, dtype=dtype, requires_grad=True)
log_scale = torch.tensor(-4.0, dtype=dtype, requires_grad=True)
opt = torch.optim.Adam([raw_df, loc, log_scale], lr=0.05)
for step in range(40):
    opt.zero_grad()
    dist = StudentT(df=2.0 + torch.nn.functional.softplus(raw_df), loc=loc, scale=log_scale.exp())
    nll = -dist.log_prob(x).sum()
    nll.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"{nll.item():.3f}")
dist = StudentT(df=2.0 + torch.nn.functional.softplus(raw_df.detach()), loc=loc.detach(), scale=log_scale.exp().detach())
print(f"df={dist.df.item():.3f} loc={dist.loc.item():.5f} scale={dist.scale.item():.5f}")
print("t mean", f"{dist.mean.item():.5f}", "var", f"{dist.variance.item():.3e}")
print("t entropy", f"{dist.entropy().item():.5f}")

nrm = Normal(x.mean(), x.std(unbiased=False))
ll_t = dist.log_prob(x).sum()
ll_n = nrm.log_prob(x).sum()
print(f"AIC t={2 * 3 - 2 * ll_t.item():.2f} normal={2 * 2 - 2 * ll_n.item():.2f}")

# properties of the families
t1 = StudentT(torch.tensor([1.0, 2.0, 5.0], dtype=dtype))
print("mean", t1.mean)
print("variance", t1.variance)
print("entropy", t1.entropy())
print("batch_shape", t1.batch_shape, "event_shape", t1.event_shape)
print("sample shape", t1.rsample((4,)).shape)
print(t1)
lap = Laplace(torch.tensor(0.0, dtype=dtype), torch.tensor(0.01, dtype=dtype))
print("laplace ll", f"{lap.log_prob(x).sum().item():.3f}", "cdf", lap.cdf(torch.tensor([-0.01, 0.0, 0.02], dtype=dtype)))
print("laplace icdf", lap.icdf(torch.tensor([0.05, 0.5, 0.95], dtype=dtype)))
c = Cauchy(torch.tensor(0.0), torch.tensor(1.0))
print("cauchy cdf", c.cdf(torch.tensor([-1.0, 0.0, 1.0])), "entropy", c.entropy())
print("cauchy mean", c.mean, "var", c.variance)
try:
    StudentT(torch.tensor(-1.0))
except ValueError as e:
    print("ValueError", e)
