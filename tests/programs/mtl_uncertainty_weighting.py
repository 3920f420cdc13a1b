# Multi-task learning with homoscedastic uncertainty weighting (Kendall et al.): a shared trunk,
# a regression head and a classification head, learned log-variances optimized jointly with Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, in_dim=4, hidden=8, n_classes=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.Tanh())
        self.reg_head = nn.Linear(hidden, 1)
        self.cls_head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        h = self.trunk(x)
        return self.reg_head(h).squeeze(-1), self.cls_head(h)


class UncertaintyWeighting(nn.Module):
    def __init__(self, n_tasks):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def forward(self, losses):
        precision = torch.exp(-self.log_vars)
        return (precision * losses + self.log_vars).sum()


model = MultiTaskNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape))

weighting = UncertaintyWeighting(2)
x = torch.stack([torch.linspace(-1, 1, 24), torch.cos(torch.arange(24.0) * 0.5),
                 torch.sin(torch.arange(24.0) * 0.3), torch.linspace(1, -0.5, 24)], dim=1)
y_reg = 2.0 * x[:, 0] - x[:, 1] + 0.5 * x[:, 2] * x[:, 3]
y_cls = (torch.arange(24) * 7 % 3)

params = list(model.parameters()) + list(weighting.parameters())
opt = torch.optim.Adam([{"params": model.parameters()}, {"params": weighting.parameters(), "lr": 0.05}], lr=0.02)
print("param groups:", [len(g["params"]) for g in opt.param_groups], [g["lr"] for g in opt.param_groups])

for step in range(30):
    opt.zero_grad()
    pred_reg, logits = model(x)
    losses = torch.stack([F.mse_loss(pred_reg, y_reg), F.cross_entropy(logits, y_cls)])
    total = weighting(losses)
    total.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        w = torch.exp(-weighting.log_vars).detach()
        print(f"step {step:2d} total {total.item():.4f} reg {losses[0].item():.4f} cls {losses[1].item():.4f} "
              f"weights {[round(v, 4) for v in w.tolist()]}")

print("log_vars:", weighting.log_vars)
print("log_vars grad:", weighting.log_vars.grad)
print("sigma:", torch.exp(0.5 * weighting.log_vars).detach().numpy().round(4).tolist())
print(total.grad_fn, total.grad_fn.next_functions[0][0])
with torch.no_grad():
    pred_reg, logits = model(x)
    acc = (logits.argmax(1) == y_cls).float().mean()
print("final accuracy:", f"{acc.item():.3f}", "mse:", f"{F.mse_loss(pred_reg, y_reg).item():.4f}")
print(sorted(weighting.state_dict().keys()), weighting.state_dict()["log_vars"].shape)
