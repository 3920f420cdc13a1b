# Correlated GBM paths via Cholesky of a correlation matrix, basket option by Monte Carlo with
# deterministic normals, MultivariateNormal log_prob with scale_tril, and sample corrcoef checks.
import torch
from torch.distributions import MultivariateNormal, Normal

torch.set_printoptions(precision=4)
dtype = torch.float64
corr = torch.tensor([[1.0, 0.6, 0.3], [0.6, 1.0, 0.5], [0.3, 0.5, 1.0]], dtype=dtype)
L = torch.linalg.cholesky(corr)
print("L", L)
print("LL^T==corr", torch.allclose(L @ L.T, corr))
Lc, info = torch.linalg.cholesky_ex(corr)
print("info", info)

n = 999
u = torch.linspace(0.5 / n, 1 - 0.5 / n, n, dtype=dtype)
z = Normal(0.0, 1.0).icdf(u)
Z = torch.stack([z, z[torch.arange(n) * 7 % n], z[torch.arange(n) * 13 % n]], dim=1)
print("indep corr", torch.corrcoef(Z.T).diagonal(offset=1))
X = Z @ L.T
print("sample corr", torch.corrcoef(X.T))

S0 = torch.tensor([100.0, 50.0, 75.0], dtype=dtype, requires_grad=True)
vol = torch.tensor([0.2, 0.3, 0.25], dtype=dtype)
w = torch.tensor([0.4, 0.3, 0.3], dtype=dtype)
T, r = 1.0, 0.02
ST = S0 * torch.exp((r - 0.5 * vol ** 2) * T + vol * T ** 0.5 * X)
basket = ST @ (w / S0.detach() * 100)
price = torch.exp(torch.tensor(-r * T, dtype=dtype)) * torch.clamp(basket - 100.0, min=0).mean()
price.backward()
print(f"basket call {price.item():.4f}")
print("deltas", S0.grad)

# MultivariateNormal on log-returns
cov = torch.diag(vol) @ corr @ torch.diag(vol)
mvn = MultivariateNormal(torch.zeros(3, dtype=dtype), covariance_matrix=cov)
mvn2 = MultivariateNormal(torch.zeros(3, dtype=dtype), scale_tril=torch.linalg.cholesky(cov))
x = X[:5] * vol
print("log_prob", mvn.log_prob(x))
print("same", torch.allclose(mvn.log_prob(x), mvn2.log_prob(x)))
print("entropy", mvn.entropy())
print("mvn mean/var", mvn.mean, mvn.variance)
print("batch/event", mvn.batch_shape, mvn.event_shape)
print("precision diag", mvn.precision_matrix.diagonal())
print("scale_tril", mvn.scale_tril)
print(mvn)
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=dtype))
except Exception as e:
    print(type(e).__name__, e)
bad, binfo = torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
print("cholesky_ex info", binfo)
print("cholesky upper", torch.linalg.cholesky(corr, upper=True))
print("cholesky_solve", torch.cholesky_solve(torch.ones(3, 1, dtype=dtype), L).squeeze())
