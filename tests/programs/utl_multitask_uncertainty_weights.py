# Multi-task training with learned homoscedastic-uncertainty loss weights (Kendall et al.) kept in an
# nn.ParameterDict keyed by task name, per-task heads in an nn.ModuleDict, a separate param group for
# the log-variances, and logging that iterates over the dicts (order matters for printed tables).
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self, tasks):
        super().__init__()
        self.trunk = nn.Linear(3, 4)
        self.heads = nn.ModuleDict({t: nn.Linear(4, d) for t, d in tasks.items()})
        self.log_vars = nn.ParameterDict({t: nn.Parameter(torch.zeros(())) for t in tasks})

    def forward(self, x):
        h = torch.tanh(self.trunk(x))
        return {t: head(h) for t, head in self.heads.items()}


tasks = {"seg": 3, "depth": 1, "normal": 2}
model = MultiTask(tasks)
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        if "log_vars" not in n:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)

print(list(model.state_dict().keys()))
print(model.log_vars)
print(list(model.log_vars.keys()), list(model.heads.keys()))

x = torch.stack([torch.linspace(-1, 1, 8), torch.cos(torch.arange(8.0)), torch.sin(torch.arange(8.0))], 1)
targets = {"seg": torch.arange(8) % 3, "depth": x[:, :1] * 2, "normal": x[:, 1:] * 0.5}


def task_loss(name, out):
    if name == "seg":
        return F.cross_entropy(out, targets[name])
    return F.mse_loss(out, targets[name])


opt = torch.optim.Adam([
    {"params": [p for n, p in model.named_parameters() if not n.startswith("log_vars")]},
    {"params": list(model.log_vars.parameters()), "lr": 0.05},
], lr=0.01)
for step in range(8):
    opt.zero_grad()
    outs = model(x)
    losses = {t: task_loss(t, outs[t]) for t in tasks}
    total = sum(torch.exp(-model.log_vars[t]) * l + model.log_vars[t] for t, l in losses.items())
    total.backward()
    opt.step()
    if step % 2 == 1:
        print(step, f"total {total.item():.4f}", " ".join(f"{t}={l.item():.4f}" for t, l in losses.items()))

print("log variances:", {k: round(v.item(), 4) for k, v in model.log_vars.items()})
print("weights:", [f"{torch.exp(-v).item():.4f}" for v in model.log_vars.values()])
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], [round(sd["state"][i]["exp_avg"].item(), 5) for i in sd["param_groups"][1]["params"]])
named = dict(model.named_parameters())
print([n for n in named if n.startswith("log_vars")])
model.log_vars.update({"edges": nn.Parameter(torch.ones(()))})
print(list(model.log_vars.keys()), len(model.log_vars))
pd = nn.ParameterDict({"b": nn.Parameter(torch.ones(1)), "a": nn.Parameter(torch.zeros(1))})
print(list(pd.keys()), [n for n, _ in pd.named_parameters()])
