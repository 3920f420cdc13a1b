# The "no weight decay for biases and norm weights" recipe (BERT / nanoGPT / timm style) with AdamW,
# param-group inspection, a frozen backbone unfrozen later via add_param_group, and per-group lrs.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8)
        self.backbone = nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.ReLU(), nn.Linear(8, 8))
        self.bn = nn.BatchNorm1d(8)
        self.head = nn.Linear(8, 3)

    def forward(self, idx):
        return self.head(self.bn(self.backbone(self.embed(idx))))


model = Net()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.2 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p))

decay, no_decay = [], []
for name, param in model.named_parameters():
    if not param.requires_grad:
        continue
    if param.ndim < 2 or "norm" in name or name.endswith(".bias") or isinstance(param, nn.Embedding):
        no_decay.append(name)
    else:
        decay.append(name)
print("decay:", decay)
print("no_decay:", no_decay)

# freeze the backbone for the first phase
for p in model.backbone.parameters():
    p.requires_grad_(False)
named = dict(model.named_parameters())
groups = [
    {"params": [named[n] for n in decay if named[n].requires_grad], "weight_decay": 0.1},
    {"params": [named[n] for n in no_decay if named[n].requires_grad], "weight_decay": 0.0},
]
opt = torch.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.95), eps=1e-8)
print([len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])
print(sum(p.numel() for g in opt.param_groups for p in g["params"]))

idx = torch.arange(24) % 10
target = (torch.arange(24) * 7) % 3


def train(steps):
    for s in range(steps):
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(idx), target)
        loss.backward()
        opt.step()
    return loss.item()


print(f"phase1 {train(10):.4f}")
print(model.backbone[0].weight.grad, len(opt.state))

# unfreeze: add the backbone as a new group with a smaller lr
for p in model.backbone.parameters():
    p.requires_grad_(True)
bb_decay = [p for n, p in model.backbone.named_parameters() if p.ndim >= 2]
bb_nodecay = [p for n, p in model.backbone.named_parameters() if p.ndim < 2]
opt.add_param_group({"params": bb_decay, "lr": 1e-3})
opt.add_param_group({"params": bb_nodecay, "lr": 1e-3, "weight_decay": 0.0})
for i, g in enumerate(opt.param_groups):
    print(i, len(g["params"]), g["lr"], g["weight_decay"], g["betas"], g["amsgrad"])
print(f"phase2 {train(10):.4f}", len(opt.state))

try:
    opt.add_param_group({"params": [model.head.weight]})
except ValueError as e:
    print(type(e).__name__, e)
try:
    opt.add_param_group({"params": model.head.weight.detach() * 2})
except ValueError as e:
    print(type(e).__name__, e)

# the group dict passed in is kept (not copied)
extra = nn.Parameter(torch.ones(2))
g = {"params": [extra], "lr": 0.5}
opt.add_param_group(g)
print(opt.param_groups[-1] is g, sorted(g.keys()))
print(opt)
