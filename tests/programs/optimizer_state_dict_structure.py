# What is inside optimizer.state_dict(): param_groups with their hyperparameters, per-parameter
# state (momentum_buffer, Adam's step/exp_avg/exp_avg_sq), integer keys, load_state_dict round
# trips, add_param_group, and changing the lr by hand.
import copy

import torch
import torch.nn as nn


def make_model():
    model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.shape) * 0.5)
    return model


X = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3], [-0.7, 0.9, 0.1], [0.0, -0.4, 1.1]])
Y = torch.tensor([[1.0], [-0.5], [0.25], [0.0]])


def train(model, opt, steps):
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(X) - Y) ** 2).mean()
        loss.backward()
        opt.step()
    return round(loss.item(), 6)


model = make_model()
sgd = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-2)
sd = sgd.state_dict()
print(sorted(sd.keys()), sd["state"], sd["param_groups"][0]["params"])
print(sorted(k for k in sd["param_groups"][0] if k != "params"))
print(train(model, sgd, 3))
sd = sgd.state_dict()
print(sorted(sd["state"].keys()), list(sd["state"][0].keys()), sd["state"][3]["momentum_buffer"])
print(sd["param_groups"][0]["lr"], sd["param_groups"][0]["momentum"], sd["param_groups"][0]["nesterov"])

model = make_model()
adam = torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.8, 0.99))
print(train(model, adam, 4))
state = adam.state_dict()["state"]
print(sorted(state[1].keys()), state[1]["step"], state[1]["exp_avg"], state[1]["exp_avg_sq"])
print(state[0]["step"].dtype, adam.state_dict()["param_groups"][0]["betas"])
print(len(adam.state), type(adam.state).__name__, model[2].bias in adam.state)

# save the optimizer, keep training two ways, and compare
clone_model = make_model()
clone_model.load_state_dict(model.state_dict())
clone_opt = torch.optim.Adam(clone_model.parameters(), lr=0.5)
clone_opt.load_state_dict(copy.deepcopy(adam.state_dict()))  # an in-memory state_dict shares its tensors
print(clone_opt.param_groups[0]["lr"], clone_opt.state_dict()["state"][1]["step"])
print(train(model, adam, 3), train(clone_model, clone_opt, 3))
print(torch.equal(model[0].weight, clone_model[0].weight))
fresh_model = make_model()
fresh_model.load_state_dict(clone_model.state_dict())
print(train(fresh_model, torch.optim.Adam(fresh_model.parameters(), lr=0.01, betas=(0.8, 0.99)), 1),
      train(model, adam, 1))

# param groups: different lr for the backbone and the head, then one more group
model = make_model()
opt = torch.optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[2].parameters(), "lr": 1e-3, "momentum": 0.5},
], lr=1e-2, momentum=0.9)
print([(g["lr"], g["momentum"], len(g["params"])) for g in opt.param_groups])
extra = nn.Parameter(torch.tensor([1.0, -1.0]))
opt.add_param_group({"params": [extra], "weight_decay": 0.5})
print([(g["lr"], g["momentum"], g["weight_decay"]) for g in opt.param_groups])
print(opt.state_dict()["param_groups"][2]["params"], [g["params"] for g in opt.state_dict()["param_groups"]])
for g in opt.param_groups:
    g["lr"] *= 0.1
print([round(g["lr"], 8) for g in opt.param_groups])
(model(X).sum() + extra.sum()).backward()
opt.step()
print(extra, model[2].bias)
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD(model.parameters(), lr=0.1).load_state_dict(opt.state_dict())
except ValueError as e:
    print("ValueError:", e)
print(repr(torch.optim.SGD([extra], lr=0.1, momentum=0.9)).splitlines()[:3])
