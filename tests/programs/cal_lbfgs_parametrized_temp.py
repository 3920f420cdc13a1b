# Temperature kept positive with nn.utils.parametrize (softplus + right_inverse), fitted with
# LBFGS; inspect the LBFGS state_dict a user would checkpoint, then print calibrated probs.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P

logits = torch.stack([torch.sin(torch.arange(20.) * (k + 1) * 0.3) * 3 for k in range(3)], 1)
labels = torch.arange(20) % 3

T = torch.ones(1, requires_grad=True)
opt = torch.optim.LBFGS([T], lr=0.1, max_iter=20, history_size=5, tolerance_grad=1e-9, tolerance_change=1e-12)


def closure():
    opt.zero_grad()
    loss = F.cross_entropy(logits / T, labels)
    loss.backward()
    return loss


first = opt.step(closure)
print(f"first loss {first.item():.5f} T {T.item():.5f}")
sd = opt.state_dict()
print(sorted(sd["state"][0].keys()))
st = sd["state"][0]
print(st["func_evals"], st["n_iter"], len(st["old_dirs"]), len(st["old_stps"]), st["d"].shape)
print(sd["param_groups"])


class Positive(nn.Module):
    def forward(self, x):
        return F.softplus(x)

    def right_inverse(self, y):
        return torch.log(torch.expm1(y))


class TemperatureScaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = nn.Parameter(torch.tensor([1.5]))

    def forward(self, z):
        return z / self.t


m = TemperatureScaler()
P.register_parametrization(m, "t", Positive())
print(m.t, m.parametrizations.t.original)
print(list(dict(m.named_parameters()).keys()), list(m.state_dict().keys()))
o = torch.optim.LBFGS(m.parameters(), lr=0.5, max_iter=30, line_search_fn="strong_wolfe")


def closure2():
    o.zero_grad()
    loss = F.cross_entropy(m(logits), labels)
    loss.backward()
    return loss


o.step(closure2)
print(f"fitted T {m.t.item():.4f}")
torch.set_printoptions(precision=3, sci_mode=False)
print(F.softmax(m(logits[:3]), 1))
torch.set_printoptions(profile="default")
with P.cached():
    print(m.t is m.t)
P.remove_parametrizations(m, "t", leave_parametrized=True)
print(type(m.t).__name__, f"{m.t.item():.4f}", list(m.state_dict().keys()))
