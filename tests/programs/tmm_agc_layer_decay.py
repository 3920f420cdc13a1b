# timm-style adaptive gradient clipping (unitwise_norm + torch.where on p.grad.detach()) and
# layer-wise lr decay param groups (group by block index parsed from parameter names, lr_scale,
# no weight decay for bias / norm weights with ndim <= 1), fed to AdamW with per-group lr.
import torch
import torch.nn as nn


def unitwise_norm(x, norm_type=2.0):
    if x.ndim <= 1:
        return x.norm(norm_type)
    return x.norm(norm_type, dim=tuple(range(1, x.ndim)), keepdim=True)


def adaptive_clip_grad(parameters, clip_factor=0.01, eps=1e-3, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    for p in parameters:
        if p.grad is None:
            continue
        p_data = p.detach()
        g_data = p.grad.detach()
        max_norm = unitwise_norm(p_data, norm_type=norm_type).clamp_(min=eps).mul_(clip_factor)
        grad_norm = unitwise_norm(g_data, norm_type=norm_type)
        clipped_grad = g_data * (max_norm / grad_norm.clamp(min=1e-6))
        new_grads = torch.where(grad_norm < max_norm, g_data, clipped_grad)
        p.grad.detach().copy_(new_grads)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.fc(self.norm(x))


class Net(nn.Module):
    def __init__(self, dim=6, depth=3):
        super().__init__()
        self.stem = nn.Linear(4, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        x = self.stem(x)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def layer_id(name, num_layers):
    if name.startswith("stem"):
        return 0
    if name.startswith("blocks."):
        return int(name.split(".")[1]) + 1
    return num_layers + 1


def param_groups_layer_decay(model, weight_decay=0.05, layer_decay=0.75):
    num_layers = len(model.blocks)
    scales = [layer_decay ** (num_layers + 1 - i) for i in range(num_layers + 2)]
    groups = {}
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if p.ndim <= 1 or name.endswith(".bias"):
            g_decay, this_decay = "no_decay", 0.0
        else:
            g_decay, this_decay = "decay", weight_decay
        lid = layer_id(name, num_layers)
        key = f"layer_{lid}_{g_decay}"
        if key not in groups:
            groups[key] = {"lr_scale": scales[lid], "weight_decay": this_decay, "params": [], "names": []}
        groups[key]["params"].append(p)
        groups[key]["names"].append(name)
    return groups


model = Net()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape) * 0.3)

groups = param_groups_layer_decay(model)
for k, g in groups.items():
    print(k, f"scale={g['lr_scale']:.4f}", g["weight_decay"], g["names"])

base_lr = 0.01
opt_groups = [{"params": g["params"], "weight_decay": g["weight_decay"], "lr_scale": g["lr_scale"]}
              for g in groups.values()]
opt = torch.optim.AdamW(opt_groups, lr=base_lr)
for g in opt.param_groups:
    g["lr"] = base_lr * g["lr_scale"]
print([round(g["lr"], 6) for g in opt.param_groups])
print(sorted(opt.param_groups[0].keys()))

x = torch.linspace(-1, 1, 32).reshape(8, 4)
y = torch.stack([x.sum(1), x.prod(1)], 1)
for step in range(12):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    before = [p.grad.norm().item() for p in model.parameters()]
    adaptive_clip_grad(model.parameters(), clip_factor=0.05)
    after = [p.grad.norm().item() for p in model.parameters()]
    n_clipped = sum(a < b - 1e-9 for a, b in zip(after, before))
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}", n_clipped, f"{sum(after):.5f}")

print(unitwise_norm(model.stem.weight).shape, unitwise_norm(model.head.bias).shape)
print(opt.state_dict()["param_groups"][1]["lr_scale"], len(opt.state_dict()["state"]))
