# Multi-quantile GRU forecaster as in probabilistic-forecasting blog posts: non-crossing quantiles
# built as a base plus cumsum of softplus increments, pinball loss by hand, warmup with LambdaLR
# then ExponentialLR via SequentialLR, clip_grad_norm_ returning the total norm, coverage of the
# 10-90% interval, and the scheduler's state_dict.
import torch
import torch.nn as nn
import torch.nn.functional as F

QUANTILES = torch.tensor([0.1, 0.5, 0.9])


class QuantileGRU(nn.Module):
    def __init__(self, hidden=8, n_q=3):
        super().__init__()
        self.gru = nn.GRU(1, hidden, num_layers=2, batch_first=True, dropout=0.0)
        self.base = nn.Linear(hidden, 1)
        self.incr = nn.Linear(hidden, n_q - 1)

    def forward(self, x):
        out, _ = self.gru(x)
        last = out[:, -1]
        base = self.base(last)
        steps = F.softplus(self.incr(last))
        return torch.cat([base, base + torch.cumsum(steps, dim=-1)], dim=-1)


def pinball(pred, y, q=QUANTILES):
    diff = y.unsqueeze(-1) - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


t = torch.arange(150, dtype=torch.float32)
y_all = torch.sin(0.2 * t) + 0.3 * torch.sin(1.7 * t)
X = y_all.unfold(0, 10, 2)[:-1].unsqueeze(-1)
Y = y_all[10::2][:X.shape[0]]
print(X.shape, Y.shape)
model = QuantileGRU()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.25 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + 0.4 * i).reshape(p.shape))

opt = torch.optim.AdamW(model.parameters(), lr=0.02)
warmup = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / 5)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warmup, decay], milestones=[5])
for step in range(20):
    opt.zero_grad()
    pred = model(X)
    loss = pinball(pred, Y)
    loss.backward()
    total_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    sched.step()
    if step % 4 == 0:
        print(f"step {step:2d} pinball {loss.item():.4f} norm {total_norm.item():.4f} lr {sched.get_last_lr()[0]:.5f}")

with torch.no_grad():
    pred = model(X)
    lo, mid, hi = pred.unbind(-1)
    coverage = ((Y >= lo) & (Y <= hi)).float().mean()
    print("monotone:", bool((pred.diff(dim=-1) >= 0).all()), f"coverage {coverage.item():.3f}")
    print(f"mae(median) {F.l1_loss(mid, Y).item():.4f} width {(hi - lo).mean().item():.4f}")
    per_q = torch.stack([pinball(pred[:, i:i + 1], Y, QUANTILES[i:i + 1]) for i in range(3)])
    print(per_q)
sd = sched.state_dict()
print(sorted(sd.keys()), sd["_milestones"], sd["last_epoch"])
print([g["lr"] for g in opt.param_groups], opt.state_dict()["param_groups"][0]["initial_lr"])
