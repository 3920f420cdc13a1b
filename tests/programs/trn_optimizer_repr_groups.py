# Optimizer objects as users inspect them: print(optimizer), per-group options with dict
# param groups, defaults, add_param_group, zero_grad(set_to_none=...), and argument errors.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))

opt = torch.optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[2].parameters(), "lr": 0.01, "momentum": 0.5},
], lr=0.1, momentum=0.9, weight_decay=1e-4)
print(opt)
print(sorted(opt.defaults.items()))
for i, g in enumerate(opt.param_groups):
    print(i, g["lr"], g["momentum"], g["weight_decay"], g["nesterov"], g["dampening"], len(g["params"]))

adam = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.8, 0.99), amsgrad=True)
print(adam)
adamw = torch.optim.AdamW(model.parameters())
print(adamw)
print(torch.optim.RMSprop(model.parameters(), lr=0.01, centered=True))
print(torch.optim.Adagrad(model.parameters(), lr_decay=0.01))

x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
loss = model(x).pow(2).sum()
loss.backward()
opt.step()
print([round(v, 6) for v in model[2].weight.view(-1).tolist()])
print(opt.state[model[2].weight]["momentum_buffer"])

opt.zero_grad(set_to_none=False)
print(model[0].weight.grad)
opt.zero_grad()
print(model[0].weight.grad)

# add_param_group for a newly unfrozen head
head = nn.Linear(1, 1)
opt.add_param_group({"params": head.parameters(), "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["lr"])
try:
    opt.add_param_group({"params": head.parameters()})
except ValueError as e:
    print(type(e).__name__, e)

for make in [
    lambda: torch.optim.SGD(model.parameters(), lr=-0.1),
    lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True),
    lambda: torch.optim.Adam(model.parameters(), betas=(1.0, 0.999)),
    lambda: torch.optim.Adam(model.parameters(), eps=-1.0),
    lambda: torch.optim.AdamW(model.parameters(), weight_decay=-0.1),
    lambda: torch.optim.RMSprop(model.parameters(), alpha=-1),
    lambda: torch.optim.SGD([], lr=0.1),
    lambda: torch.optim.SGD(model[0].weight, lr=0.1),
    lambda: torch.optim.Adam(model.parameters(), momentum=0.9),
]:
    try:
        make()
        print("ok")
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)

t = torch.tensor([1.0, 2.0])
try:
    torch.optim.SGD([t], lr=0.1)
    print("non-leaf ok")
except ValueError as e:
    print(type(e).__name__, e)
