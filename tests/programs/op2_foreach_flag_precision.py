# A user checking that foreach=True (multi-tensor) and foreach=False (per-parameter loop) give
# the same training, printing parameters with 6 significant digits, plus Adam's betas checks.
import torch
import torch.nn as nn

def make():
    m = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).cos().reshape(p.shape) * 0.4)
    return m

x = torch.stack([torch.linspace(-1, 1, 16), torch.linspace(0, 1, 16) ** 2,
                 torch.linspace(0, 6, 16).sin(), torch.linspace(0, 6, 16).cos()], 1)
y = (x[:, :1] * 2 - x[:, 2:3]).tanh()

for name, kw in [("RMSprop", dict(lr=0.01)), ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5)),
                 ("Adagrad", dict(lr=0.05, lr_decay=0.01)), ("Adadelta", dict(lr=0.5)),
                 ("Adamax", dict(lr=0.01)), ("NAdam", dict(lr=0.01)), ("RAdam", dict(lr=0.01)),
                 ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
                 ("ASGD", dict(lr=0.05, t0=3))]:
    results = {}
    for foreach in (False, True):
        model = make()
        opt = getattr(torch.optim, name)(model.parameters(), foreach=foreach, **kw)
        for step in range(10):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
        results[foreach] = [f"{v:.6g}" for v in model[2].weight.detach().flatten().tolist()[:4]]
        results[foreach].append(f"{loss.item():.6g}")
    print(name, kw)
    print("  loop   ", results[False])
    print("  foreach", results[True])

p = nn.Parameter(torch.ones(3))
for betas in [(0, 0.999), (0.9, 0.999), (torch.tensor(0.9), 0.999), (torch.tensor(0.9), torch.tensor(0.999))]:
    try:
        opt = torch.optim.AdamW([p], betas=betas)
        print("ok", opt.param_groups[0]["betas"])
    except ValueError as e:
        print("ValueError", e)
try:
    torch.optim.Adam([p], betas=(torch.tensor(0.9), torch.tensor(0.99)), foreach=True)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.Adagrad([p], lr_decay=-1, eps=-1)
except ValueError as e:
    print("ValueError", e)
