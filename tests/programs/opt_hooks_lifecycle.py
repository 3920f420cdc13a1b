# Optimizer hooks as used by training frameworks: step pre/post hooks (with removal),
# state_dict pre/post hooks that add metadata, load_state_dict pre/post hooks.
import torch

lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -0.5], [1.0, 0.25]]))
    lin.bias.copy_(torch.tensor([0.1, -0.1]))
opt = torch.optim.Adam(lin.parameters(), lr=0.1)

log = []


def pre(optimizer, args, kwargs):
    log.append(("pre", type(optimizer).__name__, args, kwargs))


def post(optimizer, args, kwargs):
    log.append(("post", len(optimizer.state)))


h1 = opt.register_step_pre_hook(pre)
h2 = opt.register_step_post_hook(post)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
for step in range(3):
    opt.zero_grad()
    lin(x).pow(2).mean().backward()
    opt.step()
    if step == 1:
        h1.remove()
print(log)
h2.remove()
print(type(h1).__name__)


def sd_pre(optimizer):
    print("state_dict pre hook:", type(optimizer).__name__)


def sd_post(optimizer, state_dict):
    state_dict["extra"] = {"epoch": 7}
    return state_dict


opt.register_state_dict_pre_hook(sd_pre)
opt.register_state_dict_post_hook(sd_post)
sd = opt.state_dict()
print(sorted(sd.keys()), sd["extra"])
print(sorted(sd["state"][0].keys()), sd["state"][0]["step"])
print({k: v for k, v in sd["param_groups"][0].items()})


def load_pre(optimizer, state_dict):
    print("load pre: popping extra", state_dict.pop("extra", None))
    return state_dict


def load_post(optimizer):
    print("load post: groups", len(optimizer.param_groups), "lr", optimizer.param_groups[0]["lr"])


lin2 = torch.nn.Linear(2, 2)
opt2 = torch.optim.Adam(lin2.parameters(), lr=0.5)
opt2.register_load_state_dict_pre_hook(load_pre)
opt2.register_load_state_dict_post_hook(load_post)
opt2.load_state_dict(sd)
print(sorted(sd.keys()))
st = opt2.state[lin2.weight]
print(st["step"], st["exp_avg"].shape, round(st["exp_avg_sq"].sum().item(), 6))
print([round(v, 6) for v in opt.state[lin.weight]["exp_avg"].flatten().tolist()])
print([round(v, 6) for v in st["exp_avg"].flatten().tolist()])
print(st["exp_avg"] is opt.state[lin.weight]["exp_avg"])
