# Forum question: "one of the variables needed for gradient computation has been modified by an
# inplace operation", backward twice, .numpy() on grad tensors, no_grad then backward, int grads.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


# in-place ReLU / += on activations that are saved for backward
lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.).view(3, 3) / 10)
    lin.bias.zero_()
x = torch.linspace(-1, 1, 6).view(2, 3)
h = lin(x)
s = torch.sigmoid(h)
s += 1
attempt("sigmoid then +=", lambda: s.sum().backward())

h = lin(x)
t = torch.tanh(h)
t[:, 0] = 0
attempt("tanh then setitem", lambda: t.sum().backward())

h = lin(x)
r = torch.relu(h)
out = r * 2
r.add_(1)
attempt("relu saved by mul", lambda: out.sum().backward())

w = torch.ones(3, requires_grad=True)
y = w.exp()
y.mul_(2)
attempt("exp then mul_", lambda: y.sum().backward())

w2 = torch.ones(2, 2, requires_grad=True)
z = w2 @ w2
w2.data.add_(1)
attempt("modify via .data (silent)", lambda: (z.sum().backward(), w2.grad.tolist())[1])

p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p * p
q2 = q.pow(2)
q.zero_()
attempt("pow after zero_", lambda: q2.sum().backward())
print("version counter:", q._version)

# backward twice inside a loop (forgot to recompute loss)
m = torch.tensor([0.5], requires_grad=True)
loss = (m.sigmoid() * 3).sum()
for step in range(2):
    try:
        loss.backward()
        print("step", step, "grad", m.grad)
    except RuntimeError as e:
        print("step", step, type(e).__name__, e)

# .numpy() / item()
a = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("a.numpy()", lambda: a.numpy())
attempt("(a*2).numpy()", lambda: (a * 2).numpy())
attempt("detach fix", lambda: (a * 2).detach().numpy())
attempt("a.item()", lambda: a.item())
attempt("a.sum().item()", lambda: a.sum().item())
attempt("int(a)", lambda: int(a))
attempt("a.tolist()", lambda: a.tolist())

# no_grad / detach then backward
with torch.no_grad():
    l1 = (a ** 2).sum()
attempt("backward under no_grad result", lambda: l1.backward())
l2 = (a.detach() ** 2).sum()
attempt("backward after detach", lambda: l2.backward())
with torch.no_grad():
    l3 = (a ** 2).sum()
attempt("requires_grad_ on no_grad result", lambda: (l3.requires_grad_(), l3.backward(), a.grad)[2])
attempt("backward on non-scalar", lambda: (a * 2).backward())
attempt("backward non-scalar with grad", lambda: ((a * 2).backward(torch.ones(2)), a.grad)[1])
attempt("backward grad wrong shape", lambda: (a * 2).backward(torch.ones(3)))

# requires_grad on integer tensors
attempt("int requires_grad=True", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("arange requires_grad", lambda: torch.arange(3, requires_grad=True))
attempt("long requires_grad_()", lambda: torch.zeros(2, dtype=torch.long).requires_grad_())
attempt("bool requires_grad_()", lambda: torch.zeros(2, dtype=torch.bool).requires_grad_())
attempt("float arange ok", lambda: torch.arange(3.0, requires_grad=True))
attempt("nn.Parameter int", lambda: nn.Parameter(torch.tensor([1, 2])))
attempt("Parameter int no grad", lambda: nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
attempt("set requires_grad non-leaf", lambda: setattr(a * 2, "requires_grad", False))
attempt("grad of int output", lambda: torch.autograd.grad((a * 2).long().sum(), a))
attempt("autograd.grad unused", lambda: torch.autograd.grad((a * 2).sum(), [a, torch.ones(1, requires_grad=True)]))
