# Post-hoc calibrators fitted with LBFGS (strong Wolfe line search): Platt scaling for a binary
# classifier (BCEWithLogits), vector scaling and matrix scaling for a multiclass one.
import torch
import torch.nn as nn
import torch.nn.functional as F

n = 48
t = torch.arange(n, dtype=torch.float64)
bin_logits = torch.sin(t * 0.31) * 4.0
bin_y = ((t * 0.31).sin() + 0.6 * torch.cos(t * 1.7) > 0).double()

a = torch.ones(1, dtype=torch.float64, requires_grad=True)
b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
opt = torch.optim.LBFGS([a, b], lr=1, max_iter=100, line_search_fn="strong_wolfe")
crit = nn.BCEWithLogitsLoss()


def platt_closure():
    opt.zero_grad()
    loss = crit(a * bin_logits + b, bin_y)
    loss.backward()
    return loss


before = crit(bin_logits, bin_y).item()
opt.step(platt_closure)
print(f"Platt: a={a.item():.4f} b={b.item():.4f} NLL {before:.4f} -> {crit(a * bin_logits + b, bin_y).item():.4f}")
print("func evals:", opt.state[opt._params[0]]["func_evals"] > 0)

C = 3
logits = torch.stack([torch.sin(t * 0.2 * (k + 1)) * (2 + k) for k in range(C)], 1)
labels = torch.remainder(t.long() * 2 + (t.long() // 5), C)


class VectorScaling(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.ones(c, dtype=torch.float64))
        self.b = nn.Parameter(torch.zeros(c, dtype=torch.float64))

    def forward(self, z):
        return z * self.w + self.b


class MatrixScaling(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.lin = nn.Linear(c, c, dtype=torch.float64)
        with torch.no_grad():
            self.lin.weight.copy_(torch.eye(c, dtype=torch.float64))
            self.lin.bias.zero_()

    def forward(self, z):
        return self.lin(z)


for cal in [VectorScaling(C), MatrixScaling(C)]:
    o = torch.optim.LBFGS(cal.parameters(), lr=0.5, max_iter=30, line_search_fn="strong_wolfe")

    def closure():
        o.zero_grad()
        loss = F.cross_entropy(cal(logits), labels) + 1e-3 * sum(p.pow(2).sum() for p in cal.parameters())
        loss.backward()
        return loss

    first = closure().item()
    for _ in range(2):
        o.step(closure)
    final = F.cross_entropy(cal(logits), labels).item()
    print(type(cal).__name__, f"{first:.3f} -> {final:.3f}", final < first)
    print({k: tuple(v.shape) for k, v in cal.state_dict().items()})
    with torch.no_grad():
        p = cal(logits).softmax(-1)
    print("mean conf %.3f acc %.3f" % (p.max(-1).values.mean().item(), (p.argmax(-1) == labels).double().mean().item()))
