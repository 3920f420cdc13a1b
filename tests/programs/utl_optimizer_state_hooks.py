# Inspecting and manipulating optimizer internals in a custom trainer: named parameters passed to the
# optimizer (param_names in state_dict), step pre/post hooks for logging, state_dict hooks, load errors
# for mismatched groups, state cast to the parameter dtype on load, and resetting state of one param.
import io

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))

opt = torch.optim.Adam(model.named_parameters(), lr=0.01)
print(opt.param_groups[0]["param_names"])
log = []
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: log.append(("pre", len(o.state))))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: log.append(("post", len(o.state))))

x = torch.tensor([[1.0, -1.0], [0.5, 2.0], [-1.5, 0.0]])
y = torch.tensor([[1.0], [0.0], [-1.0]])
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(log)
h1.remove(); h2.remove()
opt.step()
print(len(log))

sd = opt.state_dict()
print(sd["param_groups"][0]["params"], sd["param_groups"][0]["param_names"])
print({k: (tuple(v["exp_avg"].shape), v["step"].item()) for k, v in sd["state"].items()})


def pre(optimizer):
    print("state_dict pre hook", type(optimizer).__name__)


def post(optimizer, state_dict):
    state_dict["note"] = "hello"
    return state_dict


opt.register_state_dict_pre_hook(pre)
opt.register_state_dict_post_hook(post)
sd = opt.state_dict()
print(sorted(sd.keys()))
opt.register_load_state_dict_pre_hook(lambda o, s: print("load pre", sorted(s.keys())))
opt.register_load_state_dict_post_hook(lambda o: print("load post", len(o.state)))

buf = io.BytesIO()
torch.save(opt.state_dict(), buf)
buf.seek(0)
loaded = torch.load(buf)
model64 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)).double()
opt64 = torch.optim.Adam(model64.named_parameters(), lr=0.5)
opt64.load_state_dict(loaded)
p0 = next(model64.parameters())
print(opt64.param_groups[0]["lr"], opt64.state[p0]["exp_avg"].dtype, opt64.state[p0]["step"].dtype)

# mismatches
opt_small = torch.optim.Adam(list(model.parameters())[:2], lr=0.01)
try:
    opt_small.load_state_dict(opt.state_dict())
except ValueError as e:
    print(type(e).__name__, e)
opt_two = torch.optim.Adam([{"params": list(model.parameters())[:2]}, {"params": list(model.parameters())[2:]}])
try:
    opt_two.load_state_dict(opt.state_dict())
except ValueError as e:
    print(type(e).__name__, e)

# reset the state of the head only (e.g. after re-initializing it)
head_w = model[2].weight
opt.state[head_w] = {}
opt.zero_grad()
nn.functional.mse_loss(model(x), y).backward()
opt.step()
print(opt.state[head_w]["step"], opt.state[model[0].weight]["step"])
print(f"{nn.functional.mse_loss(model(x), y).item():.5f}")

# lr as a per-group override, and the optimizer's defaults
print(opt.defaults["lr"], opt.defaults["betas"], type(opt.state).__name__)
for g in opt.param_groups:
    g["lr"] *= 0.1
print([g["lr"] for g in opt.param_groups])
