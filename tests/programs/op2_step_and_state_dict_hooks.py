# Optimizer hooks as users wire them: global-clip via register_step_pre_hook, logging via
# post hooks, state_dict pre/post hooks adding metadata, load_state_dict pre/post hooks.
import torch
import torch.nn as nn

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.2, -0.4, 0.6]]))
    model.bias.fill_(0.1)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
log = []

def pre_hook(optimizer, args, kwargs):
    total = torch.nn.utils.clip_grad_norm_([p for g in optimizer.param_groups for p in g["params"]], 0.5)
    log.append(("pre", round(total.item(), 4), args, kwargs))

def post_hook(optimizer, args, kwargs):
    log.append(("post", int(optimizer.state[model.bias]["step"].item())))

h1 = opt.register_step_pre_hook(pre_hook)
h2 = opt.register_step_post_hook(post_hook)
x = torch.linspace(0, 2, 12).reshape(4, 3)
y = torch.tensor([[1.0], [2.0], [0.0], [-1.0]])
for i in range(4):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if i == 1:
        h1.remove()
    print(i, f"{loss.item():.4f}")
for entry in log:
    print(entry)
h2.remove()
opt.step()
print("log after remove", len(log))

def sd_pre(optimizer):
    print("state_dict pre hook", type(optimizer).__name__)

def sd_post(optimizer, state_dict):
    state_dict["extra"] = {"epoch": 3}
    return state_dict

opt.register_state_dict_pre_hook(sd_pre)
opt.register_state_dict_post_hook(sd_post)
sd = opt.state_dict()
print(sorted(sd.keys()), sd["extra"])

def load_pre(optimizer, state_dict):
    print("load pre hook sees", sorted(state_dict.keys()))
    state_dict = dict(state_dict)
    state_dict.pop("extra", None)
    state_dict["param_groups"] = [dict(g, lr=0.001) for g in state_dict["param_groups"]]
    return state_dict

def load_post(optimizer):
    print("load post hook lr", optimizer.param_groups[0]["lr"])

new_opt = torch.optim.Adam(model.parameters(), lr=0.05)
new_opt.register_load_state_dict_pre_hook(load_pre)
new_opt.register_load_state_dict_post_hook(load_post)
new_opt.load_state_dict(sd)
print(new_opt.state[model.bias]["step"], new_opt.param_groups[0]["lr"])
print(type(h1).__name__)

# a post hook prepended runs first
order = []
opt2 = torch.optim.SGD(model.parameters(), lr=0.0)
opt2.register_step_post_hook(lambda o, a, k: order.append("a"))
opt2.register_step_post_hook(lambda o, a, k: order.append("b"))
opt2.register_load_state_dict_post_hook(lambda o: order.append("L1"))
opt2.register_load_state_dict_post_hook(lambda o: order.append("L0"), prepend=True)
opt2.step()
opt2.load_state_dict(opt2.state_dict())
print(order)
