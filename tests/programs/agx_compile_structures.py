# torch.compile on functions returning tuples/dicts/lists, with keyword and default arguments,
# Python scalars that change between calls, modes and dynamic=True, and torch._dynamo.reset().
import torch


@torch.compile
def stats(x, scale=2.0, *, center=True):
    if center:
        x = x - x.mean()
    return {"sum": x.sum() * scale, "max": x.max(), "sq": [x ** 2, x.abs()]}, (x.shape[0], x.dtype)


x = torch.tensor([1.0, 4.0, 2.0, 7.0])
d, meta = stats(x)
print(sorted(d), meta)
print(d["sum"], d["max"], d["sq"][0], d["sq"][1], sep="\n")
d, _ = stats(x, 0.5, center=False)
print(d["sum"], d["max"], type(d["sq"]).__name__)
for s in (1.0, 3.0, -1.5):                      # changing a Python float argument
    print(s, stats(x, s)[0]["sum"])
for n in (2, 3, 6):                             # changing shapes
    d, meta = stats(torch.arange(float(n)), scale=1.0)
    print(meta, d["sq"][0])


def split_heads(q, heads: int = 2):
    b, n = q.shape
    return tuple(q.view(b, heads, n // heads).unbind(1))


fast_split = torch.compile(split_heads, dynamic=True)
q = torch.arange(12.0).view(2, 6)
parts = fast_split(q)
print(type(parts).__name__, len(parts), parts[0], parts[1], sep="\n")
parts = fast_split(q, heads=3)
print(len(parts), [tuple(p.shape) for p in parts])
print(fast_split(torch.arange(8.0).view(1, 8), 4)[3])

for mode in ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"):
    f = torch.compile(lambda a, b: (a * b).sum(dim=0), mode=mode)
    print(mode, f(torch.ones(2, 3), torch.arange(6.0).view(2, 3)))

try:
    torch.compile(lambda a: a, mode="fastest")
except RuntimeError as e:
    print("RuntimeError:", e)

torch._dynamo.reset()
print(stats(x, 1.0)[0]["sum"])


@torch.compile(fullgraph=True, dynamic=False)
def mixed(a, n: int, flag: bool, name: str = "relu"):
    out = a * n
    if flag:
        out = out + 1
    return getattr(torch, name)(out - 3)


for n, flag, name in ((1, True, "relu"), (2, False, "relu"), (2, False, "sigmoid"), (3, True, "tanh")):
    print(n, flag, name, mixed(torch.tensor([0.5, 1.0, 2.0]), n, flag, name))

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
out = stats(w)
(out[0]["sum"] + out[0]["sq"][0].sum()).backward()
print(w.grad, out[0]["max"].requires_grad, isinstance(out[1][0], int))
w.grad = None
stats(w)[0]["max"].backward()
print(w.grad)
