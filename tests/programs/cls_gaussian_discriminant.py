# Gaussian generative classifiers from scratch: LDA with a pooled covariance (torch.cov,
# torch.linalg.inv), QDA with per-class covariances and slogdet, Mahalanobis distances via
# cholesky + solve_triangular, compared with torch.distributions.MultivariateNormal.
import torch
from torch.distributions import MultivariateNormal

torch.set_printoptions(precision=4)
i = torch.arange(10, dtype=torch.float32)
X0 = torch.stack([torch.sin(i * 1.3), 0.5 * torch.cos(i * 2.1)], dim=1)
X1 = torch.stack([2 + 1.5 * torch.cos(i * 0.7), 1 + torch.sin(i * 1.9)], dim=1)
X = torch.cat([X0, X1])
y = torch.cat([torch.zeros(10, dtype=torch.long), torch.ones(10, dtype=torch.long)])
print(X.shape, y.bincount())

classes = torch.unique(y)
means = torch.stack([X[y == c].mean(0) for c in classes])
priors = torch.bincount(y).float() / len(y)
covs = torch.stack([torch.cov(X[y == c].T) for c in classes])
print(means, priors, covs.shape)
pooled = sum((X[y == c] - means[c]).T @ (X[y == c] - means[c]) for c in classes) / (len(y) - len(classes))
print(pooled)

# LDA: linear discriminant scores
P_inv = torch.linalg.inv(pooled)
W = means @ P_inv
b = -0.5 * (W * means).sum(1) + priors.log()
scores = X @ W.T + b
pred = scores.argmax(1)
print(W, b)
print(pred, (pred == y).float().mean().item())

# QDA with slogdet
sign, logdet = torch.linalg.slogdet(covs)
print(sign, logdet)
diff = X.unsqueeze(1) - means.unsqueeze(0)            # (N, C, D)
maha = torch.einsum('ncd,cde,nce->nc', diff, torch.linalg.inv(covs), diff)
qda = -0.5 * maha - 0.5 * logdet + priors.log()
print(qda[:3], qda.argmax(1))

# Mahalanobis through Cholesky
L = torch.linalg.cholesky(covs)                        # (C, D, D)
z = torch.linalg.solve_triangular(L.unsqueeze(0), diff.unsqueeze(-1), upper=False).squeeze(-1)
print(torch.allclose((z ** 2).sum(-1), maha, atol=1e-4))
print(torch.allclose(2 * torch.log(torch.diagonal(L, dim1=-2, dim2=-1)).sum(-1), logdet, atol=1e-5))

# compare with distributions
lp = torch.stack([MultivariateNormal(means[c], covs[c]).log_prob(X) for c in classes], dim=1)
print(torch.allclose(lp + priors.log(), qda - torch.log(torch.tensor(2 * 3.141592653589793)), atol=1e-4))
mvn = MultivariateNormal(means, scale_tril=L)
print(mvn.batch_shape, mvn.event_shape, mvn.log_prob(X.unsqueeze(1)).shape)
print(mvn.entropy(), torch.allclose(mvn.covariance_matrix, covs, atol=1e-6))

# posterior probabilities and log-sum-exp normalisation
post = torch.softmax(qda, dim=1)
print(post[8:12].round(decimals=4), torch.logsumexp(qda, dim=1)[:3])

# Fisher's discriminant direction and projected class separation
Sw = covs.sum(0)
w_f = torch.linalg.solve(Sw, means[1] - means[0])
w_f = w_f / w_f.norm()
proj = X @ w_f
print(w_f.abs(), (proj[y == 1].mean() - proj[y == 0].mean()).abs())
