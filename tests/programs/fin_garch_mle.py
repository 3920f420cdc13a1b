# GARCH(1,1) maximum likelihood in float64: unconstrained params mapped through softplus/sigmoid,
# Gaussian log-likelihood accumulated in a Python loop over time, optimised with Adam then LBFGS.
import torch
import torch.nn.functional as F

dtype = torch.float64
t = torch.arange(150, dtype=dtype)
# deterministic "returns" with volatility clustering
vol = 0.01 * (1.0 + 0.6 * torch.sin(t / 25.0) ** 2)
returns = vol * torch.sin(1.7 * t + 0.3 * torch.cos(0.37 * t)) * 1.4
print("returns", returns.shape, f"mean={returns.mean().item():.3e} std={returns.std().item():.5f}")


class GARCH(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_omega = torch.nn.Parameter(torch.tensor(-11.0, dtype=dtype))
        self.raw_alpha = torch.nn.Parameter(torch.tensor(-2.0, dtype=dtype))
        self.raw_beta = torch.nn.Parameter(torch.tensor(1.5, dtype=dtype))

    def params(self):
        omega = F.softplus(self.raw_omega)
        ab = torch.softmax(torch.stack([self.raw_alpha, self.raw_beta, torch.zeros((), dtype=dtype)]), 0)
        return omega, ab[0], ab[1]

    def forward(self, r):
        omega, alpha, beta = self.params()
        var = r.var()
        nll = torch.zeros((), dtype=dtype)
        sig2 = []
        for i in range(r.shape[0]):
            if i > 0:
                var = omega + alpha * r[i - 1] ** 2 + beta * var
            sig2.append(var)
            nll = nll + 0.5 * (torch.log(2 * torch.pi * var) + r[i] ** 2 / var)
        return nll / r.shape[0], torch.stack(sig2)


model = GARCH()
print([n for n, _ in model.named_parameters()])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(15):
    opt.zero_grad()
    loss, _ = model(returns)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.6f}")

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    l, _ = model(returns)
    l.backward()
    return l


first = closure().item()
lbfgs.step(closure)
final, sig2 = model(returns)
print("lbfgs improved", final.item() < first)
omega, alpha, beta = model.params()
print(f"alpha+beta<1: {(alpha + beta).item() < 1}")
print("sigma2 shape", sig2.shape, "positive", bool((sig2 > 0).all()))
print("state keys", list(model.state_dict().keys()))
print("grad dtypes", {n: p.grad.dtype for n, p in model.named_parameters()})
