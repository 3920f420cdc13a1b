# Mistakes users make when constructing optimizers and param groups, and the messages
# PyTorch gives (invalid hyper-parameters, duplicate params, non-leaf tensors, sets).
import torch

a = torch.nn.Parameter(torch.ones(2))
b = torch.nn.Parameter(torch.zeros(2))

attempts = [
    ("neg lr", lambda: torch.optim.SGD([a], lr=-0.1)),
    ("neg momentum", lambda: torch.optim.SGD([a], lr=0.1, momentum=-1)),
    ("nesterov no momentum", lambda: torch.optim.SGD([a], lr=0.1, nesterov=True)),
    ("bad beta", lambda: torch.optim.Adam([a], betas=(1.0, 0.999))),
    ("bad beta2", lambda: torch.optim.Adam([a], betas=(0.9, -0.1))),
    ("bad eps", lambda: torch.optim.Adam([a], eps=-1e-8)),
    ("bad wd", lambda: torch.optim.AdamW([a], weight_decay=-0.1)),
    ("empty", lambda: torch.optim.Adam([])),
    ("set", lambda: torch.optim.Adam({a, b})),
    ("tensor", lambda: torch.optim.SGD(a, lr=0.1)),
    ("dup group", lambda: torch.optim.SGD([{"params": [a]}, {"params": [a, b]}], lr=0.1)),
    ("dup in list", lambda: torch.optim.SGD([a, a], lr=0.1)),
    ("non leaf", lambda: torch.optim.SGD([a * 2], lr=0.1)),
    ("rho", lambda: torch.optim.Adadelta([a], rho=1.5)),
    ("alpha", lambda: torch.optim.RMSprop([a], alpha=-0.5)),
    ("lr_decay", lambda: torch.optim.Adagrad([a], lr_decay=-1)),
    ("init acc", lambda: torch.optim.Adagrad([a], initial_accumulator_value=-1)),
    ("etas", lambda: torch.optim.Rprop([a], etas=(1.2, 0.5))),
    ("momentum_decay", lambda: torch.optim.NAdam([a], momentum_decay=-0.1)),
    ("foreach+fused", lambda: torch.optim.Adam([a], foreach=True, fused=True)),
    ("differentiable+fused", lambda: torch.optim.Adam([a], differentiable=True, fused=True)),
    ("no lr sgd group", lambda: torch.optim.SGD([{"params": [a], "lr": 0.1}, {"params": [b]}])),
]
for name, fn in attempts:
    try:
        opt = fn()
        print(name, "ok", type(opt).__name__, [g["lr"] for g in opt.param_groups])
    except Exception as e:
        print(name, type(e).__name__, e)

opt = torch.optim.SGD([a], lr=0.1)
for grp in [{"params": [a]}, {"params": b}, {"params": {b}}, {"params": [b], "lr": 0.5, "foo": 1}]:
    try:
        opt.add_param_group(grp)
        print("added", sorted(k for k in opt.param_groups[-1] if k != "params"))
    except Exception as e:
        print(type(e).__name__, e)
print(len(opt.param_groups))
print(opt)
