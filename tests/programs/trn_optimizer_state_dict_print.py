# Printing optimizer.state_dict() whole, the way people debug a resume: Adam/SGD/RMSprop state
# after a few steps, optimizers built from model.named_parameters() (param_names),
# optimizer step hooks, and load_state_dict round trips (deepcopy, lr changes survive).
import copy

import torch
import torch.nn as nn

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [2.0, 2.0]])
y = torch.tensor([[1.0], [0.0], [3.0]])


def train(opt, steps=2):
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


opt = torch.optim.Adam(model.parameters(), lr=0.1)
print(opt.state_dict())
train(opt)
print(opt.state_dict())

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
train(opt, 1)
print(opt.state_dict())
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
train(opt, 1)
print(opt.state_dict()["state"])

named = torch.optim.AdamW(model.named_parameters(), lr=0.01)
print(named.param_groups[0]["param_names"])
train(named, 1)
sd = named.state_dict()
print(sd["param_groups"])
print(list(sd["state"].keys()))

opt = torch.optim.SGD([{"params": [model.weight], "lr": 0.1}, {"params": [model.bias], "lr": 0.2}],
                      momentum=0.5)
calls = []
pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", len(o.state))))
post = opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post", len(o.state))))
train(opt, 2)
print(calls)
pre.remove()
post.remove()
train(opt, 1)
print(len(calls))

snap = copy.deepcopy(opt.state_dict())
opt.param_groups[0]["lr"] = 0.001
train(opt, 1)
print(snap["param_groups"][0]["lr"], opt.state_dict()["param_groups"][0]["lr"])
print(snap["state"][0]["momentum_buffer"], opt.state[model.weight]["momentum_buffer"])
opt.load_state_dict(snap)
print(opt.param_groups[0]["lr"], opt.param_groups[1]["lr"], opt.state[model.weight]["momentum_buffer"])
print(opt.state[model.weight]["momentum_buffer"] is snap["state"][0]["momentum_buffer"])
