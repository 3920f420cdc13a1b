# Transfer-learning loop with gradual unfreezing (ULMFiT style): freeze the backbone with
# requires_grad_(False), keep frozen BatchNorm layers in eval() after every model.train(), build the
# optimizer on trainable params only, then unfreeze stage by stage with add_param_group and lower lr.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Linear(4, 6, bias=False), nn.BatchNorm1d(6), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Linear(6, 6, bias=False), nn.BatchNorm1d(6), nn.ReLU())

    def forward(self, x):
        return self.stage2(self.stage1(x))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        return self.head(self.backbone(x))

    def train(self, mode=True):
        super().train(mode)
        for m in self.backbone.modules():
            if isinstance(m, nn.BatchNorm1d) and not m.weight.requires_grad:
                m.eval()
        return self


model = Classifier()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + 0.3 * i).view_as(p) * 0.5)
        if p.dim() == 1 and p.numel() == 6 and i % 3 == 1:
            p.add_(1.0)

x = torch.stack([torch.sin(torch.arange(12.0) * (k + 1) * 0.5) for k in range(4)], 1)
y = torch.arange(12) % 3


def trainable(m):
    return sum(p.numel() for p in m.parameters() if p.requires_grad)


model.backbone.requires_grad_(False)
print("trainable:", trainable(model), "of", sum(p.numel() for p in model.parameters()))
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=0.05)
print("groups:", len(opt.param_groups), [len(g["params"]) for g in opt.param_groups])

stages = {3: ("stage2", 0.01), 6: ("stage1", 0.002)}
for epoch in range(9):
    if epoch in stages:
        name, lr = stages[epoch]
        stage = getattr(model.backbone, name)
        stage.requires_grad_(True)
        opt.add_param_group({"params": list(stage.parameters()), "lr": lr})
        print(f"unfroze {name}: trainable {trainable(model)} groups {[g['lr'] for g in opt.param_groups]}")
    model.train()
    print("  bn training:", [m.training for m in model.modules() if isinstance(m, nn.BatchNorm1d)])
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    frozen_grads = [n for n, p in model.named_parameters() if p.grad is None]
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} no-grad params {len(frozen_grads)}")

bn1 = model.backbone.stage1[1]
print("stage1 bn batches tracked:", bn1.num_batches_tracked.item(), "stage2:", model.backbone.stage2[1].num_batches_tracked.item())
print("running_mean:", bn1.running_mean.round(decimals=4))
model.eval()
with torch.no_grad():
    acc = (model(x).argmax(1) == y).float().mean().item()
print(f"train acc {acc:.3f}")
print("state sizes:", [len(opt.state[p]) for p in model.backbone.stage1.parameters()])
