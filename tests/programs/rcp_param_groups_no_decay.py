# Per-parameter-group options as in timm/HF "no weight decay on biases and norms": groups built
# from named_parameters, AdamW, layer-wise lr, add_param_group, editing param_groups, and errors.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.norm = nn.LayerNorm(4)
        self.fc = nn.Linear(4, 3)
        self.head = nn.Linear(3, 2)

    def forward(self, idx):
        return self.head(torch.relu(self.fc(self.norm(self.embed(idx)).mean(1))))


model = Net()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p))

decay, no_decay = [], []
for name, p in model.named_parameters():
    if p.ndim < 2 or "norm" in name or name.endswith(".bias"):
        no_decay.append(name)
    else:
        decay.append(name)
print("decay", decay)
print("no_decay", no_decay)
params = dict(model.named_parameters())
groups = [{"params": [params[n] for n in decay], "weight_decay": 0.1},
          {"params": [params[n] for n in no_decay], "weight_decay": 0.0}]
opt = torch.optim.AdamW(groups, lr=0.01, betas=(0.9, 0.95), eps=1e-8)
print(opt)
print([len(g["params"]) for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])

idx = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9], [0, 1, 2]])
target = torch.tensor([0, 1, 1, 0])
for step in range(12):
    loss = nn.functional.cross_entropy(model(idx), target)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}")

# decay the lr of each group by hand, as many scripts do
for g in opt.param_groups:
    g["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
sd = opt.state_dict()
print([g["params"] for g in sd["param_groups"]])
print(sorted(sd["state"].keys()), sorted(sd["state"][0].keys()))
print(sd["state"][0]["step"], sd["state"][0]["exp_avg"].shape)

# layer-wise lr decay groups
opt2 = torch.optim.SGD([{"params": model.head.parameters(), "lr": 0.1},
                        {"params": model.fc.parameters(), "lr": 0.05}], lr=0.01, momentum=0.9)
opt2.add_param_group({"params": model.embed.parameters(), "momentum": 0.0})
print([(g["lr"], g["momentum"], len(g["params"])) for g in opt2.param_groups])
print(sorted(opt2.param_groups[2].keys()))
try:
    opt2.add_param_group({"params": model.fc.weight})
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD([{"params": [params["fc.bias"]]}, {"params": [params["fc.bias"]]}], lr=0.1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.AdamW([], lr=0.1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.AdamW(model.parameters(), lr=-1.0)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.AdamW(model.parameters(), betas=(0.9, 1.5))
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD(params["fc.bias"], lr=0.1)
except TypeError as e:
    print("TypeError", e)
try:
    torch.optim.SGD({"params": [params["fc.bias"]]}, lr=0.1)
except TypeError as e:
    print("TypeError", e)
print(opt2.state_dict()["param_groups"][2])
