# Fine-tuning recipe: freeze a backbone with requires_grad_(False), train the head with a larger lr
# via param groups, later unfreeze and add_param_group, zero_grad(set_to_none=True/False), and
# print the losses / grads / lrs along the way.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh())
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Model()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view(p.shape) * 0.5)

X = torch.linspace(-1, 1, 18).view(6, 3)
y = torch.tensor([0, 1, 1, 0, 1, 0])

model.backbone.requires_grad_(False)
print([n for n, p in model.named_parameters() if p.requires_grad])
print(sum(p.numel() for p in model.parameters() if p.requires_grad), sum(p.numel() for p in model.parameters()))
opt = torch.optim.SGD([{"params": model.head.parameters(), "lr": 0.5}], lr=0.01, momentum=0.9)
print(opt)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", model.backbone[0].weight.grad, model.head.bias.grad)

# unfreeze the last backbone layer and give it its own (smaller) lr
model.backbone[2].requires_grad_(True)
opt.add_param_group({"params": model.backbone[2].parameters(), "lr": 0.05, "momentum": 0.0})
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups])
print([len(g["params"]) for g in opt.param_groups], sorted(opt.param_groups[1].keys()))
try:
    opt.add_param_group({"params": model.head.weight})
except ValueError as e:
    print("ValueError", e)
for step in range(3, 6):
    opt.zero_grad(set_to_none=False)
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", f"{model.backbone[2].weight.grad.norm():.5f}")
print(model.backbone[0].weight.grad, model.backbone[2].bias.grad is None)
opt.zero_grad(set_to_none=False)
print(model.head.weight.grad, model.backbone[2].bias.grad)
opt.zero_grad()
print(model.head.weight.grad, model.backbone[2].bias.grad)

# the momentum buffers only exist for parameters that were stepped with momentum
state = opt.state_dict()["state"]
print(sorted(state.keys()), [v["momentum_buffer"] is None for v in state.values()])
print(opt.state_dict()["param_groups"][1]["params"], opt.state_dict()["param_groups"][0]["params"])

# a frozen parameter passed to the optimiser is simply skipped (its grad stays None)
opt2 = torch.optim.Adam(model.parameters(), lr=1e-2)
before = model.backbone[0].weight.clone()
loss = F.cross_entropy(model(X), y)
loss.backward()
opt2.step()
print(torch.equal(before, model.backbone[0].weight), f"{loss.item():.5f}")
print(opt2.state[model.backbone[0].weight], len(opt2.state))
print(model(X).argmax(dim=1), (model(X).argmax(dim=1) == y).float().mean())
