# Autoformer / DLinear / RevIN building blocks from long-horizon forecasting repos: series
# decomposition by a replicate-padded moving average (AvgPool1d), reversible instance
# normalisation (mean / var(unbiased=False) over time, affine, denorm), autocorrelation with
# top-k lags, and a DLinear model (per-channel Linear on seasonal + trend) trained briefly.
import torch
import torch.nn as nn


class MovingAvg(nn.Module):
    def __init__(self, kernel_size, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.avg = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=0)

    def forward(self, x):  # x: (B, L, C)
        front = x[:, 0:1, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        end = x[:, -1:, :].repeat(1, (self.kernel_size - 1) // 2, 1)
        x = torch.cat([front, x, end], dim=1)
        return self.avg(x.permute(0, 2, 1)).permute(0, 2, 1)


class SeriesDecomp(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.moving_avg = MovingAvg(kernel_size)

    def forward(self, x):
        trend = self.moving_avg(x)
        return x - trend, trend


class RevIN(nn.Module):
    def __init__(self, num_features, eps=1e-5, affine=True):
        super().__init__()
        self.eps = eps
        self.affine_weight = nn.Parameter(torch.ones(num_features))
        self.affine_bias = nn.Parameter(torch.zeros(num_features))

    def forward(self, x, mode):
        if mode == "norm":
            dims = tuple(range(1, x.ndim - 1))
            self.mean = torch.mean(x, dim=dims, keepdim=True).detach()
            self.stdev = torch.sqrt(torch.var(x, dim=dims, keepdim=True, unbiased=False) + self.eps).detach()
            x = (x - self.mean) / self.stdev
            return x * self.affine_weight + self.affine_bias
        x = (x - self.affine_bias) / (self.affine_weight + self.eps * self.eps)
        return x * self.stdev + self.mean


class DLinear(nn.Module):
    def __init__(self, seq_len, pred_len, channels, kernel=5):
        super().__init__()
        self.decomp = SeriesDecomp(kernel)
        self.revin = RevIN(channels)
        self.seasonal = nn.Linear(seq_len, pred_len)
        self.trend = nn.Linear(seq_len, pred_len)
        with torch.no_grad():
            self.seasonal.weight.copy_(torch.full((pred_len, seq_len), 1.0 / seq_len))
            self.trend.weight.copy_(torch.full((pred_len, seq_len), 1.0 / seq_len))
            self.seasonal.bias.zero_()
            self.trend.bias.zero_()

    def forward(self, x):
        x = self.revin(x, "norm")
        s, t = self.decomp(x)
        out = self.seasonal(s.permute(0, 2, 1)) + self.trend(t.permute(0, 2, 1))
        return self.revin(out.permute(0, 2, 1), "denorm")


t = torch.arange(96, dtype=torch.float64)  # float64: RevIN + decomposition cancel a lot in float32
data = torch.stack([torch.sin(2 * torch.pi * t / 12) + 0.02 * t, torch.cos(2 * torch.pi * t / 8) * 2 + 5], dim=-1)
print(data.shape, data.mean(0), data.std(0))
s, tr = SeriesDecomp(5)(data.unsqueeze(0))
print(s.shape, tr[0, :3], torch.allclose(s + tr, data.unsqueeze(0)))

centered = data - data.mean(0)
acf = torch.stack([(centered[:96 - k] * centered[k:]).sum(0) for k in range(48)])
acf = acf / acf[0]
print(acf.shape, acf[1:4])
vals, lags = torch.topk(acf[1:], 3, dim=0)
print(lags + 1)

seq_len, pred_len = 24, 6
idx = torch.arange(0, 96 - seq_len - pred_len + 1, 4)
X = torch.stack([data[i:i + seq_len] for i in idx])
Y = torch.stack([data[i + seq_len:i + seq_len + pred_len] for i in idx])
print(X.shape, Y.shape)
model = DLinear(seq_len, pred_len, 2).double()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} mse {loss.item():.5f}")
print(model.revin.affine_weight.data, model.revin.affine_bias.grad)
with torch.no_grad():
    pred = model(X[:1])
print(pred.shape, pred[0, :2])
print(model.revin.mean.shape, model.revin.stdev.squeeze())
