# Param groups with per-group options, add_param_group during training (unfreezing a head),
# printing the optimizer repr and per-group state, plus the errors users hit with groups.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
x = torch.linspace(-1, 1, 12).reshape(4, 3)
target = torch.tensor([0, 1, 1, 0])

opt = torch.optim.SGD([
    {"params": net[0].weight, "lr": 0.05, "momentum": 0.9},
    {"params": [net[0].bias], "weight_decay": 0.1},
], lr=0.1, momentum=0.5, nesterov=False)
print(opt)
for step in range(6):
    if step == 3:
        opt.add_param_group({"params": net[2].parameters(), "lr": 0.01, "dampening": 0.1})
        print("after add:", len(opt.param_groups), [g["lr"] for g in opt.param_groups],
              [g["dampening"] for g in opt.param_groups])
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(opt)
sd = opt.state_dict()
print([g["params"] for g in sd["param_groups"]])
print(sorted(sd["state"].keys()))
for g in sd["param_groups"]:
    print({k: v for k, v in g.items() if k != "params"})

a = nn.Parameter(torch.ones(2))
b = nn.Parameter(torch.zeros(2))
adam = torch.optim.Adam([{"params": [a]}, {"params": [b], "betas": (0.5, 0.6), "amsgrad": True}], lr=0.1)
print(adam)
errors = [
    lambda: torch.optim.SGD([], lr=0.1),
    lambda: torch.optim.SGD([{"params": [a]}, {"params": [a]}], lr=0.1),
    lambda: adam.add_param_group({"params": [a]}),
    lambda: adam.add_param_group({"params": b}),
    lambda: torch.optim.SGD([a * 2], lr=0.1),
    lambda: torch.optim.Adam([a], lr=0.1, betas=(0.9, 1.0)),
    lambda: torch.optim.Adam([a], lr=-1),
    lambda: torch.optim.Adam([a], eps=-1),
    lambda: torch.optim.AdamW([a], weight_decay=-0.1),
    lambda: torch.optim.SGD(a, lr=0.1),
    lambda: torch.optim.SGD([{"lr": 0.1}], lr=0.1),
    lambda: torch.optim.SGD([{"params": {a}}], lr=0.1),
]
for fn in errors:
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
