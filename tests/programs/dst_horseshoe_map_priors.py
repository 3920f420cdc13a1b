# MAP training of a sparse linear model with hierarchical shrinkage priors written with
# torch.distributions: horseshoe (HalfCauchy local/global scales), Laplace (Bayesian lasso),
# Student-t and spike-and-slab-like mixtures; log-prior gradients and shrinkage profiles.
import torch
import torch.distributions as D

torch.set_printoptions(precision=4, sci_mode=False)
N, P = 30, 6
X = torch.stack([torch.sin(torch.arange(N) * (0.3 + 0.2 * j)) for j in range(P)], 1)
w_true = torch.tensor([2.0, 0.0, -1.5, 0.0, 0.0, 0.5])
y = X @ w_true + 0.1 * torch.cos(torch.arange(N) * 1.7)


def horseshoe(w, raw_lam, raw_tau):
    lam, tau = raw_lam.exp(), raw_tau.exp()
    lp = D.Normal(0.0, lam * tau).log_prob(w).sum()
    lp = lp + D.HalfCauchy(1.0).log_prob(lam).sum() + raw_lam.sum()      # + log|Jacobian|
    lp = lp + D.HalfCauchy(0.1).log_prob(tau) + raw_tau
    return lp


priors = {
    "horseshoe": None,
    "laplace": lambda w: D.Laplace(0.0, 0.3).log_prob(w).sum(),
    "student_t": lambda w: D.StudentT(3.0, 0.0, 0.3).log_prob(w).sum(),
    "spike_slab": lambda w: D.MixtureSameFamily(
        D.Categorical(probs=torch.tensor([0.7, 0.3])),
        D.Normal(torch.zeros(2), torch.tensor([0.05, 2.0]))).log_prob(w).sum(),
    "gaussian": lambda w: D.Normal(0.0, 1.0).log_prob(w).sum(),
}
noise = D.Normal(0.0, 0.1)
for name, prior in priors.items():
    w = torch.zeros(P, requires_grad=True)
    extra = [torch.zeros(P, requires_grad=True), torch.tensor(-1.0, requires_grad=True)] if prior is None else []
    opt = torch.optim.Adam([w] + extra, lr=0.05)
    for step in range(200):
        log_prior = horseshoe(w, *extra) if prior is None else prior(w)
        log_lik = D.Normal(X @ w, 0.1).log_prob(y).sum()
        loss = -(log_lik + log_prior) / N
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name:10s} loss {loss.item():6.2f} w", [round(v, 1) + 0.0 for v in w.tolist()],
          "selected", (w.abs() > 0.1).tolist())

# shrinkage profile: prior log-density and its gradient at several weights
wv = torch.tensor([0.0, 0.01, 0.1, 1.0, 5.0], requires_grad=True)
for name, dist in [("Laplace", D.Laplace(0.0, 0.3)), ("StudentT", D.StudentT(3.0, 0.0, 0.3)),
                   ("HalfCauchy", D.HalfCauchy(0.3)), ("Cauchy", D.Cauchy(0.0, 0.3)),
                   ("Normal", D.Normal(0.0, 1.0))]:
    lp = dist.log_prob(wv)
    (g,) = torch.autograd.grad(lp.sum(), wv)
    print(f"{name:10s}", [round(v, 3) for v in lp.tolist()], [round(v, 3) for v in g.tolist()])
hc = D.HalfCauchy(torch.tensor([0.1, 1.0]))
print(hc, hc.mean, hc.variance, hc.entropy(), hc.support)
print(hc.cdf(torch.tensor([0.1, 1.0])), hc.icdf(torch.tensor([0.5, 0.9])))
try:
    hc.log_prob(torch.tensor([-0.5, 1.0]))
except ValueError as e:
    print("ValueError", str(e).split(" of the distribution")[0])
print(D.HalfCauchy(1.0, validate_args=False).log_prob(torch.tensor(-0.5)))
