# Fine-tuning setup code: freeze parameters by glob/regex name patterns, custom init through
# apply(), zero_grad(set_to_none=False) vs default, flattening trainable params with
# parameters_to_vector / vector_to_parameters (and their errors), and per-pattern param groups.
import fnmatch
import re
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters

model = nn.Sequential()
model.add_module("embed", nn.Linear(6, 8))
for i in range(3):
    model.add_module(f"layer{i}", nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.Tanh()))
model.add_module("head", nn.Linear(8, 2))

init_log = []


def init_weights(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.sin(torch.arange(m.weight.numel(), dtype=torch.float32) * 0.37).view_as(m.weight) * 0.4)
            m.bias.fill_(0.01)
        init_log.append(type(m).__name__)
    elif isinstance(m, nn.LayerNorm):
        nn.init.ones_(m.weight)
        nn.init.zeros_(m.bias)
        init_log.append("LN")


ret = model.apply(init_weights)
print(ret is model, init_log)

frozen_patterns = ["embed.*", "layer0.*", "*.1.bias"]
for name, p in model.named_parameters():
    if any(fnmatch.fnmatch(name, pat) for pat in frozen_patterns):
        p.requires_grad_(False)
print([n for n, p in model.named_parameters() if not p.requires_grad])
trainable = [p for p in model.parameters() if p.requires_grad]
print(len(trainable), sum(p.numel() for p in trainable))

no_decay = re.compile(r"(bias|\.1\.weight)$")
groups = [
    {"params": [p for n, p in model.named_parameters() if p.requires_grad and not no_decay.search(n)], "weight_decay": 0.1},
    {"params": [p for n, p in model.named_parameters() if p.requires_grad and no_decay.search(n)], "weight_decay": 0.0},
]
opt = torch.optim.AdamW(groups, lr=0.01)
print([len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])

x = torch.cos(torch.arange(24, dtype=torch.float32)).view(4, 6)
y = torch.tensor([0, 1, 1, 0])
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")

print(model.embed.weight.grad, model.layer0[0].weight.grad)
model.zero_grad(set_to_none=False)
print(model.head.bias.grad, model.layer1[1].bias.grad, model.embed.bias.grad)
model.zero_grad()
print(model.head.bias.grad)

vec = parameters_to_vector(trainable)
print(vec.shape, vec.requires_grad, vec.grad_fn.name(), f"{vec.norm().item():.4f}")
new = torch.linspace(-1, 1, vec.numel())
vector_to_parameters(new, trainable)
print(model.head.bias, model.layer2[1].weight[:3])
print(torch.equal(parameters_to_vector(trainable), new), model.head.weight.is_leaf)
try:
    vector_to_parameters([1.0, 2.0], trainable)
except TypeError as e:
    print("TypeError", e)
try:
    vector_to_parameters(torch.zeros(10), trainable)
except RuntimeError as e:
    print("RuntimeError", e)
vector_to_parameters(torch.zeros(vec.numel() + 5), trainable)
print(model.head.bias)
mixed = [nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(3, dtype=torch.float64))]
v = parameters_to_vector(mixed)
print(v.dtype, v.shape)
