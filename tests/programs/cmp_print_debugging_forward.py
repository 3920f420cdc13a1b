# Print-debugging a compiled model: print() in forward with shapes, dtypes, tensor values and
# .item()/.tolist() results, prints inside a Python loop, a debug flag toggled between calls,
# and the order in which inside and outside prints appear on stdout.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, debug=True):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.debug = debug
        with torch.no_grad():
            self.fc.weight.copy_(torch.eye(3) * 2 - 0.5)
            self.fc.bias.copy_(torch.tensor([0.0, 0.5, -0.5]))

    def forward(self, x):
        h = self.fc(x)
        if self.debug:
            print("fc out:", h.shape, h.dtype, h.requires_grad)
            print("fc values:", h.detach())
        h = torch.relu(h)
        if self.debug:
            active, top = (h > 0).sum().item(), h.max().item()
            print(f"active units: {active} / {h.numel()}, max {top:.4f}")
        return h


block = Block()
cblock = torch.compile(block)
x = torch.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, -3.0]])
print("before")
y = cblock(x)
print("after", y.sum())
with torch.no_grad():
    y = cblock(x[:1])
print("after no_grad", y)
block.debug = False
print("debug off", cblock(x).sum())
block.debug = True


@torch.compile
def unrolled(x, steps: int):
    for i in range(steps):
        x = x * 0.5 + 1
        print("step", i, x.tolist())
    return x


print(unrolled(torch.tensor([4.0, 0.0]), 3))
print(unrolled(torch.tensor([2.0]), 2))

seq = torch.compile(nn.Sequential(nn.Identity(), Block(), nn.Tanh()))
out = seq(torch.ones(1, 3))
print(out, out.grad_fn.name() if out.grad_fn is not None else None)
out.sum().backward()
print(seq._orig_mod[1].fc.weight.grad)
