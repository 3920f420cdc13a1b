# Score-based sampling tutorial: scores grad_x log p(x) of MixtureSameFamily / MultivariateNormal /
# StudentT targets via autograd, unadjusted Langevin steps with a fixed noise table, Hessian-based
# curvature, and a mixture quantile found by bisection on MixtureSameFamily.cdf.
import math
import torch
import torch.distributions as D

torch.set_printoptions(precision=4, sci_mode=False)
mix = D.MixtureSameFamily(D.Categorical(probs=torch.tensor([0.3, 0.7])),
                          D.Normal(torch.tensor([-2.0, 1.5]), torch.tensor([0.5, 0.8])))
mvn_mix = D.MixtureSameFamily(
    D.Categorical(logits=torch.tensor([0.0, 0.5, -0.5])),
    D.MultivariateNormal(torch.tensor([[-2.0, 0.0], [2.0, 1.0], [0.0, -2.0]]),
                         scale_tril=torch.tensor([[0.6, 0.0], [0.2, 0.5]]).expand(3, 2, 2)))
heavy = D.Independent(D.StudentT(3.0, torch.zeros(2), torch.ones(2)), 1)


def score(dist, x):
    x = x.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(dist.log_prob(x).sum(), x)
    return g


xs = torch.linspace(-3, 3, 7)
print("1-D mixture score", score(mix, xs))
print("log_prob", mix.log_prob(xs))
grid = torch.stack([torch.linspace(-2, 2, 5), torch.linspace(1, -1, 5)], 1)
print("2-D mixture score\n", score(mvn_mix, grid))
print("student-t score\n", score(heavy, grid))
H = torch.autograd.functional.hessian(lambda v: mvn_mix.log_prob(v), torch.tensor([0.5, 0.0]))
print("hessian\n", H, torch.linalg.eigvalsh(H))

# unadjusted Langevin with a deterministic noise table
noise = torch.stack([torch.sin(torch.arange(2.0) * 1.3 + 0.7 * k) for k in range(40)])
x = torch.tensor([[0.0, 0.0], [3.0, 3.0], [-3.0, -1.0]])
eps = 0.05
for k in range(40):
    x = x + eps * score(mvn_mix, x) + math.sqrt(2 * eps) * 0.3 * noise[k]
    if k % 10 == 9:
        print(k, [[round(v, 3) for v in row] for row in x.tolist()],
              [round(v, 3) for v in mvn_mix.log_prob(x).tolist()])

# quantiles of the 1-D mixture by bisection on its cdf
qs = torch.tensor([0.05, 0.3, 0.5, 0.9])
lo, hi = torch.full_like(qs, -10.0), torch.full_like(qs, 10.0)
for _ in range(40):
    mid = (lo + hi) / 2
    below = mix.cdf(mid) < qs
    lo, hi = torch.where(below, mid, lo), torch.where(below, hi, mid)
print("quantiles", (lo + hi) / 2, mix.cdf((lo + hi) / 2))
print("mean/var", mix.mean, mix.variance, mvn_mix.mean, mvn_mix.variance)
ex = mix.expand((3,))
print(ex.batch_shape, ex.log_prob(torch.zeros(3)), ex.cdf(torch.tensor([-2.0, 0.0, 2.0])))
