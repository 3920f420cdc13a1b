# Sparse GP marginal likelihoods (DTC / FITC) through torch.distributions.LowRankMultivariateNormal
# (Q = W W^T + diag), checked against the dense MultivariateNormal; precision_matrix,
# covariance_matrix, entropy, and gradients of the FITC evidence w.r.t. the inducing points.
import torch
from torch.distributions import LowRankMultivariateNormal, MultivariateNormal

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


def rbf(a, b, ls=0.7):
    return torch.exp(-0.5 * torch.cdist(a, b).pow(2) / ls ** 2)


X = torch.linspace(-2, 2, 25).unsqueeze(-1)
y = torch.sin(2 * X).squeeze(-1) + 0.1 * torch.cos(11 * X).squeeze(-1)
Z = torch.linspace(-1.8, 1.8, 5).unsqueeze(-1).requires_grad_(True)
noise = 0.01


def evidences(Z):
    Kuu = rbf(Z, Z) + 1e-6 * torch.eye(Z.shape[0])
    Luu = torch.linalg.cholesky(Kuu)
    W = torch.linalg.solve_triangular(Luu, rbf(Z, X), upper=False).T  # Qff = W W^T
    q_diag = W.pow(2).sum(-1)
    dtc = LowRankMultivariateNormal(torch.zeros(len(X)), W, noise * torch.ones(len(X)))
    fitc = LowRankMultivariateNormal(torch.zeros(len(X)), W, 1.0 - q_diag + noise)
    return dtc, fitc, W


dtc, fitc, W = evidences(Z)
print(dtc.batch_shape, dtc.event_shape, dtc.cov_factor.shape, dtc.cov_diag.shape)
print(f"DTC log evidence {dtc.log_prob(y).item():.5f}  FITC {fitc.log_prob(y).item():.5f}")
dense = MultivariateNormal(torch.zeros(len(X)), covariance_matrix=W @ W.T + noise * torch.eye(len(X)))
print(f"dense DTC {dense.log_prob(y).item():.5f}")
exact = MultivariateNormal(torch.zeros(len(X)), covariance_matrix=rbf(X, X) + noise * torch.eye(len(X)))
print(f"exact GP {exact.log_prob(y).item():.5f}")
print("entropy", f"{dtc.entropy().item():.4f}", f"{dense.entropy().item():.4f}")
print("cov match", torch.allclose(dtc.covariance_matrix, dense.covariance_matrix))
print("precision match", torch.allclose(dtc.precision_matrix, dense.precision_matrix, atol=1e-6))
print("variance[:4]", dtc.variance[:4], fitc.variance[:4])
print("scale_tril ok", torch.allclose(dtc.scale_tril @ dtc.scale_tril.T, dtc.covariance_matrix))

fitc.log_prob(y).backward()
print("dlogp/dZ", Z.grad.squeeze(-1))

opt = torch.optim.Adam([Z], lr=0.05)
for step in range(20):
    opt.zero_grad()
    loss = -evidences(Z)[1].log_prob(y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} -logp {loss.item():.4f}")
print("Z", Z.detach().squeeze(-1))
try:
    LowRankMultivariateNormal(torch.zeros(3), torch.ones(4, 2), torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
