# Practical LBFGS usage for kernel hyperparameters: early exits (tolerance_grad, tolerance_change,
# max_eval), the closure returning a detached loss, state_dict round trip through io.BytesIO, and
# LBFGS on two parameter tensors (log-lengthscales per dimension = ARD, and log-noise).
import io
import math
import torch

torch.set_default_dtype(torch.float64)

t = torch.linspace(0, 1, 16)
X = torch.stack([t, torch.sin(6 * t), t.flip(0) ** 2], 1)
y = torch.cos(4 * X[:, 0]) + 0.2 * X[:, 2]


def nll(log_ls, log_noise):
    Xs = X / log_ls.exp()
    K = torch.exp(-0.5 * torch.cdist(Xs, Xs) ** 2) + (log_noise.exp() + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    a = torch.cholesky_solve(y[:, None], L)
    return 0.5 * (y[:, None] * a).sum() + L.diagonal().log().sum() + 0.5 * len(X) * math.log(2 * math.pi)


def run(**kw):
    log_ls = torch.zeros(3, requires_grad=True)
    log_noise = torch.tensor(-3.0, requires_grad=True)
    opt = torch.optim.LBFGS([log_ls, log_noise], **kw)
    calls = [0]

    def closure():
        opt.zero_grad()
        loss = nll(log_ls, log_noise)
        loss.backward()
        calls[0] += 1
        return loss

    first = opt.step(closure)
    st = opt.state[log_ls]
    print(f"{kw}: first {first.item():.4f} now {nll(log_ls, log_noise).item():.4f} calls {calls[0]} "
          f"n_iter {st['n_iter']} func_evals {st['func_evals']}")
    return opt, log_ls, log_noise, closure


run(max_iter=5, lr=0.1)
run(max_iter=50, max_eval=7, lr=0.1)
run(max_iter=50, tolerance_grad=1e3)
run(max_iter=50, tolerance_change=1e-2, lr=0.1)
opt, log_ls, log_noise, closure = run(max_iter=30, line_search_fn="strong_wolfe", history_size=5)
ls = log_ls.detach().exp()
# (one decimal: the ARD fit ends in a flat direction, where last-bit differences of LAPACK
# and of the gradient formulas move the third decimal)
print("ARD lengthscales", [round(v, 1) for v in ls.clamp(max=100).tolist()], "irrelevant dims", (ls > 100).nonzero().flatten().tolist())

sd = opt.state_dict()
print(sorted(sd.keys()), sd["param_groups"])
print(sorted(sd["state"].keys()), sorted(sd["state"][0].keys()))
print(len(sd["state"][0]["old_dirs"]), sd["state"][0]["d"].shape, type(sd["state"][0]["t"]).__name__)
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
opt2 = torch.optim.LBFGS([log_ls, log_noise], line_search_fn="strong_wolfe", history_size=5)
opt2.load_state_dict(torch.load(buf))
print(opt2.state[log_ls]["n_iter"], len(opt2.state[log_ls]["old_stps"]))
print(opt2)
