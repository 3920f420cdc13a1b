# Lightning's BackboneFinetuning / BaseFinetuning callback written by hand: freeze the backbone
# (requires_grad_(False), BatchNorm in eval), then at a milestone epoch unfreeze it and
# optimizer.add_param_group with a reduced lr while a StepLR already drives the head's group;
# LearningRateMonitor-style logging of every group's lr by name.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU())
        self.head = nn.Linear(8, 3)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_((torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i) * 0.5).view_as(p))

    def forward(self, x):
        return self.head(self.backbone(x))


class BackboneFinetuning:
    def __init__(self, unfreeze_at_epoch=2, lr_factor=0.1):
        self.unfreeze_at_epoch, self.lr_factor = unfreeze_at_epoch, lr_factor

    @staticmethod
    def freeze(module, train_bn=False):
        for m in module.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm) and train_bn:
                continue
            for p in m.parameters(recurse=False):
                p.requires_grad_(False)
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                m.eval()

    @staticmethod
    def make_trainable(module):
        for p in module.parameters():
            p.requires_grad_(True)
        module.train()

    def on_train_epoch_start(self, model, optimizer, epoch):
        if epoch == 0:
            self.freeze(model.backbone)
        elif epoch == self.unfreeze_at_epoch:
            self.make_trainable(model.backbone)
            current_lr = optimizer.param_groups[0]["lr"]
            optimizer.add_param_group({"params": [p for p in model.backbone.parameters()],
                                       "lr": current_lr * self.lr_factor, "name": "backbone"})
            print(f"  unfroze backbone with lr {current_lr * self.lr_factor:.5f}")


model = Classifier()
cb = BackboneFinetuning(unfreeze_at_epoch=2)
cb.on_train_epoch_start(model, None, 0)
print("trainable:", [n for n, p in model.named_parameters() if p.requires_grad])
print("bn training:", model.backbone[1].training, "head training:", model.head.training)
optimizer = torch.optim.Adam([{"params": model.head.parameters(), "name": "head"}], lr=0.05)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)

x = torch.stack([torch.sin(torch.arange(12.0) * f) for f in (0.3, 0.8, 1.3, 2.1)], 1)
y = torch.arange(12) % 3
stats_before = model.backbone[1].running_mean.clone()
for epoch in range(4):
    if epoch > 0:
        cb.on_train_epoch_start(model, optimizer, epoch)
    for i in range(0, 12, 4):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x[i:i + 4]), y[i:i + 4])
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr-" + " lr-".join(
        f"{g.get('name', i)}={g['lr']:.5f}" for i, g in enumerate(optimizer.param_groups)))
    print(f"  backbone grad is None: {model.backbone[0].weight.grad is None} "
          f"bn stats moved: {not torch.equal(stats_before, model.backbone[1].running_mean)}")
    scheduler.step()
print("scheduler base_lrs:", scheduler.base_lrs, "last lrs:", [round(v, 6) for v in scheduler.get_last_lr()])
print("groups:", [(g["name"], len(g["params"]), sorted(k for k in g if k not in ("params",))[:3]) for g in optimizer.param_groups])
print("initial_lr in new group:", "initial_lr" in optimizer.param_groups[1])
sd = optimizer.state_dict()
print("state entries:", sorted(sd["state"]), [g["params"] for g in sd["param_groups"]])
try:
    optimizer.add_param_group({"params": model.head.parameters()})
except ValueError as e:
    print(type(e).__name__, e)
try:
    optimizer.add_param_group({"params": torch.zeros(2, requires_grad=True)})
    print("added tensor group:", len(optimizer.param_groups))
except (ValueError, TypeError) as e:
    print(type(e).__name__, e)
try:
    scheduler.step()
    print("after add: lrs", [round(g["lr"], 6) for g in optimizer.param_groups])
except Exception as e:
    print(type(e).__name__, e)
