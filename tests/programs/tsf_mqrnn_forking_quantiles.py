# MQ-RNN (Wen et al.) forking-sequences training as in open reimplementations: an LSTM encoder
# over history + covariates, a global MLP producing a horizon-specific context for EVERY encoder
# step at once (forking), a local MLP per horizon with future covariates, quantile outputs for
# all (step, horizon) pairs, and a pinball loss masked where targets fall off the end of the series.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
Q = torch.tensor([0.1, 0.5, 0.9])


class MQRNN(nn.Module):
    def __init__(self, n_cov, hidden, horizon, ctx=4, n_q=3):
        super().__init__()
        self.H, self.ctx = horizon, ctx
        self.encoder = nn.LSTM(1 + n_cov, hidden, num_layers=1, batch_first=True)
        self.global_mlp = nn.Sequential(nn.Linear(hidden + horizon * n_cov, 16), nn.ReLU(),
                                        nn.Linear(16, (horizon + 1) * ctx))
        self.local_mlp = nn.Sequential(nn.Linear(2 * ctx + n_cov, 16), nn.ReLU(), nn.Linear(16, n_q))

    def forward(self, y, cov, fut_cov):
        # y [B, T], cov [B, T, C], fut_cov [B, T, H, C] (covariates of the H steps after each t)
        h, _ = self.encoder(torch.cat([y.unsqueeze(-1), cov], dim=-1))
        B, T, _ = h.shape
        g = self.global_mlp(torch.cat([h, fut_cov.flatten(start_dim=2)], dim=-1))
        g = g.view(B, T, self.H + 1, self.ctx)
        c_a = g[:, :, -1:, :].expand(-1, -1, self.H, -1)
        c_h = g[:, :, :-1, :]
        return self.local_mlp(torch.cat([c_h, c_a, fut_cov], dim=-1))    # [B, T, H, Q]


def forking_targets(y, H):
    """targets[b, t, k] = y[b, t + k + 1] and a mask for positions past the end."""
    B, T = y.shape
    padded = F.pad(y, (0, H), value=float("nan"))
    tg = padded[:, 1:].unfold(1, H, 1)[:, :T]
    mask = ~torch.isnan(tg)
    return torch.nan_to_num(tg, nan=0.0), mask


B, T, H, C = 3, 20, 4, 2
t = torch.arange(T + H, dtype=torch.float32)
cov_all = torch.stack([torch.sin(2 * torch.pi * t / 7), torch.cos(2 * torch.pi * t / 7)], -1).expand(B, -1, -1)
y = torch.stack([2 + torch.sin(2 * torch.pi * t[:T] / 7 + 0.3 * b) + 0.05 * t[:T] for b in range(B)])
fut_cov = cov_all[:, 1:].unfold(1, H, 1)[:, :T].permute(0, 1, 3, 2)
print("fut_cov", tuple(fut_cov.shape), "contiguous", fut_cov.is_contiguous())
targets, mask = forking_targets(y, H)
print("targets", tuple(targets.shape), "valid", int(mask.sum()), "of", mask.numel())
print(mask[0, -5:].int())

model = MQRNN(C, 8, H)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.57 + i).reshape(p.shape) * 0.3)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(30):
    opt.zero_grad()
    pred = model(y, cov_all[:, :T], fut_cov)
    err = targets.unsqueeze(-1) - pred
    pin = torch.maximum(Q * err, (Q - 1) * err)
    loss = pin[mask].mean()
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} pinball {loss.item():.5f}")

with torch.no_grad():
    pred = model(y, cov_all[:, :T], fut_cov)
last = pred[:, -1]                                   # forecast from the final step: [B, H, Q]
print("last-step quantiles", last[0])
crossing = (last[..., 0] > last[..., 1]) | (last[..., 1] > last[..., 2])
print("crossings", int(crossing.sum()))
cover = ((targets >= pred[..., 0]) & (targets <= pred[..., 2]))[mask].float().mean()
print(f"80% interval coverage {cover.item():.3f}")
