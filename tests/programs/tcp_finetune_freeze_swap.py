# Fine-tuning with a compiled model: freeze the backbone with requires_grad_(False) after the
# first epoch, swap the head for a new nn.Linear, change an activation attribute — the compiled
# model must notice every change (guards) and train only what is trainable.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6))
        self.act = nn.ReLU()
        self.head = nn.Linear(6, 2)
        self.scale = 1.0

    def forward(self, x):
        return self.head(self.act(self.backbone(x))) * self.scale


def fill(module, offset):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + offset + i).view_as(p) * 0.5)


model = Net()
fill(model, 0.0)
cmodel = torch.compile(model)
x = torch.stack([torch.linspace(-1, 1, 4) * (k + 1) / 3 for k in range(6)])
y = torch.tensor([0, 1, 0, 1, 1, 0])


def train(steps, params):
    opt = torch.optim.SGD(params, lr=0.2)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(cmodel(x), y)
        loss.backward()
        opt.step()
    return loss.item()


print("full", f"{train(5, model.parameters()):.4f}")

model.backbone.requires_grad_(False)
before = model.backbone[0].weight.clone()
trainable = [p for p in model.parameters() if p.requires_grad]
print("trainable", len(trainable), sum(p.numel() for p in trainable))
model.zero_grad(set_to_none=True)
print("frozen", f"{train(5, trainable):.4f}")
print("backbone unchanged", torch.equal(before, model.backbone[0].weight), model.backbone[0].weight.grad)

model.head = nn.Linear(6, 3)
fill(model.head, 2.0)
out = cmodel(x)
print("new head", out.shape, torch.round(out[0], decimals=4))

model.act = nn.Tanh()
print("tanh", torch.round(cmodel(x)[0], decimals=4))
model.scale = 0.5
print("scale", torch.round(cmodel(x)[0], decimals=4))
with torch.no_grad():
    print("eager agrees", torch.allclose(cmodel(x), model(x), atol=1e-6))
print(sorted({k.split(".")[1] for k in cmodel.state_dict()}))
