# SimSiam training loop with the LARS optimizer most SSL repos copy (Optimizer subclass with nested
# torch.where trust ratio, lars_exclude param groups for biases/BN), a predictor group with a custom
# 'fix_lr' key, and a cosine lr schedule that skips groups with fix_lr; stop-gradient via detach.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LARS(torch.optim.Optimizer):
    def __init__(self, params, lr=0, weight_decay=0, momentum=0.9, eta=0.001):
        defaults = dict(lr=lr, weight_decay=weight_decay, momentum=momentum, eta=eta)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in g["params"]:
                dp = p.grad
                if dp is None:
                    continue
                if not g.get("lars_exclude", False):
                    dp = dp.add(p, alpha=g["weight_decay"])
                    param_norm = torch.norm(p)
                    update_norm = torch.norm(dp)
                    one = torch.ones_like(param_norm)
                    q = torch.where(param_norm > 0.0,
                                    torch.where(update_norm > 0, (g["eta"] * param_norm / update_norm), one), one)
                    dp = dp.mul(q)
                param_state = self.state[p]
                if "mu" not in param_state:
                    param_state["mu"] = torch.zeros_like(p)
                mu = param_state["mu"]
                mu.mul_(g["momentum"]).add_(dp)
                p.add_(mu, alpha=-g["lr"])


class SimSiam(nn.Module):
    def __init__(self, dim=6, pred_dim=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(inplace=True),
                                     nn.Linear(8, dim), nn.BatchNorm1d(dim, affine=False))
        self.encoder[3].bias.requires_grad = False
        self.predictor = nn.Sequential(nn.Linear(dim, pred_dim, bias=False), nn.BatchNorm1d(pred_dim),
                                       nn.ReLU(inplace=True), nn.Linear(pred_dim, dim))

    def forward(self, x1, x2):
        z1, z2 = self.encoder(x1), self.encoder(x2)
        p1, p2 = self.predictor(z1), self.predictor(z2)
        return p1, p2, z1.detach(), z2.detach()


model = SimSiam()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 0.5 * i).view_as(p) * 0.7)

criterion = nn.CosineSimilarity(dim=1)
enc_params = [p for p in model.encoder.parameters() if p.requires_grad]
regular = [p for p in enc_params if p.ndim > 1]
excluded = [p for p in enc_params if p.ndim <= 1]
optim_params = [{"params": regular}, {"params": excluded, "lars_exclude": True},
                {"params": model.predictor.parameters(), "fix_lr": True}]
init_lr = 0.2
optimizer = LARS(optim_params, lr=init_lr, weight_decay=1e-4, momentum=0.9)
print([len(g["params"]) for g in optimizer.param_groups])
print(sorted(optimizer.param_groups[2].keys()))

x = torch.cos(torch.arange(6 * 4, dtype=torch.float32) * 0.45).view(6, 4)
x1, x2 = x + 0.1, torch.flip(x, dims=[1])
epochs = 8
for epoch in range(epochs):
    cur_lr = init_lr * 0.5 * (1.0 + math.cos(math.pi * epoch / epochs))
    for g in optimizer.param_groups:
        g["lr"] = init_lr if g.get("fix_lr", False) else cur_lr
    p1, p2, z1, z2 = model(x1, x2)
    loss = -(criterion(p1, z2).mean() + criterion(p2, z1).mean()) * 0.5
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, f"lr={cur_lr:.4f}", f"loss={loss.item():.4f}")

print("frozen bias grad", model.encoder[3].bias.grad)
print("z std", F.normalize(z1, dim=1).std(dim=0).mean().item() > 0)
state = optimizer.state_dict()
print(len(state["state"]), [sorted(g.keys()) for g in state["param_groups"]])
print("mu", optimizer.state[model.predictor[3].bias]["mu"].round(decimals=4))
