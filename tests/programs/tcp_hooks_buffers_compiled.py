# A compiled module that updates its own buffers in forward (a call counter, an EMA of the
# activations), uses an nn.ModuleDict / nn.ParameterList, and has forward hooks registered.
import torch
import torch.nn as nn


class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.branches = nn.ModuleDict({"a": nn.Linear(3, 4), "b": nn.Linear(3, 4)})
        self.scales = nn.ParameterList([nn.Parameter(torch.tensor(0.5)), nn.Parameter(torch.tensor(2.0))])
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))
        self.register_buffer("ema", torch.zeros(4))

    def forward(self, x, branch: str = "a"):
        h = torch.tanh(self.branches[branch](x))
        h = h * self.scales[0] + self.scales[1]
        if self.training:
            self.calls += 1
            self.ema.mul_(0.9).add_(0.1 * h.detach().mean(0))
        return h


m = Tracker()
with torch.no_grad():
    for i, p in enumerate(m.branches.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (1 + i))

seen = []
handle = m.register_forward_hook(lambda mod, inp, out: seen.append(tuple(out.shape)))
pre = m.branches["a"].register_forward_pre_hook(lambda mod, inp: (inp[0] * 2,))

cm = torch.compile(m)
x = torch.linspace(-1, 1, 6).view(2, 3)
for _ in range(3):
    y = cm(x)
print(torch.round(y, decimals=4))
print("calls", m.calls, "ema", torch.round(m.ema, decimals=4))
print("hook saw", seen)
yb = cm(x, "b")
print("branch b", torch.round(yb, decimals=4), m.calls.item())

handle.remove()
pre.remove()
y_nohook = cm(x)
print("no hooks", torch.round(y_nohook, decimals=4), len(seen))

y_nohook.sum().backward()
print([None if p.grad is None else tuple(p.grad.shape) for p in m.scales])
print(torch.round(m.scales[0].grad, decimals=4), m.scales[1].grad)

m.eval()
with torch.no_grad():
    cm(x)
print("eval keeps calls", m.calls.item())
print(sorted(k for k in cm.state_dict()))
