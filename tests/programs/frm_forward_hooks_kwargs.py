# Framework-style forward hooks: pre-hooks and hooks with kwargs (with_kwargs=True),
# prepend ordering, always_call hooks that run even when forward raises, handle removal.
import torch
import torch.nn as nn


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, x, scale=1.0, shift=None):
        y = self.lin(x) * scale
        if shift is not None:
            y = y + shift
        return y


m = Scaled()
with torch.no_grad():
    m.lin.weight.copy_(torch.arange(6.).view(2, 3) / 10)
    m.lin.bias.copy_(torch.tensor([0.5, -0.5]))

log = []


def pre_kw(mod, args, kwargs):
    log.append(("pre_kw", type(mod).__name__, len(args), sorted(kwargs)))
    kwargs = dict(kwargs)
    kwargs["scale"] = kwargs.get("scale", 1.0) * 2
    return args, kwargs


def pre_plain(mod, args):
    log.append(("pre_plain", args[0].shape))
    return (args[0] + 1,)


def post_kw(mod, args, kwargs, out):
    log.append(("post_kw", sorted(kwargs), tuple(out.shape)))
    return out * 10


def post_plain(mod, args, out):
    log.append(("post_plain", round(out.sum().item(), 4)))


h1 = m.register_forward_pre_hook(pre_kw, with_kwargs=True)
h2 = m.register_forward_pre_hook(pre_plain, prepend=True)
h3 = m.register_forward_hook(post_kw, with_kwargs=True)
h4 = m.register_forward_hook(post_plain, prepend=True)

x = torch.arange(6.).view(2, 3)
out = m(x, scale=0.5, shift=torch.ones(2))
for entry in log:
    print(entry)
print(out)
print(type(h1).__name__, h1.id < h2.id, len(m._forward_pre_hooks), len(m._forward_hooks))

log.clear()
h2.remove()
h4.remove()
h4.remove()
print(m(x))
print(log)
print(len(m._forward_pre_hooks), len(m._forward_hooks), list(m._forward_pre_hooks_with_kwargs))
h1.remove()
h3.remove()


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("bad input")


b = Boom()
seen = []
b.register_forward_hook(lambda mod, a, o: seen.append(("always", o)), always_call=True)
b.register_forward_hook(lambda mod, a, o: seen.append(("normal", o)))
try:
    b(torch.zeros(1))
except ValueError as e:
    print(type(e).__name__, e)
print(seen)

with m.register_forward_hook(lambda mod, a, o: o.neg()) as h:
    print(m(x))
print(m(x))

def bad_pre(mod, args, kwargs):
    return args
hb = m.register_forward_pre_hook(bad_pre, with_kwargs=True)
try:
    m(x)
except RuntimeError as e:
    print(type(e).__name__, e)
hb.remove()
