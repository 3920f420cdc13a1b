# Meta-learning for few-shot forecasting (MAML over many short series), as in blog posts that use
# torch.func.functional_call: an inner SGD step on each series' support window with
# torch.autograd.grad(create_graph=True) through a GRU, query loss on the adapted weights,
# second-order meta-gradients into the shared GRU, and an LSTM whose weight_hh is weight-normed.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call
from torch.nn.utils.parametrizations import weight_norm

torch.set_printoptions(precision=5, sci_mode=False)


class Forecaster(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, h_n = self.rnn(x)
        return self.head(out[:, -1])


def det_(module, seed):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.77 + i + seed).reshape(p.shape) * 0.4)


def make_task(k):
    t = torch.arange(30, dtype=torch.float64)
    s = torch.sin(t * (0.2 + 0.05 * k) + k) * (1 + 0.2 * k)
    w = s.unfold(0, 9, 1)
    x, y = w[:, :8, None], w[:, 8:]
    return (x[:10], y[:10]), (x[10:20], y[10:20])


model = Forecaster().double()
det_(model, 0)
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-2)
inner_lr = 0.3
tasks = [make_task(k) for k in range(4)]

for it in range(12):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for (xs, ys), (xq, yq) in tasks:
        params = dict(model.named_parameters())
        support = F.mse_loss(functional_call(model, params, (xs,)), ys)
        grads = torch.autograd.grad(support, list(params.values()), create_graph=True)
        adapted = {n: p - inner_lr * g for (n, p), g in zip(params.items(), grads)}
        meta_loss = meta_loss + F.mse_loss(functional_call(model, adapted, (xq,)), yq)
    meta_loss = meta_loss / len(tasks)
    meta_loss.backward()
    meta_opt.step()
    if it % 3 == 0 or it == 11:
        print(f"iter {it:2d} meta_loss {meta_loss.item():.6f} |g_hh| {model.rnn.weight_hh_l0.grad.norm().item():.6f}")

(xs, ys), (xq, yq) = tasks[0]
params = dict(model.named_parameters())
before = F.mse_loss(functional_call(model, params, (xq,)), yq)
g = torch.autograd.grad(F.mse_loss(functional_call(model, params, (xs,)), ys), list(params.values()))
after = F.mse_loss(functional_call(model, {n: p - inner_lr * gg for (n, p), gg in zip(params.items(), g)}, (xq,)), yq)
print(f"task0 query before {before.item():.6f} after one step {after.item():.6f}")
print("grad names", [n for n, gg in zip(params, g) if gg is not None])

lstm = nn.LSTM(1, 4, batch_first=True).double()
det_(lstm, 3)
weight_norm(lstm, name="weight_hh_l0", dim=0)
print([n for n, _ in lstm.named_parameters()])
print("g", lstm.parametrizations.weight_hh_l0.original0.view(-1)[:4])
x = torch.linspace(-1, 1, 12, dtype=torch.float64).view(2, 6, 1)
out, (h, c) = lstm(x)
(h.sum() + c.pow(2).sum()).backward()
print("h", h)
print("grad g", lstm.parametrizations.weight_hh_l0.original0.grad.view(-1)[:6])
print("grad v norm", lstm.parametrizations.weight_hh_l0.original1.grad.norm())
xg = x.clone().requires_grad_()
ok = torch.autograd.gradcheck(lambda inp: lstm(inp)[1][0], (xg,))
print("gradcheck", ok)
ok2 = torch.autograd.gradgradcheck(lambda inp: model.rnn(inp)[0].sum(-1), (torch.linspace(0, 1, 6, dtype=torch.float64).view(1, 6, 1).requires_grad_(),))
print("gradgradcheck", ok2)
