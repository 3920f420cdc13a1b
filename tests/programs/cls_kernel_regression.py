# Kernel methods from scratch: Nadaraya-Watson smoothing with a Gaussian kernel (the d2l
# attention-pooling intro), kernel ridge regression with an RBF Gram matrix solved by
# torch.linalg.solve / cholesky, and learning the bandwidth by gradient descent.
import math

import torch

torch.set_printoptions(precision=4)
x_train = torch.linspace(0, 5, 20)
y_train = 2 * torch.sin(x_train) + x_train ** 0.8 + 0.1 * torch.cos(13 * x_train)
x_test = torch.arange(0, 5, 0.5)
print(x_test.shape, x_test.dtype)


def gaussian(u):
    return torch.exp(-u ** 2 / 2)


# Nadaraya-Watson with fixed bandwidth
diffs = x_test.repeat_interleave(len(x_train)).reshape(-1, len(x_train)) - x_train
attn = torch.softmax(-diffs ** 2 / 2, dim=1)
y_nw = attn @ y_train
print(attn.shape, torch.allclose(attn.sum(1), torch.ones(attn.shape[0])), y_nw)
w_manual = gaussian(diffs) / gaussian(diffs).sum(1, keepdim=True)
print(torch.allclose(w_manual, attn, atol=1e-6))

# RBF kernel via cdist and via the expansion |x|^2 + |y|^2 - 2xy
def rbf(a, b, gamma):
    return torch.exp(-gamma * torch.cdist(a.unsqueeze(-1), b.unsqueeze(-1)) ** 2)


K = rbf(x_train, x_train, 0.5)
sq = x_train.unsqueeze(1) ** 2 + x_train.unsqueeze(0) ** 2 - 2 * torch.outer(x_train, x_train)
print(K.shape, torch.allclose(K, torch.exp(-0.5 * sq.clamp_min(0)), atol=1e-5))
print(K.diagonal()[:3], torch.allclose(K, K.T), torch.linalg.eigvalsh(K).min() > -1e-5)

# kernel ridge regression
lam = 1e-2
alpha = torch.linalg.solve(K + lam * torch.eye(len(x_train)), y_train)
y_krr = rbf(x_test, x_train, 0.5) @ alpha
print(y_krr)
L = torch.linalg.cholesky(K + lam * torch.eye(len(x_train)))
alpha2 = torch.cholesky_solve(y_train.unsqueeze(1), L).squeeze(1)
print(torch.allclose(alpha, alpha2, atol=1e-3))
fit = K @ alpha
print(f"train MSE {((fit - y_train) ** 2).mean().item():.5f}")

# double-precision Gram matrix is better conditioned
Kd = rbf(x_train.double(), x_train.double(), 0.5)
print(Kd.dtype, f"{torch.linalg.cond(Kd + lam * torch.eye(20, dtype=torch.float64)).item():.2f}")

# learn the Nadaraya-Watson bandwidth w by gradient descent (d2l style)
w = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
keys = x_train.repeat((len(x_train), 1))
mask = (1 - torch.eye(len(x_train))).bool()
keys = keys[mask].reshape(len(x_train), -1)
vals = y_train.repeat((len(x_train), 1))[mask].reshape(len(x_train), -1)
for epoch in range(5):
    opt.zero_grad()
    a = torch.softmax(-((x_train.unsqueeze(1) - keys) * w) ** 2 / 2, dim=1)
    pred = torch.bmm(a.unsqueeze(1), vals.unsqueeze(-1)).reshape(-1)
    loss = ((pred - y_train) ** 2).sum() / 2
    loss.backward()
    opt.step()
    print(f"epoch {epoch + 1} loss {loss.item():.5f} w {w.item():.4f}")
print(keys.shape, vals.shape, a.grad_fn.name(), pred.grad_fn.name())

# marginal likelihood of a GP with a learnable length-scale
log_ell = torch.tensor(math.log(1.0), requires_grad=True)
Kl = torch.exp(-torch.cdist(x_train[:, None], x_train[:, None]) ** 2 / (2 * log_ell.exp() ** 2))
C = Kl + 0.1 * torch.eye(20)
Lc = torch.linalg.cholesky(C)
a_vec = torch.cholesky_solve(y_train[:, None], Lc)
nlml = 0.5 * (y_train[:, None] * a_vec).sum() + torch.log(torch.diagonal(Lc)).sum() + 10 * math.log(2 * math.pi)
nlml.backward()
print(nlml, log_ell.grad)
