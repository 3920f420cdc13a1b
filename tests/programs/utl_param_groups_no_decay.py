# The "no weight decay for biases and norm layers" recipe (minGPT / timm style), differential learning
# rates for backbone vs head, add_param_group when unfreezing, and inspecting optimizer state.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(6, 4)
        self.backbone = nn.Sequential(nn.Linear(4, 5), nn.LayerNorm(5), nn.GELU(), nn.Linear(5, 5))
        self.norm = nn.BatchNorm1d(5)
        self.head = nn.Linear(5, 3)

    def forward(self, idx):
        return self.head(self.norm(self.backbone(self.embed(idx))))


model = Net()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p) * 0.4)

decay, no_decay = [], []
whitelist, blacklist = (nn.Linear,), (nn.LayerNorm, nn.BatchNorm1d, nn.Embedding)
for mn, m in model.named_modules():
    for pn, p in m.named_parameters(recurse=False):
        fpn = f"{mn}.{pn}" if mn else pn
        if pn.endswith("bias") or isinstance(m, blacklist):
            no_decay.append(fpn)
        elif pn.endswith("weight") and isinstance(m, whitelist):
            decay.append(fpn)
print("decay:", decay)
print("no_decay:", no_decay)
params = dict(model.named_parameters())
print("all covered:", set(decay) | set(no_decay) == set(params), "disjoint:", not set(decay) & set(no_decay))

head_names = [n for n in decay + no_decay if n.startswith("head")]
groups = [
    {"params": [params[n] for n in decay if n not in head_names], "weight_decay": 0.1},
    {"params": [params[n] for n in no_decay if n not in head_names], "weight_decay": 0.0},
]
opt = torch.optim.AdamW(groups, lr=1e-3, betas=(0.9, 0.95))
print(opt)
print([len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])

# later: unfreeze the head with a 10x learning rate
opt.add_param_group({"params": [params[n] for n in head_names], "lr": 1e-2, "weight_decay": 0.0})
print(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["betas"])
try:
    opt.add_param_group({"params": [model.head.weight]})
except ValueError as e:
    print(type(e).__name__, e)
try:
    opt.add_param_group({"params": {model.head.bias}})
except TypeError as e:
    print(type(e).__name__, e)
try:
    opt.add_param_group({"params": [model.head.bias * 2]})
except ValueError as e:
    print(type(e).__name__, e)

idx = torch.tensor([0, 1, 2, 3, 4, 5, 1, 2])
target = torch.tensor([0, 1, 2, 0, 1, 2, 1, 2])
for step in range(6):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(idx), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")

print("state size:", len(opt.state))
for name in ["embed.weight", "backbone.0.weight", "backbone.1.bias", "head.weight"]:
    st = opt.state[params[name]]
    print(name, tuple(st["exp_avg"].shape), tuple(st["exp_avg_sq"].shape), st["step"].item())
sd = opt.state_dict()
print([g["params"] for g in sd["param_groups"]])
print(sorted(sd["state"].keys()) == list(range(len(params))))
print(f"{model.head.weight.abs().sum().item():.4f}", f"{model.embed.weight.abs().sum().item():.4f}")

# zero_grad(set_to_none=False) keeps zero tensors; default sets None
opt.zero_grad(set_to_none=False)
print(model.head.bias.grad)
opt.zero_grad()
print(model.head.bias.grad)
