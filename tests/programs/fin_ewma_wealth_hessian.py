# Risk-model calibration idioms: an EWMA covariance via torch.cov(aweights=lambda**age) with a
# learnable decay, and curvature (Hessian) of terminal wealth prod(1 + r) / cumprod paths, including
# a period with a -100% return (total loss), as in Kelly-growth notebooks.
import torch
from torch.autograd.functional import hessian, jacobian

torch.set_printoptions(precision=5)
dtype = torch.float64
t = torch.arange(40, dtype=dtype)
X = torch.stack([0.01 * torch.sin(t / 3.0), 0.012 * torch.cos(t / 5.0) + 0.004 * torch.sin(t), 0.008 * torch.sin(t / 2.0 + 1)])
print("X", X.shape)

# learnable decay lambda = sigmoid(theta); weight of observation t is lambda ** (T-1-t)
theta = torch.tensor(2.0, dtype=dtype, requires_grad=True)
realized = X[:, -10:].pow(2).mean(1)
opt = torch.optim.Adam([theta], lr=0.1)
for step in range(25):
    lam = torch.sigmoid(theta)
    w = lam ** torch.flip(t, dims=(0,))
    C = torch.cov(X, aweights=w)
    loss = ((C.diagonal() - realized) ** 2).sum() * 1e8
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"loss={loss.item():.5f} lambda={lam.item():.4f}")
print("cov grad_fn", type(C.grad_fn).__name__)
corr = torch.corrcoef(X)
print("corr", corr)

# terminal wealth and its curvature
r = torch.tensor([0.05, -0.02, 0.10, -0.04], dtype=dtype)
wealth = lambda r: torch.prod(1 + r)
print("wealth", wealth(r))
print("grad", jacobian(wealth, r))
print("hessian", hessian(wealth, r))
ruin = torch.tensor([0.05, -1.0, 0.10, -0.04], dtype=dtype)
print("ruin wealth", wealth(ruin))
print("ruin grad", jacobian(wealth, ruin))
print("ruin hessian", hessian(wealth, ruin))
two_ruins = torch.tensor([-1.0, 0.2, -1.0], dtype=dtype)
print("two ruins hessian", hessian(wealth, two_ruins))

# path of wealth: cumprod, and the Hessian of total path value
path_value = lambda r: torch.cumprod(1 + r, 0).sum()
print("path grad", jacobian(path_value, r))
print("path hessian", hessian(path_value, r))
print("ruin path grad", jacobian(path_value, ruin))
print("ruin path hessian", hessian(path_value, ruin))
rr = ruin.clone().requires_grad_()
(g,) = torch.autograd.grad(torch.prod(1 + rr), rr, create_graph=True)
print("prod create_graph grad_fn", type(g.grad_fn).__name__)

# normal-cdf based probability of loss and its graph
mu = torch.tensor(0.06, dtype=dtype, requires_grad=True)
p_loss = torch.special.ndtr(-mu / 0.15)
print("P(loss)", p_loss, type(p_loss.grad_fn).__name__)
(d,) = torch.autograd.grad(p_loss, mu, create_graph=True)
print("dP/dmu", d, type(d.grad_fn).__name__)
