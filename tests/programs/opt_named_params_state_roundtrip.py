# Optimizers built from model.named_parameters() (param_names in state_dict), checkpoint
# round trips after add_param_group, and loading into fresh optimizers / float64 models.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)


def build(dtype=torch.float32):
    m = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)).to(dtype)
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
    return m


x = torch.stack([torch.linspace(-1, 1, 5), torch.cos(torch.arange(5.0))], 1)
y = torch.sin(torch.arange(5.0)).unsqueeze(1)

m = build()
opt = torch.optim.AdamW(m[0].named_parameters(), lr=0.01, weight_decay=0.1)
print([g.get("param_names") for g in opt.param_groups])
for step in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    opt.step()
opt.add_param_group({"params": list(m[2].named_parameters()), "lr": 0.05})
for step in range(2):
    opt.zero_grad()
    nn.functional.mse_loss(m(x), y).backward()
    opt.step()
sd = opt.state_dict()
print(sorted(sd["state"].keys()))
for g in sd["param_groups"]:
    print({k: v for k, v in g.items() if k not in ("betas",)})
print([sd["state"][i]["step"].item() for i in sorted(sd["state"])])

m2 = build()
opt2 = torch.optim.AdamW([{"params": m2[0].parameters()}, {"params": m2[2].parameters()}], lr=1.0)
try:
    opt2.load_state_dict(sd)
    print("loaded without names", opt2.param_groups[1]["lr"])
except ValueError as e:
    print("ValueError", e)

m3 = build(torch.float64)
opt3 = torch.optim.AdamW(m3[0].named_parameters(), lr=0.01)
opt3.add_param_group({"params": list(m3[2].named_parameters()), "lr": 0.05})
opt3.load_state_dict(sd)
st = opt3.state[m3[0].weight]
print(st["exp_avg"].dtype, st["step"].dtype, st["step"])
print(st["exp_avg"])
print(opt3.param_groups[1]["param_names"], opt3.param_groups[1]["lr"])

bad = opt.state_dict()
bad["param_groups"] = bad["param_groups"][:1]
try:
    opt3.load_state_dict(bad)
except ValueError as e:
    print("ValueError", e)
bad = opt.state_dict()
bad["param_groups"][1]["params"] = bad["param_groups"][1]["params"][:1]
try:
    opt3.load_state_dict(bad)
except ValueError as e:
    print("ValueError", e)
