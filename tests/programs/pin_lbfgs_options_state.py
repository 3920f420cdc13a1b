# Full-batch LBFGS for a 1-D Poisson PINN with hard boundary conditions: options users tweak
# (tolerance_grad early exit, max_eval, history_size, lr with no line search vs strong_wolfe),
# LBFGS state_dict()/load_state_dict() round trip, and the per-parameter-group error.
import io
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


def make_net():
    net = nn.Sequential(nn.Linear(1, 10), nn.Tanh(), nn.Linear(10, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            j = torch.arange(p.numel(), dtype=torch.float64)
            p.copy_((0.5 * torch.cos(2.1 * j + i)).reshape(p.shape))
    return net


x = torch.linspace(0, 1, 17).unsqueeze(1)
f = torch.pi ** 2 * torch.sin(torch.pi * x)  # -u'' = f, u(0)=u(1)=0 -> u = sin(pi x)


def residual_loss(net):
    xr = x.clone().requires_grad_(True)
    u = xr * (1 - xr) * net(xr)  # hard constraint
    u_x = torch.autograd.grad(u, xr, torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, xr, torch.ones_like(u_x), create_graph=True)[0]
    return ((-u_xx - f) ** 2).mean()


def run(label, **opts):
    net = make_net()
    opt = torch.optim.LBFGS(net.parameters(), **opts)
    evals = 0

    def closure():
        nonlocal evals
        evals += 1
        opt.zero_grad()
        loss = residual_loss(net)
        loss.backward()
        return loss

    first = opt.step(closure)
    final = residual_loss(net).item()
    st = opt.state[opt._params[0]]
    print(f"{label:14s} first={first.item():.4f} final<first={final < first.item()} evals={evals} "
          f"n_iter={st['n_iter']} func_evals={st['func_evals']} final={final:.3e}")
    return net, opt, closure


run("default", lr=1)
run("max_eval=5", lr=1, max_iter=20, max_eval=5)
run("tol_grad big", lr=1, tolerance_grad=1e3)
run("wolfe", lr=1, max_iter=50, line_search_fn="strong_wolfe")
net, opt, closure = run("hist3 wolfe", lr=1, max_iter=30, history_size=3, line_search_fn="strong_wolfe")

sd = opt.state_dict()
print("state_dict keys:", sorted(sd.keys()), "param_groups keys:", sorted(sd["param_groups"][0].keys()))
st = sd["state"][0]
print("history lengths:", len(st["old_dirs"]), len(st["old_stps"]), len(st["ro"]))
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
opt2 = torch.optim.LBFGS(net.parameters(), lr=1, max_iter=30, history_size=3, line_search_fn="strong_wolfe")
opt2.load_state_dict(torch.load(buf))
print("restored n_iter:", opt2.state[opt2._params[0]]["n_iter"], "groups:", opt2.param_groups[0]["history_size"])

try:
    torch.optim.LBFGS([{"params": [net[0].weight]}, {"params": [net[2].weight], "lr": 0.1}])
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.optim.LBFGS(net.parameters(), line_search_fn="backtracking").step(closure)
except RuntimeError as e:
    print(type(e).__name__, e)
