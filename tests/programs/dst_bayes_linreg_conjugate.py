# Conjugate Bayesian linear regression: posterior MultivariateNormal built from precision_matrix,
# posterior predictive Normal, evidence via MVN log_prob, Gamma hyperprior on the noise precision
# optimised by type-II ML, and the three MVN parametrizations cross-checked.
import torch
import torch.distributions as D

torch.set_printoptions(precision=4, sci_mode=False)
torch.set_default_dtype(torch.float64)
N, P = 12, 3
x = torch.linspace(-1, 1.4, N)
Phi = torch.stack([torch.ones(N), x, x ** 2], dim=1)
y = 0.5 - 1.2 * x + 0.8 * x ** 2 + 0.1 * torch.sin(7 * x)

log_alpha = torch.tensor(0.0, requires_grad=True)   # prior precision
log_beta = torch.tensor(2.0, requires_grad=True)    # noise precision
hyper = D.Gamma(torch.tensor(2.0), torch.tensor(0.1))
opt = torch.optim.Adam([log_alpha, log_beta], lr=0.05)


def evidence(log_alpha, log_beta):
    alpha, beta = log_alpha.exp(), log_beta.exp()
    cov = Phi @ Phi.T / alpha + torch.eye(N) / beta
    return D.MultivariateNormal(torch.zeros(N), covariance_matrix=cov).log_prob(y)


for step in range(40):
    obj = -(evidence(log_alpha, log_beta) + hyper.log_prob(log_beta.exp()) + log_beta)
    opt.zero_grad()
    obj.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"{obj.item():.5f}", f"{log_alpha.item():.4f}", f"{log_beta.item():.4f}", log_beta.grad)

alpha, beta = log_alpha.detach().exp(), log_beta.detach().exp()
S_inv = alpha * torch.eye(P) + beta * Phi.T @ Phi
m = beta * torch.linalg.solve(S_inv, Phi.T @ y)
post = D.MultivariateNormal(m, precision_matrix=S_inv)
print(post)
print("mean", post.mean)
print("cov", post.covariance_matrix)
print("tril", post.scale_tril)
print("entropy", post.entropy())
post2 = D.MultivariateNormal(m, covariance_matrix=post.covariance_matrix)
post3 = D.MultivariateNormal(m, scale_tril=post.scale_tril)
w = torch.tensor([0.5, -1.2, 0.8])
print([f"{d.log_prob(w).item():.6f}" for d in (post, post2, post3)])
print(D.kl_divergence(post, post3).abs() < 1e-8, D.kl_divergence(post, D.MultivariateNormal(torch.zeros(P), torch.eye(P) / alpha)))

xs = torch.tensor([-1.5, 0.0, 1.5])
Phis = torch.stack([torch.ones(3), xs, xs ** 2], dim=1)
pred = D.Normal(Phis @ post.mean, (torch.einsum("np,pq,nq->n", Phis, post.covariance_matrix, Phis) + 1 / beta).sqrt())
print("predictive", pred.mean, pred.stddev)
print("90% interval", pred.icdf(torch.tensor(0.05)), pred.icdf(torch.tensor(0.95)))
print("batched marginals", D.Normal(post.mean, post.variance.sqrt()).log_prob(w))
print(post.expand((2,)).batch_shape, post.expand((2,)).precision_matrix.shape)
try:
    D.MultivariateNormal(m, precision_matrix=-S_inv)
except ValueError as e:
    print("ValueError", str(e).split("\n")[0])
torch.set_default_dtype(torch.float32)
