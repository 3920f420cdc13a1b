# What autograd returns at the kinks: relu/abs/clamp/hardtanh at their corners, max/min with ties
# (full reductions split the gradient, maximum() splits it in half), sqrt and norm at zero,
# pow with a zero base, and gradients piling up on repeated indices.
import torch
import torch.nn.functional as F


def grad(fn, values):
    x = torch.tensor(values, requires_grad=True)
    (g,) = torch.autograd.grad(fn(x).sum(), x)
    return g


pts = [-1.0, 0.0, 1.0, 2.0]
print("relu", grad(torch.relu, pts), grad(F.relu6, [0.0, 3.0, 6.0, 7.0]))
print("abs", grad(torch.abs, pts), "sign", grad(torch.sign, pts))
print("leaky", grad(lambda x: F.leaky_relu(x, 0.1), pts), "elu", grad(F.elu, pts))
print("clamp", grad(lambda x: x.clamp(0.0, 1.0), pts))
print("clamp_min", grad(lambda x: x.clamp(min=1.0), pts), "clamp_max", grad(lambda x: x.clamp(max=0.0), pts))
print("hardtanh", grad(F.hardtanh, [-1.0, -0.5, 1.0, 1.5]))
print("round", grad(torch.round, pts), "floor", grad(torch.floor, [0.5, 1.0]))
print("max ties", grad(torch.max, [1.0, 3.0, 3.0, 2.0]), grad(torch.amax, [3.0, 3.0, 3.0, 0.0]))
print("min ties", grad(torch.min, [0.0, 0.0, 1.0, 0.0]))
print("amax dim", grad(lambda x: x.view(2, 2).amax(dim=1), [1.0, 1.0, 2.0, 5.0]))
print("maximum", grad(lambda x: torch.maximum(x, torch.tensor([0.0, 0.0, 5.0, 2.0])), pts))
print("minimum", grad(lambda x: torch.minimum(x, torch.ones(4)), pts))
print("max(a, b) both", torch.autograd.grad(torch.maximum(*(t := [torch.tensor(2.0, requires_grad=True),
                                                              torch.tensor(2.0, requires_grad=True)])), t))
print("where", grad(lambda x: torch.where(x > 0, x, 0.5 * x), pts))
print("sqrt", grad(torch.sqrt, [0.0, 1.0, 4.0]), "sqrt*0", grad(lambda x: torch.sqrt(x) * 0, [0.0]))
print("sqrt(x^2)", grad(lambda x: torch.sqrt(x ** 2), [0.0, -2.0]), "sqrt(x^2+eps)", grad(lambda x: torch.sqrt(x ** 2 + 1e-12), [0.0]))
print("norm", grad(torch.norm, [0.0, 0.0, 0.0]), grad(torch.norm, [3.0, 4.0]))
print("norm dim", grad(lambda x: x.view(2, 2).norm(dim=1), [0.0, 0.0, 3.0, 4.0]))
print("linalg.norm", grad(torch.linalg.norm, [0.0, 0.0]), grad(lambda x: torch.linalg.vector_norm(x, ord=1), [0.0, -2.0]))
print("normalize", grad(lambda x: F.normalize(x, dim=0)[0], [0.0, 0.0]))
print("pow 0^2", grad(lambda x: x ** 2, [0.0]), "0^0.5", grad(lambda x: x ** 0.5, [0.0]),
      "0^0", grad(lambda x: x ** 0, [0.0]), "0^1", grad(lambda x: x ** 1, [0.0]))
print("0^y", torch.autograd.grad((torch.tensor(0.0) ** (y := torch.tensor([0.0, 1.0, 2.0], requires_grad=True))).sum(), y))
print("log 0", grad(torch.log, [0.0, 1.0]), "1/x", grad(lambda x: 1 / x, [0.0]), "x*log x", grad(lambda x: x * torch.log(x), [0.0]))
print("exp/log nan", grad(lambda x: torch.where(x > 0, torch.log(x), x), [-1.0, 1.0]))
print("std const", grad(lambda x: x.std(), [1.0, 1.0, 1.0]), "var", grad(lambda x: x.var(), [1.0, 1.0, 1.0]))
print("atan2", grad(lambda x: torch.atan2(x, torch.zeros(2)), [0.0, 1.0]))
print("div 0/0", grad(lambda x: x / x, [0.0, 2.0]))

# indexing: repeated indices accumulate in backward
x = torch.arange(5.0, requires_grad=True)
idx = torch.tensor([0, 2, 2, 4, 2])
x[idx].sum().backward()
print(x.grad)
x.grad = None
(x[idx] * torch.tensor([1.0, 10.0, 100.0, 1000.0, 10000.0])).sum().backward()
print(x.grad)
x.grad = None
x[[1, 1, 3]].pow(2).sum().backward()
print(x.grad)
x.grad = None
m = x.view(5, 1).expand(5, 3)
m[torch.tensor([0, 0]), torch.tensor([1, 2])].sum().backward()
print(x.grad)
x.grad = None
x[torch.tensor([True, False, True, False, True])].sum().backward()
print(x.grad)
x.grad = None
x[-1].backward()
print(x.grad)
x.grad = None
torch.index_select(x, 0, torch.tensor([3, 3, 1])).sum().backward()
print(x.grad)
x.grad = None
x.gather(0, torch.tensor([4, 4, 4])).sum().backward()
print(x.grad)

# forward of repeated-index assignment: only one write wins for +=, index_put_ accumulate adds
t = torch.zeros(3)
t[torch.tensor([0, 0, 2])] += 1
print(t)
t = torch.zeros(3)
t.index_put_((torch.tensor([0, 0, 2]),), torch.tensor(1.0), accumulate=True)
print(t)
t = torch.zeros(3).index_add(0, torch.tensor([0, 0, 2]), torch.ones(3))
print(t)
w = torch.tensor([1.0, 2.0], requires_grad=True)
out = torch.zeros(3).index_put((torch.tensor([0, 0]),), w, accumulate=True)
out.sum().backward()
print(out, w.grad)
