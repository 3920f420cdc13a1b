# Walking the autograd graph the way the "how do I see the computation graph" answers do:
# grad_fn.next_functions, AccumulateGrad.variable, saved tensors attributes, metadata, names.
import torch
import torch.nn as nn


def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or id(fn) in seen:
        return
    seen.add(id(fn))
    extra = ""
    if hasattr(fn, "variable"):
        extra = f" variable shape={tuple(fn.variable.shape)}"
    print("  " * depth + type(fn).__name__ + extra)
    for nxt, idx in fn.next_functions:
        walk(nxt, depth + 1, seen)


x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor([0.5, -0.5], requires_grad=True)
y = (x.t()[0] * w).sum() + x.view(-1)[1:3].pow(2).mean() + x.unsqueeze(0).expand(3, 2, 2).sum()
walk(y.grad_fn)

print(y.grad_fn.next_functions[0][1], len(y.grad_fn.next_functions))
acc = x.t().grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is x, acc.next_functions, acc.name())

z = x.pow(3)
print(z.grad_fn._saved_self is x, z.grad_fn._saved_exponent)
s = x.sum(dim=1, keepdim=True)
print(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
m = x.mul(w)
print(torch.equal(m.grad_fn._saved_other, w), m.grad_fn._saved_self is x)
t = x.tanh()
print(t.grad_fn._saved_result is t, torch.equal(t.grad_fn._saved_result, t))
print(x.view(4).grad_fn._saved_self_sym_sizes)

# metadata dict survives on the node
node = y.grad_fn
node.metadata["tag"] = "loss"
print(y.grad_fn.metadata, type(node.metadata).__name__)

# a small network: the graph from loss to parameters
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
loss = nn.functional.mse_loss(net(x), torch.zeros(2, 1))
walk(loss.grad_fn)
params = {id(p): n for n, p in net.named_parameters()}


def leaves(fn, found):
    for nxt, _ in fn.next_functions:
        if nxt is None:
            continue
        if hasattr(nxt, "variable"):
            found.append(params.get(id(nxt.variable), "input"))
        else:
            leaves(nxt, found)
    return found


print(sorted(set(leaves(loss.grad_fn, []))))
print(loss.grad_fn.name())

# after backward, saved tensors are freed
u = (x * x).sum()
u.backward()
try:
    print(u.grad_fn.next_functions[0][0]._saved_self)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:100])
