# LBFGS with history_size, tolerance_grad/tolerance_change, max_iter and strong_wolfe line search:
# a user fitting a logistic model with a closure and printing the LBFGS state entries.
import torch

x = torch.stack([torch.linspace(-2, 2, 16), torch.linspace(0, 3, 16).sin()], 1)
y = (x[:, 0] + 0.5 * x[:, 1] > 0.2).float()

def run(**kw):
    w = torch.nn.Parameter(torch.tensor([0.1, -0.1]))
    b = torch.nn.Parameter(torch.tensor(0.0))
    opt = torch.optim.LBFGS([w, b], **kw)
    calls = [0]
    def closure():
        calls[0] += 1
        opt.zero_grad()
        logits = x @ w + b
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y) + 0.01 * (w ** 2).sum()
        loss.backward()
        return loss
    outs = []
    for _ in range(2):
        outs.append(f"{opt.step(closure).item():.5f}")
    print(kw)
    print("  losses", outs, "closure calls", calls[0])
    print("  w", [round(v, 4) for v in w.detach().tolist()], "b", round(b.item(), 4))
    st = opt.state[opt.param_groups[0]["params"][0]]
    print("  state keys", sorted(st))
    print("  func_evals", st["func_evals"], "n_iter", st["n_iter"], "hist", len(st["old_dirs"]))
    print("  t", type(st["t"]).__name__)
    return opt

run(lr=1, max_iter=5)
run(lr=0.5, max_iter=4, history_size=2)
run(lr=1, max_iter=6, line_search_fn="strong_wolfe")
run(lr=1, max_iter=10, tolerance_grad=1e-2, tolerance_change=1e-4, history_size=3)
opt = run(lr=1, max_iter=6, max_eval=8, line_search_fn="strong_wolfe", history_size=4)
sd = opt.state_dict()
print(sorted(sd["param_groups"][0]))
print(sd["param_groups"][0]["max_eval"], sd["param_groups"][0]["line_search_fn"])
print(list(sd["state"].keys()))
print(opt)
try:
    torch.optim.LBFGS([torch.nn.Parameter(torch.zeros(2)), torch.nn.Parameter(torch.zeros(1))], line_search_fn="bogus").step(lambda: torch.tensor(0.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.LBFGS([{"params": [torch.nn.Parameter(torch.zeros(2))]}, {"params": [torch.nn.Parameter(torch.zeros(1))]}])
except ValueError as e:
    print("ValueError", e)
