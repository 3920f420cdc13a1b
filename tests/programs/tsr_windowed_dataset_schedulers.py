# A torch.utils.data.Dataset of sliding windows built with as_strided and with stack, batched by
# DataLoader (shuffle=False), a GRU forecaster with multi-step output head, OneCycleLR /
# CosineAnnealingLR / ReduceLROnPlateau schedules, and metrics computed per epoch.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset


class WindowDataset(Dataset):
    def __init__(self, series, lookback, horizon):
        self.series, self.lookback, self.horizon = series, lookback, horizon

    def __len__(self):
        return len(self.series) - self.lookback - self.horizon + 1

    def __getitem__(self, i):
        x = self.series[i:i + self.lookback]
        y = self.series[i + self.lookback:i + self.lookback + self.horizon]
        return x.unsqueeze(-1), y


t = torch.arange(60, dtype=torch.float32)
series = 0.5 * torch.sin(0.4 * t) + 0.01 * t
ds = WindowDataset(series, 8, 3)
print(len(ds), ds[0][0].shape, ds[0][1])
strided = series.as_strided(size=(len(ds), 8), stride=(1, 1))
stacked = torch.stack([ds[i][0].squeeze(-1) for i in range(len(ds))])
print(strided.shape, strided.stride(), torch.equal(strided, stacked))
print(torch.equal(series.unfold(0, 8, 1)[:len(ds)], strided))

loader = DataLoader(ds, batch_size=16, shuffle=False, drop_last=False)
print(len(loader), [b[0].shape[0] for b in loader])
xb, yb = next(iter(loader))
print(xb.shape, yb.shape, xb.dtype)


class GRUForecaster(nn.Module):
    def __init__(self, hidden=12, horizon=3):
        super().__init__()
        self.gru = nn.GRU(1, hidden, num_layers=2, batch_first=True, dropout=0.1)
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, horizon))

    def forward(self, x):
        _, h = self.gru(x)
        return self.head(h[-1])


def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).reshape(p.shape))


for sched_name in ["onecycle", "cosine", "plateau"]:
    model = GRUForecaster()
    init(model)
    model.eval()  # no dropout for a reproducible run
    opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=1e-3)
    if sched_name == "onecycle":
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.02, total_steps=4 * len(loader))
    elif sched_name == "cosine":
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=1e-4)
    else:
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=0)
    for epoch in range(4):
        total, n = 0.0, 0
        for xb, yb in loader:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            if sched_name == "onecycle":
                sched.step()
            total += loss.item() * len(xb)
            n += len(xb)
        if sched_name == "cosine":
            sched.step()
        elif sched_name == "plateau":
            sched.step(total / n + (0.5 if epoch == 1 else 0.0))
        print(f"{sched_name} epoch {epoch} loss {total / n:.5f} lr {opt.param_groups[0]['lr']:.6f}")
    with torch.no_grad():
        X = torch.stack([ds[i][0] for i in range(len(ds))])
        Y = torch.stack([ds[i][1] for i in range(len(ds))])
        P = model(X)
        err = P - Y
        print(f"  MAE {err.abs().mean():.4f} RMSE {err.pow(2).mean().sqrt():.4f} per-step MAE {err.abs().mean(0)}")

td = TensorDataset(strided.unsqueeze(-1), series[8:8 + len(ds)])
print(len(td), td[3][1], [tuple(t.shape) for t in next(iter(DataLoader(td, batch_size=5)))])
