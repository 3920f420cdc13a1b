# Count GLMs fit with torch.distributions likelihoods (statsmodels-style notebook): grouped
# logistic regression with Binomial(total_count, logits), Poisson regression with an exposure
# offset, NegativeBinomial for overdispersion, deviance / AIC, and near-separable extreme logits.
import torch
import torch.distributions as D

torch.set_printoptions(precision=4, sci_mode=False)
dose = torch.linspace(-1.0, 1.0, 8)
trials = torch.tensor([10., 12., 8., 15., 10., 9., 14., 11.])
deaths = torch.tensor([1., 2., 2., 6., 6., 6., 12., 11.])
X = torch.stack([torch.ones(8), dose], 1)

beta = torch.zeros(2, requires_grad=True)
opt = torch.optim.LBFGS([beta], lr=0.5, max_iter=50, line_search_fn="strong_wolfe")


def binom_nll():
    opt.zero_grad()
    nll = -D.Binomial(trials, logits=X @ beta).log_prob(deaths).sum()
    nll.backward()
    return nll


opt.step(binom_nll)
fit = D.Binomial(trials, logits=X @ beta)
sat = D.Binomial(trials, probs=deaths / trials)
dev = 2 * (sat.log_prob(deaths) - fit.log_prob(deaths)).sum()
print("binomial beta", [round(b, 2) for b in beta.tolist()], f"deviance {dev.item():.4f}", f"AIC {2 * binom_nll().item() + 4:.4f}")
print("fitted", [round(m, 2) for m in fit.mean.tolist()])
print("saturated lp", sat.log_prob(deaths))

# extreme logits: certain outcomes give exactly zero log-probability
ext = D.Binomial(torch.tensor([5., 5., 5., 5.]), logits=torch.tensor([-60., 60., -120., 120.]))
print("extreme", ext.log_prob(torch.tensor([0., 5., 0., 5.])), ext.log_prob(torch.tensor([1., 4., 1., 4.])))
print("extreme mean/var", ext.mean, ext.variance)

# Poisson regression with log exposure offset
exposure = torch.tensor([100., 150., 80., 200., 120., 90., 160., 140.])
events = torch.tensor([2., 5., 2., 9., 8., 7., 15., 16.])
w = torch.zeros(2, requires_grad=True)
opt2 = torch.optim.Adam([w], lr=0.1)
for step in range(150):
    rate = torch.exp(X @ w + exposure.log())
    nll = -D.Poisson(rate).log_prob(events).sum()
    opt2.zero_grad()
    nll.backward()
    opt2.step()
    if step % 30 == 0:
        print("poisson", step, f"{nll.item():.4f}", [round(v, 4) for v in w.tolist()])
rate = torch.exp(X @ w + exposure.log()).detach()
pearson = ((events - rate) ** 2 / rate).sum() / (8 - 2)
print("dispersion", f"{pearson.item():.4f}")

# negative binomial with a learned total_count (overdispersion)
log_r = torch.tensor(1.0, requires_grad=True)
v = torch.zeros(2, requires_grad=True)
opt3 = torch.optim.Adam([log_r, v], lr=0.05)
for step in range(120):
    mu = torch.exp(X @ v + exposure.log())
    r = log_r.exp()
    nb = D.NegativeBinomial(total_count=r, logits=mu.log() - r.log())
    nll = -nb.log_prob(events).sum()
    opt3.zero_grad()
    nll.backward()
    opt3.step()
print("negbin", f"{nll.item():.4f}", f"r={log_r.exp().item():.3f}", [round(t, 4) for t in v.tolist()])
print("nb mean matches mu", torch.allclose(nb.mean, mu, rtol=1e-4), nb.variance[:3])
print("grads", log_r.grad, v.grad)
