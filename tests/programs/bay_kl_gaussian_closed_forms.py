# Closed-form KL divergences used in variational inference: univariate and multivariate Gaussian
# KL written by hand (trace / Mahalanobis / logdet) checked against torch.distributions.kl_divergence.
import torch
from torch.distributions import Normal, MultivariateNormal, Independent, Laplace, kl_divergence

torch.set_default_dtype(torch.float64)


def kl_normal_by_hand(mu_q, s_q, mu_p, s_p):
    return torch.log(s_p / s_q) + (s_q ** 2 + (mu_q - mu_p) ** 2) / (2 * s_p ** 2) - 0.5


def kl_mvn_by_hand(m0, S0, m1, S1):
    k = m0.shape[-1]
    S1_inv = torch.linalg.inv(S1)
    diff = (m1 - m0).unsqueeze(-1)
    trace = torch.diagonal(S1_inv @ S0, dim1=-2, dim2=-1).sum(-1)
    maha = (diff.transpose(-1, -2) @ S1_inv @ diff).squeeze(-1).squeeze(-1)
    _, logdet1 = torch.linalg.slogdet(S1)
    _, logdet0 = torch.linalg.slogdet(S0)
    return 0.5 * (trace + maha - k + logdet1 - logdet0)


mu_q = torch.linspace(-1, 1, 5)
s_q = torch.exp(torch.linspace(-2, 0.5, 5))
kl_hand = kl_normal_by_hand(mu_q, s_q, torch.tensor(0.0), torch.tensor(1.0))
kl_lib = kl_divergence(Normal(mu_q, s_q), Normal(0.0, 1.0))
print("univariate", kl_lib)
print("match", torch.allclose(kl_hand, kl_lib))
print("broadcast", kl_divergence(Normal(mu_q, s_q), Normal(torch.zeros(3, 1), torch.ones(3, 1))).shape)

A = torch.tensor([[2.0, 0.3, 0.0], [0.3, 1.0, -0.2], [0.0, -0.2, 0.5]])
B = torch.tensor([[1.0, 0.1, 0.1], [0.1, 1.5, 0.0], [0.1, 0.0, 0.8]])
m0 = torch.tensor([0.1, -0.2, 0.3])
m1 = torch.tensor([0.0, 0.5, -0.5])
p0 = MultivariateNormal(m0, covariance_matrix=A)
p1 = MultivariateNormal(m1, covariance_matrix=B)
print("mvn hand", f"{kl_mvn_by_hand(m0, A, m1, B).item():.8f}")
print("mvn lib ", f"{kl_divergence(p0, p1).item():.8f}")
print("reverse ", f"{kl_divergence(p1, p0).item():.8f}")
print("self    ", kl_divergence(p0, p0).abs().item() < 1e-12)

# batched MVN KL (one per mixture component) and precision parametrisation
covs = torch.stack([A, B, A @ B @ A.T / 3])
means = torch.stack([m0, m1, m0 + m1])
q = MultivariateNormal(means, covariance_matrix=covs)
prior = MultivariateNormal(torch.zeros(3), precision_matrix=torch.eye(3) * 4)
kl_b = kl_divergence(q, prior)
print("batched", kl_b.shape, kl_b)
print("batched hand", torch.allclose(kl_b, kl_mvn_by_hand(means, covs, torch.zeros(3), torch.eye(3) / 4)))

# a diagonal MVN equals the Independent Normal
d_scale = torch.tensor([0.5, 1.5, 2.0])
kl_ind = kl_divergence(Independent(Normal(m0, d_scale), 1), Independent(Normal(m1, torch.ones(3)), 1))
kl_diag = kl_divergence(MultivariateNormal(m0, scale_tril=torch.diag(d_scale)), MultivariateNormal(m1, torch.eye(3)))
print("ind vs diag mvn", f"{kl_ind.item():.8f}", f"{kl_diag.item():.8f}")

# gradient of the KL term wrt the variational parameters
mu = torch.zeros(3, requires_grad=True)
log_sigma = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
kl = kl_divergence(Normal(mu + 0.5, log_sigma.exp()), Normal(0.0, 1.0)).sum()
kl.backward()
print("kl", f"{kl.item():.6f}", "dmu", mu.grad, "dlogsig", log_sigma.grad)

for qq, pp in [(Normal(0.0, 1.0), Laplace(0.0, 1.0)),
               (Independent(Normal(m0, d_scale), 1), MultivariateNormal(m1, torch.eye(3))),
               (Independent(Normal(torch.zeros(2, 3), 1.0), 1), Independent(Normal(torch.zeros(2, 3), 1.0), 2))]:
    try:
        print(kl_divergence(qq, pp))
    except NotImplementedError as e:
        print(type(e).__name__, e)
try:
    kl_divergence(p0, MultivariateNormal(torch.zeros(2), torch.eye(2)))
except ValueError as e:
    print(type(e).__name__, e)
