# Adam / AdamW with amsgrad, custom betas/eps, weight_decay, maximize, foreach on/off and a
# 0-d tensor lr; prints parameters, state tensors (step as a tensor) and param_group defaults.
import torch

def params():
    return [torch.nn.Parameter(torch.tensor([[0.3, -0.7, 1.1], [0.2, 0.0, -0.4]])),
            torch.nn.Parameter(torch.tensor([0.1, -0.2]))]

def closure_loss(ps):
    w, b = ps
    x = torch.tensor([[1.0, 0.5], [-0.5, 2.0], [0.25, -1.0]])
    y = w @ x + b
    return (y.tanh() ** 2).sum() + 0.1 * (w ** 4).sum()

variants = [
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.02, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, maximize=True, foreach=True)),
    ("Adam", dict(lr=torch.tensor(0.01), foreach=False)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, weight_decay=0.5, amsgrad=True, foreach=True)),
    ("AdamW", dict(lr=0.05, betas=(0.5, 0.9), maximize=True)),
]
for name, kw in variants:
    ps = params()
    opt = getattr(torch.optim, name)(ps, **kw)
    for _ in range(5):
        opt.zero_grad()
        closure_loss(ps).backward()
        opt.step()
    shown = {k: (v.item() if torch.is_tensor(v) else v) for k, v in kw.items()}
    print(name, shown)
    print("  w", [round(v, 5) for v in ps[0].detach().flatten().tolist()])
    print("  b", [round(v, 5) for v in ps[1].detach().tolist()])
    s = opt.state[ps[1]]
    print("  state", sorted(s.keys()), s["step"], s["step"].dtype)
    print("  exp_avg", [round(v, 6) for v in s["exp_avg"].tolist()])
    print("  exp_avg_sq", [f"{v:.4e}" for v in s["exp_avg_sq"].tolist()])
    if "max_exp_avg_sq" in s:
        print("  max_exp_avg_sq", [f"{v:.4e}" for v in s["max_exp_avg_sq"].tolist()])
    g = opt.param_groups[0]
    print("  group", {k: g[k] for k in sorted(g) if k not in ("params", "lr")}, type(g["lr"]).__name__)

opt = torch.optim.AdamW(params(), lr=1e-3, amsgrad=True)
print(opt)
opt = torch.optim.Adam(params(), lr=torch.tensor(1e-3))
print(opt)
