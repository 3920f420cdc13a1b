# A hand-written Lightning-like trainer: callbacks implemented with module hooks (activation
# statistics via forward hooks, per-layer gradient norms via full backward hooks), gradual
# unfreezing with requires_grad_ and BatchNorm kept in eval while frozen, checkpoint dicts.
import io
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 6)
        self.bn = nn.BatchNorm1d(6)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(6, 4)

    def forward(self, x):
        return self.fc2(self.act(self.bn(self.fc1(x))))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(torch.tanh(self.backbone(x)))


model = Model()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.4)

stats, grad_norms = {}, {}


def make_fwd(name):
    def hook(mod, inp, out):
        stats[name] = (round(out.mean().item(), 4), round(out.std().item(), 4))
    return hook


def make_bwd(name):
    def hook(mod, grad_in, grad_out):
        grad_norms[name] = round(grad_out[0].norm().item(), 4)
    return hook


handles = []
for name, mod in model.named_modules():
    if isinstance(mod, (nn.Linear, nn.BatchNorm1d)):
        handles.append(mod.register_forward_hook(make_fwd(name)))
        handles.append(mod.register_full_backward_hook(make_bwd(name)))


def freeze(module):
    module.requires_grad_(False)
    for m in module.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.eval()


def unfreeze(module):
    module.requires_grad_(True)
    module.train()


x = torch.linspace(-2, 2, 24).view(8, 3)
y = torch.sin(x.sum(1, keepdim=True))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
freeze(model.backbone)
for epoch in range(4):
    if epoch == 2:
        unfreeze(model.backbone)
    model.train() if epoch >= 2 else model.head.train()
    for step in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"epoch {epoch} loss {loss.item():.4f} trainable {trainable} bn.training {model.backbone.bn.training}")
    print("  act", sorted(stats.items()))
    print("  grad", sorted(grad_norms.items()))
    print("  running_mean", [round(v, 4) for v in model.backbone.bn.running_mean.tolist()], int(model.backbone.bn.num_batches_tracked))

for h in handles:
    h.remove()
print(sum(len(m._forward_hooks) + len(m._backward_hooks) for m in model.modules()))

ckpt = {"epoch": 4, "state_dict": model.state_dict(), "optimizer": opt.state_dict()}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
loaded = torch.load(buf)
fresh = Model()
print(fresh.load_state_dict(loaded["state_dict"]))
fresh.eval(); model.eval()
print(torch.allclose(fresh(x), model(x)), loaded["epoch"], list(loaded["optimizer"]["state"].keys())[:3])
