# NAdam (momentum_decay, decoupled_weight_decay), RAdam (decoupled_weight_decay) and Adamax:
# a user comparing the Adam family on a small regression and inspecting optimizer state.
import torch
import torch.nn as nn

def make_model():
    m = nn.Linear(3, 2)
    with torch.no_grad():
        m.weight.copy_(torch.arange(6, dtype=torch.float32).reshape(2, 3) / 10 - 0.2)
        m.bias.copy_(torch.tensor([0.05, -0.05]))
    return m

x = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(0, 2, 8).cos(), torch.linspace(0, 3, 8).sin()], 1)
y = torch.stack([x[:, 0] * 2 - x[:, 1], x[:, 2] + 0.5], 1)

runs = [
    ("NAdam", dict(lr=0.05)),
    ("NAdam", dict(lr=0.05, momentum_decay=0.01, weight_decay=0.1)),
    ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.05)),
    ("RAdam", dict(lr=0.05, weight_decay=0.2, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.05, betas=(0.9, 0.9), weight_decay=0.2)),
    ("Adamax", dict(lr=0.1)),
    ("Adamax", dict(lr=0.1, betas=(0.5, 0.99), weight_decay=0.05, maximize=False)),
]
for name, kw in runs:
    model = make_model()
    opt = getattr(torch.optim, name)(model.parameters(), **kw)
    losses = []
    for step in range(8):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 5))
    print(name, kw)
    print("  losses", losses)
    print("  bias", [round(v, 5) for v in model.bias.detach().tolist()])
    st = opt.state_dict()["state"][1]
    for k in sorted(st):
        v = st[k]
        if v.dim() == 0:
            print(f"  {k}: {v.item():.6g} {v.dtype}")
        else:
            print(f"  {k}:", [f"{t:.5g}" for t in v.tolist()])
    pg = opt.state_dict()["param_groups"][0]
    print("  keys", sorted(pg))

print(torch.optim.NAdam(make_model().parameters(), momentum_decay=0.002, decoupled_weight_decay=True))
print(torch.optim.RAdam(make_model().parameters(), decoupled_weight_decay=True))
for cls, kw in [(torch.optim.NAdam, dict(momentum_decay=-1.0)), (torch.optim.RAdam, dict(betas=(1.0, 0.9))),
                (torch.optim.Adamax, dict(eps=-1e-8)), (torch.optim.NAdam, dict(betas=(0.9, 1.5)))]:
    try:
        cls(make_model().parameters(), **kw)
    except ValueError as e:
        print(cls.__name__, "ValueError:", e)
