# Batched independent GPs (one per output / task) in a single batched cholesky, the same log
# likelihood written with torch.distributions.MultivariateNormal(scale_tril=...), batched
# slogdet / cholesky_inverse / solve_triangular(left=False), and posterior samples from fixed noise.
import math
import torch
from torch.distributions import MultivariateNormal

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

T, n = 3, 10
x = torch.linspace(0, 2, n)
Y = torch.stack([torch.sin(3 * x), torch.cos(2 * x), x ** 2 / 4 - 0.5])  # (T, n)
lengthscales = torch.tensor([0.3, 0.6, 1.2], requires_grad=True)
noise = torch.tensor([0.01, 0.02, 0.05])

d2 = (x[:, None] - x[None, :]) ** 2                         # (n, n)
K = torch.exp(-0.5 * d2 / lengthscales[:, None, None] ** 2)  # (T, n, n)
K = K + noise[:, None, None] * torch.eye(n)
L = torch.linalg.cholesky(K)
print("L", L.shape, L.grad_fn.name())

alpha = torch.cholesky_solve(Y.unsqueeze(-1), L)
quad = (Y.unsqueeze(-1) * alpha).sum((-1, -2))
logdet = 2 * L.diagonal(dim1=-2, dim2=-1).log().sum(-1)
mll = -0.5 * quad - 0.5 * logdet - 0.5 * n * math.log(2 * math.pi)
print("mll per task", mll)

mvn = MultivariateNormal(torch.zeros(T, n), scale_tril=L)
print(mvn.batch_shape, mvn.event_shape)
print("mvn log_prob", mvn.log_prob(Y))
mvn_cov = MultivariateNormal(torch.zeros(n), covariance_matrix=K)
print("cov form", mvn_cov.log_prob(Y))
print("slogdet", torch.linalg.slogdet(K))
print("logdet ", torch.logdet(K))

mll.sum().backward()
print("d mll / d lengthscale", lengthscales.grad)

with torch.no_grad():
    Kinv = torch.cholesky_inverse(L)
    print("K Kinv == I", torch.allclose(K @ Kinv, torch.eye(n).expand(T, n, n), atol=1e-8))
    # whitening from the right: A L^-T with left=False
    A = torch.ones(T, 2, n)
    W = torch.linalg.solve_triangular(L.mT, A, upper=True, left=False)
    print("right solve", W.shape, torch.allclose(W @ L.mT, A))
    xs = torch.tensor([0.5, 1.5])
    Ks = torch.exp(-0.5 * (x[:, None] - xs[None, :]) ** 2 / lengthscales[:, None, None] ** 2)  # (T, n, 2)
    mean = (Ks.mT @ alpha).squeeze(-1)
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    cov = torch.exp(-0.5 * (xs[:, None] - xs[None, :]) ** 2 / lengthscales[:, None, None] ** 2) - v.mT @ v
    print("posterior mean", mean)
    print("posterior cov diag", cov.diagonal(dim1=-2, dim2=-1))
    Lp = torch.linalg.cholesky(cov + 1e-9 * torch.eye(2))
    eps = torch.tensor([[1.0, -1.0], [0.5, 0.5], [-0.3, 2.0]]).unsqueeze(-1)
    sample = mean + (Lp @ eps).squeeze(-1)
    print("fixed-noise sample", sample)
    post = MultivariateNormal(mean, scale_tril=Lp)
    print(post.variance, post.entropy())
try:
    MultivariateNormal(torch.zeros(2), scale_tril=torch.ones(3, 3))
except Exception as e:
    print(type(e).__name__, e)
