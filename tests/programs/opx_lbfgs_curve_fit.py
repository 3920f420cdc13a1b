# Curve fitting with torch.optim.LBFGS and a closure (scipy.curve_fit replacement, as in blog posts):
# fit y = a * exp(-b * x) + c, with and without strong Wolfe line search; inspect LBFGS state.
import torch

x = torch.linspace(0, 4, 50, dtype=torch.float64)
y = 2.5 * torch.exp(-1.3 * x) + 0.5 + 0.01 * torch.sin(7 * x)


def fit(line_search_fn, max_iter, history_size=10):
    params = torch.tensor([1.0, 1.0, 0.0], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([params], lr=1, max_iter=max_iter, history_size=history_size,
                            line_search_fn=line_search_fn, tolerance_grad=1e-9, tolerance_change=1e-12)
    n_calls = [0]

    def closure():
        opt.zero_grad()
        a, b, c = params
        pred = a * torch.exp(-b * x) + c
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        n_calls[0] += 1
        return loss

    history = []
    for epoch in range(5):
        loss = opt.step(closure)
        history.append(round(loss.item(), 6))
    return params, opt, history, n_calls[0]


for ls in (None, "strong_wolfe"):
    params, opt, history, calls = fit(ls, max_iter=20)
    print("line search:", ls)
    print("  losses", history)
    print("  params", [round(v, 3) for v in params.tolist()])
    state = opt.state[opt.param_groups[0]["params"][0]]
    print("  state keys", sorted(state.keys()))
    print("  func_evals", state["func_evals"] == calls, "n_iter>0", state["n_iter"] > 0)
    print("  history len <= 10", len(state["old_dirs"]) <= 10, type(state["d"]).__name__, state["d"].dtype)

print(sorted(opt.defaults.items()))
print(opt)

sd = opt.state_dict()
print(sorted(sd["state"][0].keys()))
print(sd["param_groups"][0]["line_search_fn"], sd["param_groups"][0]["max_eval"])

# LBFGS only supports one parameter group
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
try:
    torch.optim.LBFGS([{"params": [w]}, {"params": [b]}])
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.optim.LBFGS([w], line_search_fn="armijo").step(lambda: (w ** 2).sum())
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)

# A two-parameter fit: a line through noisy points, single step converges
m = torch.zeros(1, requires_grad=True)
c = torch.zeros(1, requires_grad=True)
xs = torch.arange(10.0)
ys = 3 * xs - 2 + 0.1 * torch.cos(xs)
opt = torch.optim.LBFGS([m, c], lr=0.5, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = ((m * xs + c - ys) ** 2).sum()
    loss.backward()
    return loss


first = opt.step(closure)
print(f"{first.item():.2f}", f"{m.item():.3f}", f"{c.item():.3f}", f"{closure().item():.4f}")
