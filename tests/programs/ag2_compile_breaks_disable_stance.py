# Graph breaks and escape hatches as users write them: side effects around a break (list appends,
# dict updates, global counters), torch._dynamo.graph_break(), torch.compiler.disable on a method
# and with recursive=False, set_stance("force_eager"), fullgraph=True errors, and explain().
import torch
import torch.nn as nn

events = []
counter = {"n": 0}


@torch.compile
def step(x, tag):
    events.append(f"start {tag}")
    y = x.sin()
    counter["n"] += 1
    torch._dynamo.graph_break()
    events.append(f"after break {tag} {y.shape[0]}")
    z = y * x.numel()
    if z.sum().item() > 0:
        events.append("positive")
    return z


print(step(torch.tensor([0.5, 1.0]), "a"))
print(step(torch.tensor([-0.5, -1.0, -2.0]), "b"))
print(events, counter)

# gradients flow across a graph break
w = torch.tensor([0.25, 0.5], requires_grad=True)
out = step(w, "grad")
out.sum().backward()
print(w.grad)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        with torch.no_grad():
            self.fc.weight.copy_(torch.tensor([[1.0, 2.0], [-1.0, 0.5]]))
            self.fc.bias.zero_()
        self.seen = []

    @torch.compiler.disable
    def check(self, h):
        self.seen.append(tuple(h.shape))
        return h.clamp(min=-1.0)

    def forward(self, x):
        return self.check(self.fc(x)).exp()


net = Net()
cnet = torch.compile(net)
y = cnet(torch.tensor([[1.0, -1.0], [0.5, 0.5]]))
print(y.detach(), y.requires_grad)
y.sum().backward()
print(net.fc.weight.grad, net.seen)

# disable(recursive=False): only the outer frame is skipped
def inner(t):
    return t + 1


@torch.compiler.disable(recursive=False)
def outer(t):
    return inner(t) * 2


print(torch.compile(lambda t: outer(t) - 1)(torch.arange(3.0)))

# set_stance("force_eager") runs the original Python each call
calls = []


@torch.compile
def traced(t):
    calls.append(len(calls))
    return t * 3


with torch.compiler.set_stance("force_eager"):
    print(traced(torch.ones(2)), traced(torch.ones(2)))
print(calls)

# fullgraph=True turns a graph break into an error
@torch.compile(fullgraph=True)
def strict(t):
    print("side effect")
    return t.cos()


try:
    strict(torch.zeros(1))
except Exception as e:
    print(type(e).__name__)

# explain() runs the function and reports the breaks it found
def two_parts(t):
    a = t.relu()
    torch._dynamo.graph_break()
    return a + 1


exp = torch._dynamo.explain(two_parts)(torch.tensor([-1.0, 2.0]))
print(type(exp).__name__, exp.graph_break_count >= 1, len(exp.break_reasons) >= 1)
print(two_parts(torch.tensor([-1.0, 2.0])))
