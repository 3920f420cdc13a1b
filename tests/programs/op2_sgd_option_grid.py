# Sweep of torch.optim.SGD options (momentum, dampening, nesterov, weight_decay, maximize)
# as a user comparing configurations on a tiny quadratic, printing params and momentum buffers.
import torch

def make_params():
    w = torch.nn.Parameter(torch.linspace(-1.0, 1.0, 6).reshape(2, 3))
    b = torch.nn.Parameter(torch.tensor([0.5, -0.25]))
    return [w, b]

def loss_fn(w, b):
    x = torch.arange(6, dtype=torch.float32).reshape(3, 2) / 5.0
    return ((w @ x + b) ** 2).sum() + (w.sin()).sum()

configs = [
    dict(lr=0.1),
    dict(lr=0.1, momentum=0.9),
    dict(lr=0.1, momentum=0.9, dampening=0.5),
    dict(lr=0.1, momentum=0.9, nesterov=True),
    dict(lr=0.05, momentum=0.8, weight_decay=0.01),
    dict(lr=0.05, momentum=0.5, maximize=True),
    dict(lr=0.05, weight_decay=0.1, maximize=True),
]
for cfg in configs:
    w, b = make_params()
    opt = torch.optim.SGD([w, b], **cfg)
    for step in range(4):
        opt.zero_grad()
        loss = loss_fn(w, b)
        loss.backward()
        opt.step()
    print(cfg)
    print("  loss", f"{loss_fn(w, b).item():.5f}")
    print("  w", [round(v, 5) for v in w.detach().flatten().tolist()])
    print("  b", [round(v, 5) for v in b.detach().tolist()])
    st = opt.state_dict()
    print("  state keys", {k: sorted(v.keys()) for k, v in st["state"].items()})
    if cfg.get("momentum"):
        buf = st["state"][1]["momentum_buffer"]
        print("  buf b", [round(v, 5) for v in buf.tolist()])
    pg = st["param_groups"][0]
    print("  group", sorted(pg.keys()))
    print("  group values", pg["momentum"], pg["dampening"], pg["nesterov"], pg["weight_decay"], pg["maximize"], pg["foreach"], pg["differentiable"], pg["fused"], pg["params"])

opt = torch.optim.SGD(make_params(), lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-4)
print(opt)
for bad in [dict(lr=0.1, nesterov=True), dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
            dict(lr=-0.1), dict(lr=0.1, momentum=-0.5), dict(lr=0.1, weight_decay=-1.0)]:
    try:
        torch.optim.SGD(make_params(), **bad)
        print("ok", bad)
    except ValueError as e:
        print("ValueError", e)
