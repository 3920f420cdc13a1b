# Yield-curve fitting with Nelson-Siegel(-Svensson) under torch.set_default_dtype(torch.float64):
# LBFGS with strong Wolfe, Jacobian of the curve, bond price / duration / convexity via autograd.
import torch

torch.set_default_dtype(torch.float64)
tau = torch.tensor([0.25, 0.5, 1, 2, 3, 5, 7, 10, 20, 30])
y = torch.tensor([4.10, 4.15, 4.20, 4.00, 3.90, 3.85, 3.90, 4.00, 4.30, 4.35]) / 100
print("dtype", tau.dtype, y.dtype)


def nelson_siegel(p, t):
    b0, b1, b2, lam = p.unbind()
    x = t / lam
    f = (1 - torch.exp(-x)) / x
    return b0 + b1 * f + b2 * (f - torch.exp(-x))


p = torch.tensor([0.04, -0.01, 0.01, 2.0], requires_grad=True)
opt = torch.optim.LBFGS([p], lr=1, max_iter=100, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = ((nelson_siegel(p, tau) - y) ** 2).sum() * 1e4
    loss.backward()
    return loss


start = closure().item()
opt.step(closure)
end = closure().item()
print(f"loss {start:.6f} -> {end:.6f}")
print("params", [f"{v:.4f}" for v in p.detach().tolist()])
fitted = nelson_siegel(p.detach(), tau)
print("residual bp", ((fitted - y) * 1e4).round(decimals=1))
J = torch.autograd.functional.jacobian(lambda q: nelson_siegel(q, tau), p.detach())
print("jacobian", J.shape, J.dtype)
print("factor loadings at 10y", J[7, :3])

# OLS for fixed lambda via lstsq
lam = 1.8
x = tau / lam
X = torch.stack([torch.ones_like(tau), (1 - torch.exp(-x)) / x, (1 - torch.exp(-x)) / x - torch.exp(-x)], 1)
beta = torch.linalg.lstsq(X, y.unsqueeze(1)).solution.squeeze(1)
print("ols betas", beta)
print("ols rmse bp", f"{(((X @ beta - y) ** 2).mean().sqrt() * 1e4).item():.3f}")

# forward rates and discount factors from the fitted curve
grid = torch.linspace(0.5, 30, 6)
zero = nelson_siegel(p.detach(), grid)
disc = torch.exp(-zero * grid)
print("discount", disc)
fwd = -torch.diff(torch.log(disc)) / torch.diff(grid)
print("forwards", fwd)

# bond analytics: price, modified duration, convexity by autograd
cf = torch.tensor([5.0, 5.0, 5.0, 105.0])
tt = torch.tensor([1.0, 2.0, 3.0, 4.0])
yld = torch.tensor(0.04, requires_grad=True)
price = (cf * torch.exp(-yld * tt)).sum()
(dp,) = torch.autograd.grad(price, yld, create_graph=True)
(d2p,) = torch.autograd.grad(dp, yld)
print("price", price, "duration", -dp / price, "convexity", d2p / price)
print("grad of leaf unused", yld.grad)
hess = torch.autograd.functional.hessian(lambda yy: (cf * torch.exp(-yy * tt)).sum(), torch.tensor(0.04))
print("hessian", hess)
# key-rate sensitivities: gradient wrt each zero rate
z = torch.full((4,), 0.04, requires_grad=True)
pv = (cf * torch.exp(-z * tt)).sum()
pv.backward()
print("key rate dv01", z.grad * 1e-4)
torch.set_default_dtype(torch.float32)
print("restored", torch.tensor([1.0]).dtype)
