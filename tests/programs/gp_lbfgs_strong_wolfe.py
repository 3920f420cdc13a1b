# GP hyperparameter fitting the scipy-like way: torch.optim.LBFGS with a closure and
# line_search_fn="strong_wolfe" on the negative exact marginal log likelihood (log-parametrised
# hyperparameters), compared with plain LBFGS without line search; prints state and n_iter.
import math
import torch

torch.set_default_dtype(torch.float64)


def rbf(a, b, ls, sf2):
    sq = (a.unsqueeze(-2) - b.unsqueeze(-3)).pow(2).sum(-1)
    return sf2 * torch.exp(-0.5 * sq / ls ** 2)


def neg_mll(params, X, y):
    log_ls, log_sf2, log_sn2 = params.unbind()
    n = X.shape[0]
    K = rbf(X, X, log_ls.exp(), log_sf2.exp()) + (log_sn2.exp() + 1e-6) * torch.eye(n)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y[:, None], L)
    return 0.5 * (y[:, None] * alpha).sum() + L.diagonal().log().sum() + 0.5 * n * math.log(2 * math.pi)


X = torch.stack([torch.linspace(-2, 2, 20), torch.cos(torch.linspace(0, 3, 20))], dim=-1)
y = torch.sin(1.5 * X[:, 0]) * X[:, 1] + 0.05 * torch.sin(11 * X[:, 0])

for line_search in ["strong_wolfe", None]:
    params = torch.tensor([0.0, 0.0, -2.0], requires_grad=True)
    opt = torch.optim.LBFGS([params], lr=1 if line_search else 0.1, max_iter=20,
                            history_size=10, line_search_fn=line_search)
    evals = []

    def closure():
        opt.zero_grad()
        loss = neg_mll(params, X, y)
        loss.backward()
        evals.append(loss.item())
        return loss

    for step in range(4):
        loss = opt.step(closure)
        print(f"{line_search} step {step} loss {loss.item():.5f} evals {len(evals)}")
    state = opt.state[params]
    print(sorted(state.keys()))
    print("n_iter", state["n_iter"], "func_evals", state["func_evals"])
    print("hyper", [f"{v:.4f}" for v in params.detach().exp().tolist()])
    print("final", f"{neg_mll(params, X, y).item():.5f}", "grad norm small", params.grad.norm().item() < 1e-3)

print(opt.defaults)
print(len(opt.param_groups), opt.param_groups[0]["line_search_fn"])
try:
    torch.optim.LBFGS([params], line_search_fn="armijo")
    opt2 = torch.optim.LBFGS([params], line_search_fn="armijo")
    opt2.step(closure)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.LBFGS([params, torch.zeros(2, requires_grad=True)]).step(closure)
    torch.optim.LBFGS([{"params": [params]}, {"params": [torch.zeros(1, requires_grad=True)]}])
except Exception as e:
    print(type(e).__name__, e)
