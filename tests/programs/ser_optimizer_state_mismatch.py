# Optimizer checkpoints: Adam state after a few steps, loading into a fresh optimizer (state is
# keyed by position, tensors are cast to the param dtype), mismatched param groups, deepcopy of an
# optimizer, add_param_group after resume, and named parameters in the optimizer state_dict.
import copy
import io

import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.6, 0.6, p.numel()).view_as(p) + 0.1 * i)
opt = torch.optim.Adam([{"params": net[0].parameters(), "lr": 0.01},
                        {"params": net[2].parameters(), "betas": (0.8, 0.99)}], lr=0.05, amsgrad=True)
x = torch.linspace(0, 1, 8).view(4, 2)
y = x.sum(1, keepdim=True)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(net(x), y).backward()
    opt.step()

sd = opt.state_dict()
print(sorted(sd["state"]), sorted(sd["state"][0]))
print(sd["state"][3])
for g in sd["param_groups"]:
    print({k: g[k] for k in ("lr", "betas", "amsgrad", "params", "weight_decay", "foreach")})

buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)

net64 = copy.deepcopy(net).double()
opt64 = torch.optim.Adam([{"params": net64[0].parameters(), "lr": 0.01},
                          {"params": net64[2].parameters()}], lr=0.05, amsgrad=True)
opt64.load_state_dict(loaded)
st = opt64.state[net64[2].bias]
print(st["exp_avg"].dtype, st["step"].dtype, st["step"], opt64.param_groups[1]["betas"])

bad = torch.optim.Adam(net.parameters(), lr=0.05)
try:
    bad.load_state_dict(loaded)
except ValueError as e:
    print(type(e).__name__, e)
bad2 = torch.optim.Adam([{"params": [net[0].weight]}, {"params": net[2].parameters()}])
try:
    bad2.load_state_dict(loaded)
except ValueError as e:
    print(type(e).__name__, e)

opt_copy = copy.deepcopy(opt)
print(opt_copy.state_dict()["state"][0]["step"], opt_copy.param_groups[0]["params"][0] is net[0].weight)
print(len(opt_copy.state), type(opt_copy.state).__name__)

extra = nn.Parameter(torch.ones(2))
opt.add_param_group({"params": [extra], "lr": 0.5})
print([g["lr"] for g in opt.param_groups], len(opt.state_dict()["param_groups"]), opt.state_dict()["param_groups"][2]["params"])
try:
    opt.add_param_group({"params": [net[0].weight]})
except ValueError as e:
    print(type(e).__name__, e)

named = torch.optim.SGD(net.named_parameters(), lr=0.1, momentum=0.9)
opt_loss = nn.functional.mse_loss(net(x), y)
opt_loss.backward()
named.step()
nsd = named.state_dict()
print(nsd["param_groups"][0]["param_names"], sorted(nsd["state"]))
print(nsd["state"][1])
