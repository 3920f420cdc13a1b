# Fine-tuning recipe: load pretrained weights, freeze the backbone with requires_grad_(False),
# replace the classification head, per-group learning rates, check frozen weights stay put.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh())
        self.head = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


pre = Classifier(10)
with torch.no_grad():
    for i, p in enumerate(pre.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.3)
buf = io.BytesIO()
torch.save({"state_dict": pre.state_dict(), "num_classes": 10}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)

model = Classifier(3)
try:
    model.load_state_dict(ckpt["state_dict"])
except RuntimeError as e:
    print(e)
sd = {k: v for k, v in ckpt["state_dict"].items() if not k.startswith("head.")}
print(model.load_state_dict(sd, strict=False))

model.backbone.requires_grad_(False)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(f"trainable {trainable} / {total}")

model.backbone[2].requires_grad_(True)
opt = torch.optim.SGD([
    {"params": model.backbone[2].parameters(), "lr": 1e-3},
    {"params": model.head.parameters()},
], lr=0.1, momentum=0.9)
print(opt)
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])

x = torch.linspace(-1, 1, 30).view(6, 5)
y = torch.tensor([0, 1, 2, 0, 1, 2])
frozen_before = model.backbone[0].weight.clone()
with torch.no_grad():
    model.head.weight.copy_(torch.linspace(-0.2, 0.2, 24).view(3, 8))
    model.head.bias.zero_()
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(torch.equal(frozen_before, model.backbone[0].weight), model.backbone[0].weight.grad)
print(model.head.weight.grad.shape, model.backbone[2].bias.grad is not None)
st = opt.state_dict()
print(sorted(st["state"].keys()), st["param_groups"][0])
print(st["param_groups"][1]["params"], sorted(st["state"][0].keys()))
