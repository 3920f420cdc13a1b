# Cooperative multiple inheritance with nn.Module: a config-recording mixin (hub-mixin style)
# initialised through nn.Module.call_super_init, the errors nn.Module.__init__ raises for stray
# arguments, and rebuilding a model from its recorded config + state_dict.
import io
import torch
import torch.nn as nn


class ConfigMixin:
    def __init__(self, *args, config=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._config = dict(config or {})

    @property
    def config(self):
        return dict(self._config)

    @classmethod
    def from_config(cls, config, state_dict=None):
        model = cls(**config)
        if state_dict is not None:
            print("  load:", model.load_state_dict(state_dict))
        return model


class MLP(nn.Module, ConfigMixin):
    call_super_init = True

    def __init__(self, dims=(3, 8, 2), act="tanh"):
        super().__init__(config={"dims": list(dims), "act": act})
        layers = []
        for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])):
            layers.append(nn.Linear(a, b))
            if i < len(dims) - 2:
                layers.append(nn.Tanh() if act == "tanh" else nn.ReLU())
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


m = MLP(dims=(3, 5, 4, 2), act="relu")
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view_as(p))
print(m.config, type(m).__mro__[1].__name__, MLP.call_super_init, nn.Module.call_super_init)
print(m)
print("_config" in m.__dict__, "_config" in m.state_dict())

buf = io.BytesIO()
torch.save({"config": m.config, "state": m.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf)
m2 = MLP.from_config(ckpt["config"], ckpt["state"])
x = torch.linspace(-1, 1, 6).view(2, 3)
print(torch.equal(m(x), m2(x)), m2(x))


class Plain(nn.Module):
    def __init__(self, hidden):
        super().__init__(hidden)


class PlainKw(nn.Module):
    def __init__(self, hidden):
        super().__init__(hidden=hidden)


class Both(nn.Module):
    def __init__(self):
        super().__init__(1, 2, extra=True)


for cls in (Plain, PlainKw):
    try:
        cls(4)
    except TypeError as e:
        print("TypeError", e)
try:
    Both()
except TypeError as e:
    print("TypeError", e)


class NoCall(nn.Module, ConfigMixin):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)


n = NoCall()
print(hasattr(n, "_config"), [k for k in n.state_dict()])
