# Error messages users hit when registering submodules, parameters and buffers by hand
# (add_module / register_module / register_parameter / register_buffer / setattr) and when
# looking things up with get_submodule / get_parameter / get_buffer.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", type(out).__name__ if out is not None else "")
    except Exception as e:
        print(label, type(e).__name__, e)


m = nn.Module()
attempt("add dotted", lambda: m.add_module("a.b", nn.Linear(2, 2)))
attempt("add empty", lambda: m.add_module("", nn.Linear(2, 2)))
attempt("add nonstr", lambda: m.add_module(3, nn.Linear(2, 2)))
attempt("add tensor", lambda: m.add_module("t", torch.zeros(2)))
attempt("add none", lambda: m.add_module("slot", None))
print(m._modules, "slot" in dict(m.named_children()), m.slot)
attempt("register_module", lambda: m.register_module("lin", nn.Linear(2, 3)))
m.w = nn.Parameter(torch.ones(2))
attempt("add over param", lambda: m.add_module("w", nn.Linear(2, 2)))
m.plain = 5
attempt("add over attr", lambda: m.add_module("plain", nn.Linear(2, 2)))
attempt("param dotted", lambda: m.register_parameter("x.y", nn.Parameter(torch.ones(1))))
attempt("param tensor", lambda: m.register_parameter("p", torch.ones(1)))
attempt("param over module", lambda: m.register_parameter("lin", nn.Parameter(torch.ones(1))))
attempt("param none", lambda: m.register_parameter("maybe", None))
print(list(m._parameters.keys()), m.maybe)
attempt("buffer dotted", lambda: m.register_buffer("r.s", torch.ones(1)))
attempt("buffer list", lambda: m.register_buffer("r", [1, 2]))
attempt("buffer over param", lambda: m.register_buffer("w", torch.ones(1)))
attempt("buffer ok", lambda: m.register_buffer("r", torch.arange(3), persistent=False))
attempt("buffer over attr", lambda: m.register_buffer("plain", torch.ones(1)))
print(sorted(m.state_dict().keys()), [n for n, _ in m.named_buffers()])

attempt("setattr tensor on param", lambda: setattr(m, "w", torch.zeros(2)))
attempt("setattr none on param", lambda: setattr(m, "w", None))
print(m.w, list(m._parameters.keys()))
attempt("setattr param on buffer", lambda: setattr(m, "r", nn.Parameter(torch.zeros(3))))
print(list(m._parameters.keys()), list(m._buffers.keys()))
attempt("setattr int on module", lambda: setattr(m, "lin", 3))
attempt("setattr none on module", lambda: setattr(m, "lin", None))
print(m._modules)

class Early(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)

attempt("before init", Early)

class EarlyParam(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))

attempt("before init param", EarlyParam)

net = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.BatchNorm1d(3)))
attempt("get_submodule", lambda: net.get_submodule("1.1"))
attempt("get_submodule missing", lambda: net.get_submodule("1.7"))
attempt("get_submodule not module", lambda: net.get_submodule("0.weight"))
attempt("get_parameter", lambda: net.get_parameter("0.bias"))
attempt("get_parameter buffer", lambda: net.get_parameter("1.1.running_mean"))
attempt("get_parameter missing", lambda: net.get_parameter("0.scale"))
attempt("get_buffer", lambda: net.get_buffer("1.1.num_batches_tracked"))
attempt("get_buffer param", lambda: net.get_buffer("0.weight"))
attempt("get_buffer missing", lambda: net.get_buffer("1.0.running_mean"))
attempt("delattr", lambda: delattr(net[1], "1"))
print(net)
attempt("getattr missing", lambda: net.missing)
