# Exact parameters and state after a few steps of every torch.optim optimizer
# configured with its less common flags (amsgrad, maximize, decoupled decay, centered...).
import torch


def make_param():
    p = torch.nn.Parameter(torch.linspace(-1.0, 1.0, 6).reshape(2, 3))
    return p


def loss_fn(p, step):
    target = torch.cos(torch.arange(6.0).reshape(2, 3) + step)
    return ((p - target) ** 2).sum() + 0.1 * p.abs().sum()


configs = [
    ("SGD nesterov", torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD dampening", torch.optim.SGD, dict(lr=0.1, momentum=0.8, dampening=0.3)),
    ("SGD maximize", torch.optim.SGD, dict(lr=0.05, momentum=0.5, maximize=True)),
    ("Adam amsgrad", torch.optim.Adam, dict(lr=0.05, amsgrad=True, weight_decay=0.1)),
    ("Adam maximize", torch.optim.Adam, dict(lr=0.05, maximize=True, betas=(0.8, 0.9))),
    ("AdamW amsgrad", torch.optim.AdamW, dict(lr=0.05, amsgrad=True, weight_decay=0.5)),
    ("NAdam decoupled", torch.optim.NAdam, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("NAdam momentum_decay", torch.optim.NAdam, dict(lr=0.05, momentum_decay=0.01, weight_decay=0.1)),
    ("RAdam decoupled", torch.optim.RAdam, dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", torch.optim.RAdam, dict(lr=0.05)),
    ("Adamax", torch.optim.Adamax, dict(lr=0.05, weight_decay=0.1)),
    ("Adagrad lr_decay", torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.05, initial_accumulator_value=0.2)),
    ("Adadelta", torch.optim.Adadelta, dict(lr=1.0, rho=0.8, weight_decay=0.05)),
    ("RMSprop centered", torch.optim.RMSprop, dict(lr=0.01, centered=True, momentum=0.9)),
    ("RMSprop plain", torch.optim.RMSprop, dict(lr=0.01, alpha=0.9, weight_decay=0.1)),
    ("Rprop", torch.optim.Rprop, dict(lr=0.02, etas=(0.4, 1.3), step_sizes=(1e-3, 0.5))),
    ("ASGD", torch.optim.ASGD, dict(lr=0.05, t0=2, lambd=1e-2)),
]

for name, cls, kw in configs:
    p = make_param()
    opt = cls([p], **kw)
    for step in range(6):
        opt.zero_grad()
        loss = loss_fn(p, step)
        loss.backward()
        opt.step()
    print(f"== {name}")
    print("param", [round(v, 4) for v in p.detach().flatten().tolist()])
    state = opt.state_dict()["state"][0]
    for k in sorted(state):
        v = state[k]
        if torch.is_tensor(v):
            if v.numel() == 1:
                print(" ", k, v.dtype, v.shape, round(v.item(), 4))
            else:
                print(" ", k, v.dtype, tuple(v.shape), [round(x, 4) for x in v.flatten().tolist()])
        else:
            print(" ", k, v)
    g = opt.param_groups[0]
    print("  group keys", sorted(k for k in g if k != "params"))
