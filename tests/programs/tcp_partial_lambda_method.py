# Compiling the callables users have at hand: a functools.partial, a lambda, a bound method,
# a function with default/keyword arguments, and a closure over a Python float that changes.
import functools
import torch


def gelu_mix(x, alpha=0.5, *, bias=0.0):
    return alpha * torch.nn.functional.gelu(x) + (1 - alpha) * torch.tanh(x) + bias


x = torch.linspace(-2.0, 2.0, 5)

part = torch.compile(functools.partial(gelu_mix, alpha=0.25))
print("partial", torch.round(part(x), decimals=4))
print("partial kw", torch.round(part(x, bias=1.0), decimals=4))

sq = torch.compile(lambda t: (t * t).sum(dim=-1, keepdim=True))
print("lambda", sq(torch.arange(6.0).view(2, 3)))


class Scaler:
    def __init__(self, scale):
        self.scale = scale
        self.calls = 0

    def apply(self, t):
        self.calls += 1
        return t * self.scale + 1


s = Scaler(3.0)
capply = torch.compile(s.apply)
print("method", capply(x), s.calls)
s.scale = -1.0  # attribute changed: guards must notice
print("method after change", capply(x), s.calls)

temperature = 2.0


@torch.compile
def softmax_t(logits):
    return torch.softmax(logits / temperature, dim=-1)


logits = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]])
print("T=2", torch.round(softmax_t(logits), decimals=4))
temperature = 0.5  # global rebinding
print("T=0.5", torch.round(softmax_t(logits), decimals=4))


def make_affine(w, b):
    @torch.compile
    def affine(t):
        return t * w + b
    return affine


f1, f2 = make_affine(2.0, 1.0), make_affine(-1.0, 0.5)
print("closures", f1(x), f2(x))

opt_fn = torch.compile(gelu_mix)
print("defaults", torch.round(opt_fn(x), decimals=4))
print("positional alpha", torch.round(opt_fn(x, 1.0), decimals=4))
print("kw", torch.round(opt_fn(x, alpha=0.0, bias=-1.0), decimals=4))
print(callable(opt_fn), opt_fn.__name__ if hasattr(opt_fn, "__name__") else None)
