# Comparing model outputs / state dicts in a test suite: assert_close on nested lists, tuples and
# dicts of tensors (state_dict round trips), with the "failure occurred for item" location.
import collections
import torch
import torch.nn as nn
from torch.testing import assert_close


def check(name, actual, expected, **kwargs):
    try:
        assert_close(actual, expected, **kwargs)
        print(f"{name}: ok")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {e}")
    print("-" * 20)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def make_net(offset=0.0):
    net = TinyNet()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) + offset)
    return net


a, b = make_net(), make_net()
check("state_dict equal", a.state_dict(), b.state_dict())
with torch.no_grad():
    b.fc2.bias[1] += 0.25
check("state_dict bias", a.state_dict(), b.state_dict())
sd = b.state_dict()
del sd["bn.num_batches_tracked"]
check("missing key", a.state_dict(), sd)
sd["extra.weight"] = torch.zeros(1)
check("extra + missing", a.state_dict(), sd)

x = torch.linspace(-2, 2, 15).reshape(5, 3)
a.eval(); b.eval()
check("outputs", a(x), b(x))
check("outputs tuple", (a(x), x), (b(x), x))
check("list len", [x, x], [x])
check("nested", {"out": [x, {"h": x * 2}]}, {"out": [x, {"h": x * 2 + 1e-3}]})
check("nested msg", {"out": [x, {"h": x * 2}]}, {"out": [x, {"h": x * 2 + 1e-3}]},
      msg="feature mismatch")
check("nested len msg", {"out": [x]}, {"out": [x, x]}, msg="feature mismatch")
check("nested type", {"k": [1.0, x]}, {"k": [1.0, x.tolist()]})
check("tuple vs list", (1.0, 2.0), [1.0, 2.0])
check("scalars list", [1, 2.0, 3], [1, 2.5, 3])
check("ordered vs dict", collections.OrderedDict(w=x), {"w": x})
check("int keys", {0: x, 1: x}, {0: x, 1: x + 1})
check("first error wins", [x + 1, [x]], [x, [x, x]])
check("None values", {"a": None, "b": x}, {"a": None, "b": x})
check("None vs tensor", {"a": None}, {"a": x})
check("bools", [True, False], [True, True])
check("numpy-like number", torch.tensor(3.0).item(), 3.0)
check("named tuple", torch.max(x, 0), torch.max(x + 0.5, 0))
check("Size", x.shape, torch.Size([5, 3]))
check("Size mismatch", x.shape, (5, 4))
