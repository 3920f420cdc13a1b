# Fitting small functions with torch.optim.LBFGS and a closure, as in the classic
# "time sequence prediction" example and the many "how do I use LBFGS" answers: a least-squares
# line, a tiny MLP on a sine curve (default and strong_wolfe line search), and the optimizer
# state (func_evals, n_iter) and param_groups.
import torch
import torch.nn as nn

# 1. linear least squares: LBFGS should nail it quickly
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3.0 * x - 0.5
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.LBFGS([w, b], lr=1, max_iter=20)
calls = []


def closure():
    opt.zero_grad()
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    calls.append(loss.item())
    return loss


ret = opt.step(closure)
print(type(ret).__name__, f"{ret.item():.6f}", len(calls), calls[-1] < 1e-8)
print(w.detach().round(decimals=4), b.detach().round(decimals=4))
state = opt.state[opt.param_groups[0]['params'][0]]
print(sorted(state.keys()))
print(state['func_evals'], state['n_iter'], len(state['old_dirs']))
print({k: v for k, v in opt.param_groups[0].items() if k != 'params'})


# 2. a tiny MLP on sin(x), the way the time-sequence-prediction example drives LBFGS
def make_net():
    net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.linspace(-0.1, 0.1, p.numel()).reshape(p.shape) + 0.3 * torch.cos(torch.arange(p.numel()).reshape(p.shape) * 1.3 + i))
    return net


xs = torch.linspace(-3, 3, 32).unsqueeze(1)
ys = torch.sin(xs)
for line_search in (None, 'strong_wolfe'):
    net = make_net()
    criterion = nn.MSELoss()
    optimizer = torch.optim.LBFGS(net.parameters(), lr=0.8 if line_search is None else 1.0,
                                  max_iter=4, history_size=3, line_search_fn=line_search)
    for i in range(3):
        def closure():
            optimizer.zero_grad()
            out = net(xs)
            loss = criterion(out, ys)
            loss.backward()
            return loss
        loss = optimizer.step(closure)
        print(f"{line_search} step {i} loss {loss.item():.5f}")
    st = optimizer.state[next(net.parameters())]
    print(st['func_evals'], st['n_iter'], len(st['old_dirs']), f"{criterion(net(xs), ys).item():.5f}")
    print(net[0].weight.detach().view(-1)[:4], net[2].bias.detach())

# 3. LBFGS needs a closure; and it supports only one param group
try:
    optimizer.step()
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.optim.LBFGS([{'params': [w]}, {'params': [b]}])
except ValueError as e:
    print(type(e).__name__, e)
sd = optimizer.state_dict()
print(sorted(sd['state'][0].keys()), sd['param_groups'][0]['params'])
