# What makes a compiled function run again correctly: dtype changes, requires_grad changes,
# a global hyper-parameter edited between calls, a module attribute toggled, reset().
import torch
import torch.nn as nn

SCALE = 2.0


@torch.compile
def scaled_softmax(x):
    return torch.softmax(x * SCALE, dim=-1)


x = torch.linspace(-1, 1, 6).view(2, 3)
print(torch.round(scaled_softmax(x), decimals=4))
SCALE = 0.5
print(torch.round(scaled_softmax(x), decimals=4))
y = scaled_softmax(x.double())
print(y.dtype, torch.round(y, decimals=4))
xr = x.clone().requires_grad_()
z = scaled_softmax(xr)
print(z.requires_grad, z.grad_fn is not None)
(z[:, 0]).sum().backward()
print(torch.round(xr.grad, decimals=4))


class Act(nn.Module):
    def __init__(self):
        super().__init__()
        self.kind = "relu"
        self.slope = 0.1

    def forward(self, x):
        if self.kind == "relu":
            return torch.relu(x)
        return torch.nn.functional.leaky_relu(x, self.slope)


act = Act()
cact = torch.compile(act)
print(cact(x).tolist())
act.kind = "leaky"
print([[round(v, 3) for v in r] for r in cact(x).tolist()])
cact.slope = 0.3
print(act.slope, [[round(v, 3) for v in r] for r in cact(x).tolist()])
torch.compiler.reset()
print([[round(v, 3) for v in r] for r in cact(x).tolist()])
torch._dynamo.reset()
act.kind = "relu"
print(cact(x * 3).tolist())
